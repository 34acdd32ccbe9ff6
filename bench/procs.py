"""The processes of a running `casino serve`: the portal and the game process it starts.

A bench that measures "the server" (memory, open files, CPU) adds up both:
the connections are the portal's, the sessions, tables and ledger the game
process's. A bench that crashes the casino kills both at once (a machine
crash): SIGKILL to the portal alone lets the game process stop cleanly.
Such a bench starts the server with `start_new_session=True` and calls
`crash`. (tests/support/process.py is the same for the tests.)
"""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path


def casino_pids(pid: int) -> list[int]:
    """`pid` (the portal, or a one-process casino) and its children (the game process)."""
    out = [pid]
    for children in Path(f"/proc/{pid}/task").glob("*/children"):
        try:
            out += [int(c) for c in children.read_text().split()]
        except OSError:
            pass
    return out


def group_alive(pgid: int) -> bool:
    """Whether a process of the group still runs (a zombie holds nothing)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            return True
    return False


def crash(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    """kill -9 of the whole casino (its own process group); returns once every process is dead."""
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=timeout)
    deadline = time.monotonic() + timeout
    while group_alive(proc.pid):
        if time.monotonic() > deadline:
            raise RuntimeError("the casino's processes outlived SIGKILL")
        time.sleep(0.02)         # a real process dying, not game time


def kill_all(proc: subprocess.Popen) -> None:
    """Cleanup: whatever of a casino started with start_new_session still runs is killed."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def cpu_seconds_of(pids: list[int]) -> float:
    """User plus system CPU time so far of these processes together (one gone counts 0)."""
    total = 0.0
    for one in pids:
        try:
            fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total

"""A real `casino serve` killed as a machine crash kills it: every process of it at once.

`casino serve` is two processes, the portal and the game process it starts
(server/portal). SIGKILL to the portal alone is not a crash of the casino:
the game process sees its portal go and stops cleanly, refunding every
stake. A test of what a crash leaves (holds open, recovered at the next
start) starts the server in a process group of its own
(`subprocess.Popen(..., start_new_session=True)`) and kills the group.
"""
from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path


def group_alive(pgid: int) -> bool:
    """Whether any process of the group still runs (a zombie is dead: it holds no file)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:          # gone meanwhile
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            return True
    return False


def crash(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    """SIGKILL to every process of the casino (its own group); returns once all are dead."""
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=timeout)
    deadline = time.monotonic() + timeout
    while group_alive(proc.pid):
        assert time.monotonic() < deadline, "the casino's processes outlived SIGKILL"
        time.sleep(0.02)         # a real process dying, not game time


def reap(proc: subprocess.Popen) -> None:
    """Cleanup after a test: whatever of the casino still runs is killed."""
    if proc.poll() is None or group_alive(proc.pid):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()

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
import socket
import subprocess
import sys
import time
from pathlib import Path

from bench.procs import crash, group_alive    # the soak bench kills a casino the same way

__all__ = ["crash", "group_alive", "reap", "serve"]

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(db: Path, config: Path, rooms: Path, seed: int) -> tuple[subprocess.Popen[bytes], int]:
    """A real `casino serve` (portal and game process) on `db`, in a process group of its
    own so that `crash` kills both; returns once it listens (on a free port)."""
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "server", "--port", str(port), "--data", str(db),
                             "--config", str(config), "--rooms", str(rooms), "--seed", str(seed),
                             "--web-port", "0",          # never the config's fixed browser port
                             "--pid-file", str(db.parent / "casino.pid")],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)     # waiting for a real process to listen, not game time


def reap(proc: subprocess.Popen) -> None:
    """Cleanup after a test: whatever of the casino still runs is killed."""
    if proc.poll() is None or group_alive(proc.pid):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()

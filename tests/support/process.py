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

from bench.procs import crash, group_alive    # the soak bench kills a casino the same way

__all__ = ["crash", "group_alive", "reap"]


def reap(proc: subprocess.Popen) -> None:
    """Cleanup after a test: whatever of the casino still runs is killed."""
    if proc.poll() is None or group_alive(proc.pid):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    proc.wait()

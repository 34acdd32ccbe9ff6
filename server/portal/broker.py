"""The NATS broker of `server.bus`, started by `casino serve` when it is to run on
this machine and nothing answers there yet.

Shards need the broker for the words that cross them (server/casino/crossing.py).
An operator may run it as a service (then `casino serve` finds it answering and
leaves it alone) or on another machine; a bus on this machine's loopback
address that nobody serves is started here, as Debian's `nats-server` on that
address and port, a child of the portal (or supervisor): it lives through every
restart of a game process and stops with the casino. Not found installed, the
casino runs without it (the crossing words then say the bus is down) and the
log says why.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
import socket
import time
from urllib.parse import urlsplit

from server import logs

log = logging.getLogger("casino.portal")

LOOPBACK = ("127.0.0.1", "localhost", "::1")
START_WAIT = 10.0        # seconds for a started broker to accept


def _answers(host: str, port: int) -> bool:
    try:
        socket.create_connection((host, port), timeout=1).close()
        return True
    except OSError:
        return False


class LocalBroker:
    """The broker this process started (None of it when it runs elsewhere)."""

    def __init__(self, proc: asyncio.subprocess.Process | None = None) -> None:
        self.proc = proc

    @classmethod
    async def start(cls, url: str) -> LocalBroker:
        parts = urlsplit(url)
        host, port = parts.hostname or "", parts.port or 4222
        if host not in LOOPBACK or await asyncio.to_thread(_answers, host, port):
            return cls()
        binary = shutil.which("nats-server") or shutil.which("nats-server", path="/usr/sbin:/usr/bin")
        if binary is None:
            log.warning("event=broker_missing url=%s reason=%s", url,
                        "nats-server is not installed (Debian: apt-get install nats-server)")
            return cls()
        proc = await asyncio.create_subprocess_exec(binary, "-a", host, "-p", str(port),
                                                    stdout=asyncio.subprocess.DEVNULL,
                                                    stderr=asyncio.subprocess.DEVNULL)
        deadline = time.monotonic() + START_WAIT
        while not await asyncio.to_thread(_answers, host, port):
            if proc.returncode is not None or time.monotonic() > deadline:
                log.warning("event=broker_failed url=%s code=%s", url, proc.returncode)
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                return cls()
            await asyncio.sleep(0.02)     # a real process starting
        logs.event(log, "broker_started", url=url, pid=proc.pid)
        return cls(proc)

    async def stop(self) -> None:
        proc, self.proc = self.proc, None
        if proc is None or proc.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.terminate()
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except asyncio.TimeoutError:
            proc.kill()

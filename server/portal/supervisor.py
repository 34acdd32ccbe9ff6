"""`casino serve` with several portals: the supervisor and the portals it keeps.

One portal is the parent of every game process (server/portal/portal.py):
kill it and the casino stops. With `server.portals: N` above one, `casino
serve` is a supervisor instead, holding no connection: it starts every
shard's game process as the one portal does (a restart, a crash, the last
good config: server/portal/shard_games.py), then N portals, which share the
telnet and web ports (SO_REUSEPORT) and dial every game process
(server/portal/dialing.py). A portal killed takes only its own connections
with it; the supervisor starts another on the same port. The supervisor
holds the ports bound (not listening) from the start, so port 0 names one
free port for all of them, and no other program takes it while a portal is
replaced.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
from collections.abc import Callable

from server import logs
from server.portal.game_process import StartFailures

log = logging.getLogger("casino.portal")

READY_ENV = "CASINO_PORTAL_READY_FD"    # a portal writes "listening" there once it listens
LIFELINE_ENV = "CASINO_PORTAL_LIFELINE_FD"   # its end of a pipe the supervisor holds open: EOF, it died
INDEX_ENV = "CASINO_PORTAL_INDEX"       # which portal it is, from 0 (its /metrics port: portal_port)
PORTAL_STOP_TIMEOUT = 30.0              # seconds a stopping portal has before it is killed


class Portals:
    """The supervisor's portals: `count` of them, each `python -m server.portal` with
    `env` (its plan), started again when one dies while the casino serves."""

    def __init__(self, env: dict[str, str], count: int) -> None:
        self.env = env
        self.count = count
        self.procs: dict[int, asyncio.subprocess.Process] = {}
        self.spawned: set[asyncio.subprocess.Process] = set()   # every one alive, listening or not yet
        self.failures = StartFailures()
        self.closing = False
        self.tasks: set[asyncio.Task[None]] = set()
        # Each portal's end of a pipe whose other end only this process holds: when the
        # supervisor dies, however it dies, every portal reads its end and stops (a portal
        # left behind would dial game processes that are gone, forever, on the casino's port).
        self.lifeline_read, self.lifeline_write = os.pipe()

    async def start(self) -> bool:
        """Every portal, listening; False if one exits before it listens."""
        started = await asyncio.gather(*(self._start(i) for i in range(self.count)))
        return all(started)

    async def _start(self, index: int) -> bool:
        loop = asyncio.get_running_loop()
        if self.closing:
            return False
        read_fd, write_fd = os.pipe()
        try:
            proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "server.portal", pass_fds=(write_fd, self.lifeline_read),
                env=dict(os.environ, **self.env, **{READY_ENV: str(write_fd), INDEX_ENV: str(index),
                                                    LIFELINE_ENV: str(self.lifeline_read)}))
        finally:
            os.close(write_fd)
        self.spawned.add(proc)
        reader = asyncio.StreamReader()
        with os.fdopen(read_fd, "rb") as pipe:
            transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
            try:
                said = await reader.readline()
            finally:
                transport.close()
        if said.strip() != b"listening":
            await proc.wait()
            self.spawned.discard(proc)
            log.error("event=portal_failed index=%d code=%s", index, proc.returncode)
            return False
        self.procs[index] = proc
        logs.event(log, "portal_started", index=index, pid=proc.pid)
        task = asyncio.create_task(self._watch(index, proc))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return True

    async def _watch(self, index: int, proc: asyncio.subprocess.Process) -> None:
        """A portal that exits while the casino serves is replaced (its players are gone)."""
        code = await proc.wait()
        self.spawned.discard(proc)
        if self.closing:
            return
        self.procs.pop(index, None)
        log.warning("event=portal_died index=%d pid=%d code=%d", index, proc.pid, code)
        while not self.closing:
            if await self._start(index):
                self.failures.clear()
                return
            self.failures.add()
            if self.failures.keeps_failing():
                log.error("event=portal_keeps_failing failures=%d", self.failures.count)
            await asyncio.sleep(self.failures.wait())   # whatever failed may need a moment

    def pids(self) -> list[int]:
        return [proc.pid for proc in self.procs.values()]

    def stopping(self) -> None:
        """The casino is stopping: a portal that exits from now on (on the game
        processes' goodbye) is not started again."""
        self.closing = True

    async def stop(self) -> None:
        """The casino stops: each portal has had the game processes' goodbye, and is told to go."""
        self.closing = True
        procs = list(self.spawned)
        for proc in procs:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                await asyncio.wait_for(proc.wait(), PORTAL_STOP_TIMEOUT)
            except asyncio.TimeoutError:
                proc.kill()
        for fd in (self.lifeline_read, self.lifeline_write):
            with contextlib.suppress(OSError):
                os.close(fd)


def follow_lifeline(stop: Callable[[], None]) -> None:
    """A portal the supervisor started: `stop` once the supervisor is gone (its
    lifeline's end reads EOF; it writes nothing to it)."""
    fd_text = os.environ.pop(LIFELINE_ENV, None)
    if fd_text is None:
        return
    fd = int(fd_text)
    loop = asyncio.get_running_loop()

    def readable() -> None:
        try:
            data = os.read(fd, 1)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            loop.remove_reader(fd)
            stop()
    os.set_blocking(fd, False)
    loop.add_reader(fd, readable)


def portal_index() -> int:
    """A portal the supervisor started: which one it is (0, 1, ...; started again, the same)."""
    return int(os.environ.pop(INDEX_ENV, "0"))


def tell_ready() -> None:
    """A portal the supervisor started: listening now."""
    fd = os.environ.pop(READY_ENV, None)
    if fd is None:
        return
    with contextlib.suppress(OSError, ValueError):
        os.write(int(fd), b"listening\n")
        os.close(int(fd))

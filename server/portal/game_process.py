"""The portal's side of one game process: starting it, hearing it, and when to give up.

The game process is a child (`casino game`) given one end of a socket pair
for messages and one end of another for telnet sockets (server/portal/handover.py);
the portal keeps the other ends. What the game process says about itself (ready,
bye, lines handed back) is kept on its `GameProcess`, since what the portal
does when it exits depends on it: a `bye` without `restart` is a stop for
good, a `bye` with it a replacement, and no `bye` at all a crash.

`StartFailures` is how long to wait before the next start after failed
ones (a game process that cannot start, or dies within ten seconds of
starting): 1 s, doubling to 30 s. The portal never stops trying while its
players wait (issue 42): what failed is most often the database, which comes
back, and a casino that exits would drop everyone for it. One that dies
after serving a while is replaced at once.
"""
from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from server.net.lines import TooLong
from server.portal import handover, protocol
from server.portal.last_good import Dirs

log = logging.getLogger("casino.portal")

FIRST_WAIT = 1.0           # seconds before the start after a failed one ...
LONGEST_WAIT = 30.0        # ... doubling each failure up to this
FAILED_STARTS = 3          # failures in a row that the log calls an error (`game_keeps_failing`)
LINK_FAILED_WAIT = 30.0    # seconds a game process whose link failed has to stop before it is killed
CRASH_SOON = 10.0          # seconds: a game process that dies this soon after ready counts as failed


class GameProcess:
    """One game process: the child (None: one another process started, dialed) and
    our end of its socket."""

    def __init__(self, proc: asyncio.subprocess.Process | None, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter, sockets: handover.Sender) -> None:
        self.proc = proc
        self.sockets = sockets          # the telnet sockets it is handed
        self.reader = reader
        self.writer = writer
        self.outbox = protocol.Outbox(writer)
        self.ready = False
        self.ready_at = 0.0                           # when it said ready (monotonic)
        self.started: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.bye: protocol.Bye | None = None          # what it said before exiting
        self.config_copy: Dirs | None = None          # the copy of the files it read (last_good.py)
        self.returned: dict[int, list[str | TooLong]] = {}   # lines it handed back (`again`)
        self.ended = False                 # we sent our last message
        self.quiet = 0                     # clock ticks since it last said anything (server/portal/silence.py)
        self.told_quiet = False            # its players were told it does not answer

    @classmethod
    async def spawn(cls, argv: list[str], env: dict[str, str]) -> GameProcess:
        """Start `argv` with the far end of a new socket pair (its fd in CASINO_LINK_FD)
        and of a handover pair (CASINO_HANDOVER_FD)."""
        here, there = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        ours, theirs = handover.channel()
        env = dict(os.environ, CASINO_LINK_FD=str(there.fileno()),
                   CASINO_HANDOVER_FD=str(theirs.fileno()), **env)
        # the portal's process group (a kill of the group is a crash of the whole casino);
        # a terminal's Ctrl-C or hang-up reaches both, and the game process ignores them
        # (server/cli/game.py): the portal's `stop` stops it cleanly instead
        try:
            proc = await asyncio.create_subprocess_exec(*argv, pass_fds=(there.fileno(), theirs.fileno()),
                                                        env=env)
        finally:
            there.close()
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=here, limit=protocol.LINE_LIMIT)
        return cls(proc, reader, writer, handover.Sender(ours))

    @classmethod
    async def dial(cls, path: str) -> GameProcess:
        """Link to the game process listening on the Unix socket `path` (one the
        supervisor started, server/portal/dialed.py): the far end of a new handover
        pair goes first, in the connection's ancillary data. OSError if none listens."""
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.setblocking(False)
        ours, theirs = handover.channel()
        try:
            await asyncio.get_running_loop().sock_connect(sock, path)
            socket.send_fds(sock, [b"H"], [theirs.fileno()])
        except OSError:
            sock.close()
            ours.close()
            raise
        finally:
            theirs.close()
        reader, writer = await asyncio.open_unix_connection(sock=sock, limit=protocol.LINE_LIMIT)
        return cls(None, reader, writer, handover.Sender(ours))

    def send(self, message: protocol.Message) -> None:
        if not self.ended and not self.writer.is_closing():
            self.outbox.send(message)

    def full(self) -> bool:
        """Whether it has left so much of what it was sent unread (paused, stuck) that no
        more input should go to it for now (protocol.Outbox.full)."""
        return self.outbox.full()

    def end(self) -> None:
        """Send nothing more: the game process reads to the end of what it was sent, then exits."""
        self.ended = True
        self.outbox.flush()
        if self.writer.can_write_eof() and not self.writer.is_closing():
            self.writer.write_eof()

    async def run(self, on_message: Callable[[protocol.Message], None]) -> int:
        """Read everything it says until it exits, its exit code then. What is about
        itself is kept here; every other message goes to `on_message`."""
        try:
            async for message in protocol.messages(self.reader):
                self.quiet, self.told_quiet = 0, False
                if message["t"] == "pong":
                    continue
                if message["t"] == "ready":
                    self.ready = True
                    self.ready_at = time.monotonic()
                    self.started.set_result(True)
                    on_message(message)
                elif message["t"] == "bye":
                    self.bye = message
                    self.ready = False         # what is typed from now on waits for the next one
                    self.end()
                elif message["t"] == "again":
                    self.returned.setdefault(message["id"], []).extend(protocol.unpack_lines(message["l"]))
                else:
                    on_message(message)
        except ConnectionError as e:               # it died mid-message: its exit says the rest
            log.warning("event=game_link_lost error=%r", e)
        except Exception:                          # a line no reader takes (protocol.BadLine), or a bug
            log.exception("event=game_link_error")
            return await self._replace()
        return await self._ended()

    async def _ended(self) -> int:
        self.outbox.flush()
        self.writer.close()                        # the game process waits for this after its bye
        self.sockets.close()
        code = await self.proc.wait() if self.proc is not None else 0
        if not self.started.done():                # it never served
            self.started.set_result(False)
        return code

    async def _replace(self) -> int:
        """Its link can no longer be read: it is told to stop to be replaced (a restart:
        it settles its tables and lets every connection go to the portal, which still
        holds them) and the link ends; it is killed if it has not exited within
        LINK_FAILED_WAIT. What it says meanwhile is unread, so it counts as crashed
        (no bye) and the portal starts the next one."""
        self.bye = None
        self.ready = False
        if not self.ended and not self.writer.is_closing():
            self.outbox.send({"t": "restart", "why": "The casino is restarting."})
        self.ended = True
        self.outbox.flush()
        self.writer.close()
        if self.proc is not None:
            try:
                await asyncio.wait_for(self.proc.wait(), LINK_FAILED_WAIT)
            except asyncio.TimeoutError:
                self.proc.kill()
        return await self._ended()

    @property
    def crashed(self) -> bool:
        """It exited without saying goodbye (kill -9, an uncaught error)."""
        return not self.bye

    def died_at_once(self) -> bool:
        """A crash so soon after it started serving that it counts as a failed start."""
        return self.crashed and time.monotonic() - self.ready_at < CRASH_SOON


@dataclass
class StartFailures:
    """Failed starts one after another (cannot start, or died at once), until one serves."""

    count: int = 0

    def add(self) -> None:
        self.count += 1

    def clear(self) -> None:
        self.count = 0

    def wait(self) -> float:
        """Seconds before the next start: 1, 2, 4 ... 30."""
        return min(LONGEST_WAIT, FIRST_WAIT * 2.0 ** min(max(0, self.count - 1), 8))

    def keeps_failing(self) -> bool:
        """The failure that makes this a streak worth an error in the log (said once a streak)."""
        return self.count == FAILED_STARTS


class Ahead:
    """The game process started ahead of a restart (the one serving said `restarting`):
    it imports and reads the config while the tables settle, and opens the database
    only when handed the connections. At most one; one not taken is ended."""

    def __init__(self) -> None:
        self.task: asyncio.Task[GameProcess] | None = None

    def start(self, spawn: Callable[[], Awaitable[GameProcess]]) -> None:
        if self.task is None:
            self.task = asyncio.ensure_future(spawn())

    def take(self) -> asyncio.Task[GameProcess] | None:
        task, self.task = self.task, None
        return task

    async def drop(self, timeout: float) -> None:
        """It will not serve: it exits at the end of its link (killed after `timeout` s)."""
        task = self.take()
        if task is None:
            return
        try:
            game = await task
        except OSError:
            return
        game.end()
        if game.proc is None:
            return
        try:
            await asyncio.wait_for(game.proc.wait(), timeout)
        except asyncio.TimeoutError:
            game.proc.kill()

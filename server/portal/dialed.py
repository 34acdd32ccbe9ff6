"""Portals beside the first: the links each one dials to a game process.

With `server.portals` above one, `casino serve` is a supervisor: it starts
every shard's game process (its own link to each is the one a restart and
a stop go through: server/portal/shard_games.py) and the portals, which
listen on one port (SO_REUSEPORT: the kernel spreads the connections) and
dial each game process on a Unix socket of its own (`casino game --links
PATH`), opened once the game process serves and closed as soon as it stops.
A dialed link is the same link as the first one (server/portal/game.py),
with the far end of its own handover pair sent first, in the connection's
ancillary data: the portal hands telnet sockets over it as the first one does.

The socket is in a directory only the casino's user can enter (the
supervisor makes it): a portal's word is trusted for who is logged in (a
restart's `hello`), so nobody else may dial. A dialed link that ends
(its portal killed) ends its connections here and nothing else.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import AsyncIterator, Callable
from typing import Protocol

from server.portal import handover, protocol

log = logging.getLogger("casino.portal")

HELLO_WAIT = 10.0     # seconds a dialing portal has to send its handover socket


class GameLink(Protocol):
    """A portal's link as this module uses it (server.portal.game.GameLink)."""

    closed: bool
    outbox: protocol.Outbox

    @property
    def writer(self) -> asyncio.StreamWriter: ...

    def send(self, message: protocol.Message) -> None: ...
    def adopt(self, message: handover.Adopt, sock: socket.socket) -> None: ...
    def let_go(self) -> None: ...
    async def run(self, incoming: AsyncIterator[protocol.Message], first: protocol.Message) -> None: ...


class Closing(Protocol):
    @property
    def closing(self) -> bool: ...


MakeLink = Callable[[asyncio.StreamReader, asyncio.StreamWriter], GameLink]   # a dialed GameLink


class Links:
    """Every portal link of this game process, for what is said to all of them
    (`restarting`, `reloaded`): the casino's `portal` (server.net.edge_app.PortalLink)."""

    def __init__(self, first: GameLink) -> None:
        self.first = first
        self.dialed: dict[GameLink, handover.Receiver] = {}
        self.reading: set[asyncio.Task[None]] = set()   # each dialed link's messages

    @property
    def all(self) -> list[GameLink]:
        return [self.first, *self.dialed]

    def send(self, message: protocol.Message) -> None:
        for link in self.all:
            link.send(message)

    def close_sockets(self) -> None:
        """No more sockets handed over a dialed link (the first one's is the caller's)."""
        for receiver in self.dialed.values():
            receiver.close()


class DialedListener:
    """The Unix socket portals dial, with each link it accepted (in `links`)."""

    def __init__(self, app: Closing, links: Links, path: str, make_link: MakeLink) -> None:
        self.app = app
        self.links = links
        self.make_link = make_link
        self.path = path
        self.sock: socket.socket | None = None

    def open(self) -> None:
        """Listen on `path` (a file left by a process killed before is replaced)."""
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            sock.bind(self.path)
            sock.listen(64)
        except OSError:
            sock.close()
            raise
        sock.setblocking(False)
        self.sock = sock
        asyncio.get_running_loop().add_reader(sock.fileno(), self._ready)

    def _ready(self) -> None:
        assert self.sock is not None
        while True:
            try:
                conn, _ = self.sock.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                return
            task = asyncio.create_task(self._serve(conn))
            self.links.reading.add(task)
            task.add_done_callback(self.links.reading.discard)

    async def _serve(self, conn: socket.socket) -> None:
        try:
            fds = await asyncio.wait_for(_handover_socket(conn), HELLO_WAIT)
        except (OSError, asyncio.TimeoutError, ConnectionError):
            conn.close()
            return
        reader, writer = await asyncio.open_unix_connection(sock=conn, limit=protocol.LINE_LIMIT)
        link = self.make_link(reader, writer)
        self.links.dialed[link] = handover.Receiver(fds, link.adopt)
        incoming = protocol.messages(reader)
        try:
            hello = await anext(incoming, None)
            if hello is not None and not self.app.closing:
                await link.run(incoming, hello)
        except ConnectionError:
            pass
        except ValueError:                   # a hello no reader takes (protocol.BadLine)
            log.exception("event=portal_link_error at=hello dialed=True")
        finally:
            receiver = self.links.dialed.pop(link, None)
            if receiver is not None:
                receiver.close()
            if not self.app.closing:
                link.closed = True
                writer.close()

    def close(self) -> None:
        """Dial no more: a stopping process is not dialed (its successor listens here)."""
        sock, self.sock = self.sock, None
        if sock is None:
            return
        asyncio.get_running_loop().remove_reader(sock.fileno())
        sock.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(self.path)


async def _handover_socket(conn: socket.socket) -> socket.socket:
    """The dialing portal's first byte, with the game process's end of its handover pair."""
    conn.setblocking(False)
    loop = asyncio.get_running_loop()
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(conn, 1, 1)
            break
        except BlockingIOError:
            readable: asyncio.Future[None] = loop.create_future()

            def wake(readable: asyncio.Future[None] = readable) -> None:
                if not readable.done():
                    readable.set_result(None)
            loop.add_reader(conn.fileno(), wake)
            try:
                await readable
            finally:
                loop.remove_reader(conn.fileno())
    if data != b"H" or len(fds) != 1:
        for fd in fds:
            os.close(fd)
        raise ConnectionError("a dialing portal sent no handover socket")
    return socket.socket(fileno=fds[0])

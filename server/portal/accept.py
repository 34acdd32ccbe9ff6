"""The portal's telnet port: sockets accepted and handed on, never read here.

A listener of plain sockets (no asyncio transport, nothing read or parsed):
each accepted socket goes to `accepted`, which counts it in the caps and
hands it to the game process (server/portal/handover.py). The telnet edge
itself (server/net/telnet.py) runs in the game process, on the socket.
"""
from __future__ import annotations

import asyncio
import socket
from typing import Callable

BACKLOG = 1024          # connections the kernel queues while the portal is busy
ACCEPTS_A_TURN = 128    # sockets accepted before other work gets a turn


class Acceptor:
    """Listening sockets for host:port, as asyncio's create_server binds them
    (every address of the host, SO_REUSEADDR, IPv6 only on IPv6)."""

    def __init__(self, sockets: list[socket.socket], accepted: Callable[[socket.socket, str], None]) -> None:
        self.sockets = sockets
        self.accepted = accepted
        loop = asyncio.get_running_loop()
        for sock in sockets:
            loop.add_reader(sock.fileno(), self._ready, sock)

    def _ready(self, listening: socket.socket) -> None:
        for _ in range(ACCEPTS_A_TURN):
            try:
                conn, peer = listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:                  # out of descriptors, a reset before accept
                return
            conn.setblocking(False)
            self.accepted(conn, str(peer[0]) if isinstance(peer, tuple) else "?")

    def close(self) -> None:
        loop = asyncio.get_running_loop()
        for sock in self.sockets:
            if sock.fileno() >= 0:
                loop.remove_reader(sock.fileno())
                sock.close()


def listen(host: str, port: int, accepted: Callable[[socket.socket, str], None],
           reuse_port: bool = False) -> Acceptor:
    """Bind and listen on every address of `host` (OSError if one cannot be had).
    `reuse_port`: beside the other portals on this port (SO_REUSEPORT: the kernel
    gives each new connection to one of them)."""
    sockets = bound(host, port, reuse_port)
    try:
        for sock in sockets:
            sock.listen(BACKLOG)
            sock.setblocking(False)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return Acceptor(sockets, accepted)


def bound(host: str, port: int, reuse_port: bool = False) -> list[socket.socket]:
    """A socket bound to `port` on every address of `host`, not listening yet (port 0:
    one free port for all). Bound alone with `reuse_port`, it holds a port for the
    portals to share and takes no connection (the kernel gives them to listeners)."""
    found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in found:
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if reuse_port:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if port == 0 and len(sockets) > 1:          # one free port for every address
                address = (address[0], sockets[0].getsockname()[1], *address[2:])
            sock.bind(address)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets

"""The ports players connect to: telnet, and the browser page when served."""
from __future__ import annotations

import errno
import socket
from typing import TYPE_CHECKING, Awaitable, Callable, Protocol, Sequence, TypeVar

from server.net.edge_app import addresses

if TYPE_CHECKING:
    from server.net.telnet import TelnetApp
    from server.net.web import WebServer


class CannotListen(Exception):
    """A port the casino cannot listen on, said in one line for `casino serve`:
    "port 4000 is in use: another program listens on 127.0.0.1:4000 ..."."""

    def __init__(self, host: str, port: int, option: str, error: OSError) -> None:
        self.port = port
        web = option == "--web-port"
        what = "the browser page's port" if web else "the telnet port"
        choose = f"choose another with {option} (make run: {'WEB_PORT' if web else 'PORT'}=)"
        if error.errno == errno.EADDRINUSE:
            line = (f"port {port} is in use: another program (a casino already running?) "
                    f"listens on {host}:{port}, {what}; {choose}")
        else:
            reason = error.strerror or str(error)
            line = f"cannot listen on {host}:{port}, {what}: {reason}; {choose}"
        super().__init__(line)


def check_free(host: str, port: int, web_port: int | None) -> None:
    """Raise CannotListen now for a port another program holds, before anything else
    opens (the ledger, the tables, a game process), so a second casino on a busy port
    says its one line and nothing more. Bound as asyncio's listeners bind
    (SO_REUSEADDR), then let go at once; 0 (any free port) is always free."""
    for option, number in (("--web-port", web_port), ("--port", port)):
        if not number:
            continue
        try:
            found = socket.getaddrinfo(host or None, number, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        except OSError:
            continue                           # the listener itself says what is wrong with the host
        for family, kind, proto, _, address in found:
            with socket.socket(family, kind, proto) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                try:
                    probe.bind(address)
                except OSError as e:
                    raise CannotListen(host, number, option, e) from e


class Listening(Protocol):
    """A telnet listener: telnetlib3's Server, or the portal's Acceptor (server/portal/accept.py)."""

    @property
    def sockets(self) -> Sequence[socket.socket] | None: ...

    def close(self) -> None: ...


Opened = TypeVar("Opened")      # what an opener starts: telnetlib3's Server, or the page's WebServer
Opener = Callable[["TelnetApp", str, int], Awaitable[Opened]]   # start_telnet, start_web


class Listeners:
    """The telnet listener and the browser page's server, opened for `host`
    (the casino as the edges see it). None are opened in a game process:
    its portal holds the connections."""

    def __init__(self, where: str) -> None:
        self.host = where                    # where players connect
        self._telnet: Listening | None = None
        self._web: WebServer | None = None   # when serving the page
        self._told: tuple[int, int] = (0, 0)   # a game process's ports, as its portal listens (told)

    async def open(self, app: TelnetApp, host: str, port: int, web_port: int | None,
                   telnet: Opener[Listening] | None = None, reuse_port: bool = False) -> None:
        """Listen for telnet on host:port and, when `web_port` is given, serve
        the page on host:web_port (0 for either: any free port). Raises
        CannotListen for a port that cannot be had (what was opened stays
        open for the caller's stop to close). `telnet`: what listens on the
        telnet port instead of the telnet edge (the portal's handover). `reuse_port`:
        the page's port shared with other portals (the telnet opener shares its own)."""
        if web_port is not None:             # first: once telnet answers, so does the page
            from server.net.web import start_web

            async def web(app: TelnetApp, host: str, port: int) -> WebServer:
                return await start_web(app, host, port, reuse_port=reuse_port)
            self._web = await self._listen(web, app, host, web_port, "--web-port")
        if telnet is None:                   # the portal's handover loads no telnetlib3
            from server.net.telnet import start_telnet
            telnet = start_telnet
        opener: Opener[Listening] = telnet
        self._telnet = await self._listen(opener, app, host, port, "--port")
        self.host = host

    @staticmethod
    async def _listen(opener: Opener[Opened], app: TelnetApp, host: str, port: int, option: str) -> Opened:
        try:
            return await opener(app, host, port)
        except OSError as e:
            raise CannotListen(host, port, option, e) from e

    async def close(self) -> None:
        """telnetlib3's Server.close() also closes every client transport: the
        caller has said its goodbyes by now."""
        if self._telnet:
            self._telnet.close()
        if self._web:
            await self._web.close()

    def told(self, port: int, web_port: int) -> None:
        """A game process opens no listener: its portal's ports (MSSP says them)."""
        self._told = (port, web_port)

    @property
    def port(self) -> int:
        sockets = self._telnet.sockets if self._telnet else None
        return int(sockets[0].getsockname()[1]) if sockets else self._told[0]

    @property
    def web_port(self) -> int:
        """The browser page's port (0 when not served)."""
        return self._web.port if self._web else self._told[1]

    @property
    def addresses(self) -> str:
        """Where players connect, for the operator: telnet and (when served) web."""
        return addresses(self.host, self.port, self.web_port)

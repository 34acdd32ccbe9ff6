"""One connection's life, the same for telnet and the browser.

Each edge keeps only its protocol (telnet negotiation and its byte budget;
HTTP, WebSocket framing and HTTP deadlines) and hands every step of a
connection's life to this module, in this order:

- admission (`Edge.admit`): refused while the casino is closing (with its
  stop reason) or past a cap of the shared ConnectionCounter (with the
  counter's sentence), the refusal logged once a minute per address and
  edge; otherwise counted in the caps and given a `Connection`;
- the session (`Connection.opened`): one Session over the edge's Writer,
  with the configured `max_output`;
- the session's life (`Connection.serve`): app.on_connect, then every chunk
  of text the edge reads goes through one LineSplitter (`max_line`) to
  app.on_input, until the client hangs up or the session is closed; then
  app.on_disconnect, and the session is closed if it is not already;
- the end (`Connection.hung_up`, `Connection.linger`, `Connection.closed`):
  the session learns its client is gone; a socket closing politely stays
  counted until it is really closed, and is aborted after CLOSE_GRACE
  seconds; `closed` takes the connection out of the caps exactly once,
  however the connection ended.

"Not logged in", one rule for both edges (docs/operating.md): a connection
counts as not logged in from the moment its socket is accepted until a
session on it logs in (`logged_in`), or else until its socket is really
closed. A connection that never carries a session (a telnet client that
hangs up during negotiation, a plain HTTP request for the page or its
script) therefore counts as not logged in for as long as it is open. A
login counts only for its own connection, never for another one from the
same address. A login that finishes after its socket was counted out
changes no count (the flag `Session.anonymous` is cleared at release).
"""
from __future__ import annotations

import asyncio
import logging
from typing import AsyncGenerator, Callable, Protocol

from server import logs
from server.metrics import COUNTS
from server.net.edge_app import EdgeApp
from server.net.lines import LineSplitter, TooLong
from server.net.session import Session, Writer
from server.net.throttle import ConnectionCounter

log = logging.getLogger("casino.net")

CLOSE_GRACE = 2.0          # seconds a closing socket may take to flush before it is aborted
REFUSAL_LOG_EVERY = 60.0   # seconds between logged refusals of one address on one edge
LOGGED_MAX = 10_000        # addresses remembered for that before they are forgotten at once


class Entry(Protocol):
    """How a session on a handed socket begins and takes its lines
    (server.portal.game.Kept): logged in again after a restart, and lines read
    while the process stops handed back to the next one."""

    @property
    def partial(self) -> str: ...           # an unfinished line the process before read

    async def greet(self, session: Session) -> None: ...

    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None: ...

    async def moved(self, session: Session, partial: str) -> None: ...   # walked into another shard


class Edge:
    """Admission to one listening edge (`via`: "telnet" or "web") of `app`."""

    def __init__(self, app: EdgeApp, via: str, error_event: str) -> None:
        self.app = app
        self.via = via
        self.error_event = error_event   # what an unexpected error in a session's life is logged as
        self._logged: dict[str, float] = {}

    def refusal(self, ip: str) -> str | None:
        """Why a new connection from `ip` may not open now (the line it is
        told), or None."""
        app = self.app
        return f"*** {app.stop_reason} ***" if app.closing else app.connections.refusal(ip)

    def admit(self, ip: str) -> "Connection | str":
        """A socket from `ip` was accepted: its Connection, counted in the
        caps from now until `closed`, or the line it is refused with."""
        why = self.refusal(ip)
        if why is not None:
            COUNTS.refusals[refusal_cause(why, self.app.closing)] += 1
            self._log_refusal(ip, why)
            return why
        self.app.connections.admit(ip)
        return Connection(self, ip)

    def adopted(self, ip: str) -> "Connection":
        """A socket admitted where it was accepted (the portal counts it in its
        caps, server/portal/handover.py): a Connection outside this process's caps."""
        return Connection(self, ip, counted=False)

    def _log_refusal(self, ip: str, why: str) -> None:
        """One line per address a minute, not one per refused connection."""
        now = asyncio.get_running_loop().time()
        if now - self._logged.get(ip, -REFUSAL_LOG_EVERY) < REFUSAL_LOG_EVERY:
            return
        if len(self._logged) >= LOGGED_MAX:
            self._logged.clear()
        self._logged[ip] = now
        logs.event(log, "connection_refused", ip=ip, why=why, via=self.via)


def refusal_cause(why: str, closing: bool) -> str:
    """casino_refusals_total's cause of a connection refused with `why`
    (server.net.throttle.ConnectionCounter.refusal's sentences)."""
    if closing:
        return "closing"
    if why.startswith("The casino is full"):
        return "max_connections"
    if "are logging in" in why:
        return "login_connections_per_ip"
    if why.startswith("Too many people"):
        return "max_login_connections"
    return "connections_per_ip"


class Connection:
    """One admitted connection, from accept until its socket is really closed."""

    __slots__ = ("edge", "ip", "session", "released", "counted", "_abort_at")

    def __init__(self, edge: Edge, ip: str, counted: bool = True) -> None:
        self.edge = edge
        self.ip = ip
        self.counted = counted          # in this process's caps (not when the portal counts it)
        self.session: Session | None = None
        self.released = False
        self._abort_at: asyncio.TimerHandle | None = None

    @property
    def app(self) -> EdgeApp:
        return self.edge.app

    def refusal(self) -> str | None:
        """Why this admitted connection may not start a session after all:
        the casino began closing since it was accepted."""
        app = self.app
        return f"*** {app.stop_reason} ***" if app.closing else None

    def opened(self, writer: Writer, drop: Callable[[], None] | None = None) -> Session:
        """The connection is ready for a player: its Session, writing through
        `writer` (`drop` aborts the connection, when the Writer's own abort
        is not the way to)."""
        limits = self.app.config.settings.limits
        session = Session(writer, self.ip, max_output=limits.max_output, drop=drop)
        session.anonymous = self.counted    # an adopted socket's login is counted by the portal
        self.session = session
        return session

    async def serve(self, chunks: AsyncGenerator[str, None], entry: "Entry | None" = None) -> None:
        """The session's life: on_connect, each chunk of text the client sent
        (however the edge frames it) as lines to on_input, and on_disconnect
        once the client hangs up, the session is closed, or anything fails.
        `entry`: the way in of a socket another process holds too (the portal's
        handover), in place of on_connect and on_input."""
        session = self.session
        assert session is not None, "opened before served"
        app = self.app
        splitter = LineSplitter(app.config.settings.limits.max_line)
        loop = asyncio.get_running_loop()
        if entry is not None and entry.partial:
            splitter.feed(entry.partial)
        try:
            await (entry.greet if entry is not None else app.on_connect)(session)
            take = entry.on_input if entry is not None else app.on_input
            while not session.closed and session.moving is None:
                chunk = await anext(chunks, None)
                if chunk is None or session.closed:
                    break
                await take(session, splitter.feed(chunk), loop.time())
            if session.moving is not None and entry is not None:
                await entry.moved(session, splitter.rest())   # it lives on in another process
                return
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except Exception:
            log.exception("event=%s ip=%s", self.edge.error_event, self.ip)
        finally:
            try:
                if session.moving is None:
                    COUNTS.disconnects[session.why_closed or "hangup"] += 1
                    await app.on_disconnect(session)
            finally:
                if not session.closed and session.moving is None:
                    session.close()
                await chunks.aclose()       # the edge's reading ends here too

    def hung_up(self) -> None:
        """The connection is gone, or going (the client or we closed it): its
        session can never log in or play again."""
        if self.session is not None:
            self.session.hung_up = True

    def linger(self, transport: asyncio.Transport, release: Callable[[], None] | None = None) -> None:
        """The socket is closing politely: that finishes only once the client
        has read what is queued, which a client that never reads never does.
        It stays counted until really closed (then `release`, which must call
        `closed`, or `closed` itself), and is aborted after CLOSE_GRACE seconds."""
        transport.set_protocol(_Release(release or self.closed))
        self._abort_at = asyncio.get_running_loop().call_later(CLOSE_GRACE, transport.abort)

    def closed(self) -> None:
        """The socket is really closed: out of the caps, once whatever calls."""
        if self.released:
            return
        self.released = True
        if self._abort_at is not None:
            self._abort_at.cancel()
            self._abort_at = None
        self.hung_up()
        session = self.session
        anonymous = session is None or session.anonymous
        if session is not None:
            session.anonymous = False       # counted out: a login finishing now changes no count
        if self.counted:
            self.app.connections.release(self.ip, anonymous=anonymous)


def logged_in(connections: ConnectionCounter, session: Session) -> None:
    """`session` has logged in: its connection no longer counts as not
    logged in (nothing changes once it was counted out, or if it already had)."""
    if session.anonymous:
        session.anonymous = False
        connections.logged_in(session.ip)


class _Release(asyncio.Protocol):
    """Put on a transport that is closing politely: frees its place in the
    connection caps when the socket is really gone."""

    def __init__(self, done: Callable[[], None]) -> None:
        self._done = done

    def connection_lost(self, exc: Exception | None) -> None:
        self._done()

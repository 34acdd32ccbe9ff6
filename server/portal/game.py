"""The game process's end of the portal: the sockets it hands over, the connections it relays.

The casino here is the same `Casino` as in one process, without listeners.
A telnet socket the portal hands over (server/portal/handover.py) is served
by the telnet edge itself, as one process serves it (`Kept` tells the portal
what a restart must keep, and when the connection ends). A WebSocket
connection lives in the portal: it becomes a `Session` whose writer
(`RemoteWriter`) turns what the session writes into messages, and whose
client facts (`get_extra_info`) are what the portal last told. Commands,
rooms, tables and the ledger never know the difference.

A portal that hands over connections already logged in (`hello` after a
restart) gets them logged in again, in the room they were in: the portal
is on this machine, started us and holds their sockets, so its word is
trusted for who they are (it learnt it from the game process before this one).
"""
from __future__ import annotations

import asyncio
import json
import logging
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator, Callable
from typing import Protocol

from server import logs
from server.config.model import plain_settings
from server.net.edge_app import LinkApp
from server.net.lines import LineSplitter, TooLong
from server.net.session import Session
from server.net.telnet import CasinoTelnetServer, TelnetApp, TelnetEdge, buffered_text, kept_state, let_go, unsent
from server.portal import handover, protocol
from server.portal.dialed import DialedListener, Links

log = logging.getLogger("casino.portal")

PORTAL_LEFT = "The door you came in by closed. Connect again."
BYE_WAIT = 5.0       # seconds, after `bye`, for the portal to end its side of the link
MOVE_DRAIN = 2.0     # seconds a moving connection's output has to reach its socket


class GameApp(LinkApp, TelnetApp, Protocol):
    """The casino behind a portal: what the link uses, and what the telnet edge
    serving handed sockets uses; told the portal's ports (MSSP says them)."""

    def portal_ports(self, port: int, web_port: int) -> None: ...


class Kept:
    """A handed telnet socket's Handover (server.net.telnet): what the portal
    must keep for the next game process, told as it changes, and its end."""

    __slots__ = ("link", "id", "kept", "state", "new", "why", "via", "again", "partial", "told_kept",
                 "told_state", "proto")

    def __init__(self, link: GameLink, adopt: handover.Adopt) -> None:
        self.link = link
        self.id = adopt["id"]
        self.kept = _parsed(adopt["k"])          # put back once, then let go (server.net.telnet)
        self.state = adopt["s"]
        self.new = adopt["new"]
        self.why = adopt["why"]
        self.via = adopt.get("via")              # walked in from another shard, that way
        self.again = protocol.unpack_lines(adopt.get("l") or [])   # handed back by the process before
        self.partial = adopt.get("r") or ""      # an unfinished line it read (a handoff)
        self.told_kept = adopt["k"]
        self.told_state = adopt["s"]
        self.proto: CasinoTelnetServer | None = None

    async def greet(self, session: Session) -> None:
        app = self.link.app
        state = self.state
        if self.via is not None:
            session.heard()               # the walk's Enter: the room starts on a fresh line
        if state is not None:
            await app.resume(session, str(state.get("name")), state.get("room"), self.why, self.via)
        else:
            await app.on_connect(session, again=not self.new)
        if self.again:
            lines, self.again = self.again, []
            await self.on_input(session, lines, asyncio.get_running_loop().time())

    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None:
        if self.link.handing_back():
            self.link.send({"t": "again", "id": self.id, "l": protocol.pack_lines(lines)})
            return
        await self.link.app.on_input(session, lines, now)

    async def moved(self, session: Session, partial: str) -> None:
        """The player walked into a room another shard hosts (server/casino/handoff.py):
        reading stops, what was read and not handled goes with the connection, what
        was written here reaches the socket first, then the portal moves it and this
        process lets its descriptor go."""
        proto, moving = self.proto, session.moving
        assert proto is not None and moving is not None, "a served session moves"
        proto.pause("handoff")
        splitter = LineSplitter(self.link.app.config.settings.limits.max_line)
        lines = moving.rest + splitter.feed(partial + await buffered_text(proto))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + MOVE_DRAIN
        await asyncio.sleep(0)                       # the session's last output is written
        while unsent(proto) and loop.time() < deadline:
            await asyncio.sleep(0.005)
        self.link.handed.pop(self.id, None)
        self.link.send({"t": "move", "id": self.id, "to": moving.shard, "via": moving.via,
                        "s": {"name": session.account.name if session.account else "", "room": moving.room},
                        "l": protocol.pack_lines(lines), "r": splitter.rest(),
                        "k": json.dumps(kept_state(proto), separators=(",", ":"), sort_keys=True)})
        self.link.outbox.flush()
        let_go(proto)

    def negotiated(self, proto: CasinoTelnetServer) -> None:
        kept = json.dumps(kept_state(proto), separators=(",", ":"), sort_keys=True)
        if kept != self.told_kept:
            self.told_kept = kept
            self.link.send({"t": "k", "id": self.id, "k": kept})

    def prompted(self, session: Session) -> None:
        state: protocol.State | None = ({"name": session.account.name, "room": session.room}
                                        if session.account else None)
        if state != self.told_state:
            self.told_state = state
            self.link.send({"t": "s", "id": self.id, "s": state})

    def ended(self) -> None:
        self.link.handed.pop(self.id, None)
        self.link.send({"t": "gone", "id": self.id})


def _parsed(kept: str | None) -> dict[str, object] | None:
    """A handed socket's negotiated state, as the process before told it."""
    if kept is None:
        return None
    try:
        value = json.loads(kept)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class RemoteWriter:
    """A Session's Writer in the game process: every call is a message to the portal."""

    edge = "web"          # a browser's: the portal relays only WebSockets (casino_sessions' label)

    def __init__(self, link: GameLink, cid: int, facts: protocol.Facts) -> None:
        self.link = link
        self.id = cid
        self.facts = facts
        self.session: Session | None = None
        self.told: protocol.State | None = None      # the state the portal keeps for a restart

    def write(self, text: str) -> None:
        self.link.send({"t": "w", "id": self.id, "d": text})

    def write_prompt(self, text: str) -> None:
        self.link.send({"t": "p", "id": self.id, "d": text})
        self.tell_state()                 # every reply ends here: a login or a move just happened

    def echo(self, on: bool) -> None:
        self.link.send({"t": "echo", "id": self.id, "on": on})

    def get_extra_info(self, key: str) -> object:
        return self.facts.get(key)

    def unsent(self) -> int:
        return 0                          # the portal holds the output and its limit

    def abort(self) -> None:
        self.link.send({"t": "abort", "id": self.id})

    def close(self) -> None:
        self.link.send({"t": "close", "id": self.id})

    def send_gmcp(self, package: str, data: object) -> None:
        self.link.send({"t": "g", "id": self.id, "p": package, "d": data})

    def data(self, package: str, payload: object) -> None:
        """A package for the browser page's own view (server.net.web.WebWriter.data);
        the portal passes it on to a browser and drops it for telnet."""
        self.link.send({"t": "data", "id": self.id, "p": package, "d": payload})

    def tell_state(self) -> None:
        """Who is logged in here and where, for the portal to hand to the next game process."""
        session = self.session
        if session is None:
            return
        state: protocol.State | None = ({"name": session.account.name, "room": session.room}
                                        if session.account else None)
        if state != self.told:
            self.told = state
            self.link.send({"t": "s", "id": self.id, "s": state})


class RemoteGmcp:
    """A session's GMCP channel in the game process: on when the portal says the client
    agreed; the portal sends only the modules the client asked for (its own Gmcp)."""

    def __init__(self, writer: RemoteWriter) -> None:
        self.writer = writer
        self.client: dict[str, str] = {}
        self.last_table: dict[str, object] | None = None

    @property
    def modules(self) -> set[str] | None:
        """The modules the client named (Core.Supports), as the portal's Gmcp holds them."""
        named = self.writer.facts.get("gmcp_modules")
        return set(named) if isinstance(named, list) else None

    @property
    def enabled(self) -> bool:
        return bool(self.writer.facts.get("gmcp"))

    def wants(self, package: str) -> bool:
        return self.enabled

    def send(self, package: str, data: object) -> None:
        if self.enabled:
            self.writer.send_gmcp(package, data)

    def receive(self, package: str, data: object) -> None:
        """The portal's Gmcp keeps what the client asked for; nothing arrives here."""


class GameLink:
    """The game process's connection to a portal: the one that started it, or one
    that dialed it (`dialed`: a portal beside others, server/portal/dialed.py)."""

    def __init__(self, app: GameApp, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 dialed: bool = False) -> None:
        self.app = app
        self.dialed = dialed
        self.telnet = TelnetEdge(app)          # serves the sockets the portal hands over
        self.handed: dict[int, Kept] = {}
        self.reader = reader
        self.writer = writer
        self.outbox = protocol.Outbox(writer)
        self.sessions: dict[int, Session] = {}
        # each connection's lines, handled in order by its own task (as a telnet shell
        # does): one player's slow command (a password hash) never holds up another's
        self.inboxes: dict[int, asyncio.Queue[list[str | TooLong] | None]] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        self.moved_out: set[int] = set()       # relayed connections that moved, until `moved`
        self.closed = False

    def send(self, message: protocol.Message) -> None:
        if not self.closed:
            self.outbox.send(message)

    def adopt(self, message: handover.Adopt, sock: socket.socket) -> None:
        """A telnet socket from the portal: served here as one process serves it."""
        if self.app.closing:              # the next game process gets it (the portal keeps its own)
            sock.close()
            return
        kept = self.handed[message["id"]] = Kept(self, message)
        task = asyncio.create_task(self._adopt(kept, sock))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _adopt(self, kept: Kept, sock: socket.socket) -> None:
        try:
            kept.proto = await self.telnet.adopt(sock, kept)
        except OSError:                   # the client left before it was adopted
            sock.close()
            self.handed.pop(kept.id, None)
            self.send({"t": "gone", "id": kept.id})

    def let_go(self) -> None:
        """Stopping to be replaced: read nothing more of the handed sockets (what is
        typed waits in the kernel for the next game process) and tell no end."""
        for kept in self.handed.values():
            if kept.proto is not None:
                kept.proto.pause("restart")

    async def run(self, incoming: AsyncIterator[protocol.Message], first: protocol.Message) -> None:
        """`first` (the portal's hello), then the portal's messages until it goes away;
        then the casino stops."""
        try:
            await self.handle(first)
            async for message in incoming:
                await self.handle(message)
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except Exception:                # a line that is not a message (protocol.BadLine), or a bug
            log.exception("event=portal_link_error dialed=%s", self.dialed)
            if not self.dialed and not self.app.closing:
                self.replaced()
                return
        self.closed = True
        if self.dialed:                  # one portal of several went: its players only
            if not self.app.closing:
                logs.event(log, "portal_left", connections=len(self.handed) + len(self.sessions))
                self.release()
        elif not self.app.closing:       # the supervisor went: nobody is left to restart us
            logs.event(log, "portal_gone")
            self.app.request_stop("The casino is closing.")

    def replaced(self) -> None:
        """The link's reader failed: nothing more the portal says can be read, so this
        process stops to be replaced, as a restart does (every connection stays open
        in the portal, what was read and not handled goes back to it), rather than
        serve on deaf to it. A restart refused (config/ broken) stops the casino."""
        refused = self.app.request_restart("The casino is restarting.")
        if refused is not None:
            logs.event(log, "portal_link_stop", why=refused.splitlines()[0])
            self.app.request_stop("The casino is closing.")

    def release(self) -> None:
        """The portal that dialed this link is gone (killed): its connections end here.
        This process holds the last descriptor of its telnet sockets, so they are
        closed here, with a line; its relayed ones (browsers) were its own."""
        for kept in list(self.handed.values()):
            proto = kept.proto
            if proto is not None and proto.session is not None:
                proto.session.close(f"*** {PORTAL_LEFT} ***")
            elif proto is not None:
                proto.abort()
        for inbox in self.inboxes.values():
            inbox.put_nowait(None)

    async def handle(self, m: protocol.Message) -> None:
        app = self.app
        if m["t"] == "in":
            session = self.sessions.get(m["id"])
            if session is None:
                if m["id"] in self.moved_out:       # sent before the portal had the move
                    self.send({"t": "behind", "id": m["id"], "l": m["l"]})
                return
            if "x" in m:
                self._facts(session, m["x"])
            self.inboxes[m["id"]].put_nowait(protocol.unpack_lines(m["l"]))
            if self.handing_back():
                self._give_back(m["id"])
        elif m["t"] == "x":
            session = self.sessions.get(m["id"])
            if session is not None:
                self._facts(session, m["x"])
        elif m["t"] == "open":
            self._open(m["id"], m["ip"], m["x"], None, new=True)
        elif m["t"] == "join":
            self._open(m["id"], m["ip"], m["x"], m["s"], new=False, via=m["via"],
                       lines=protocol.unpack_lines(m["l"]))
        elif m["t"] == "moved":
            self.moved_out.discard(m["id"])
            self.send({"t": "released", "id": m["id"]})
        elif m["t"] == "gone":
            self.moved_out.discard(m["id"])
            inbox = self.inboxes.pop(m["id"], None)
            if inbox is not None:
                inbox.put_nowait(None)
        elif m["t"] == "hello":
            if m.get("v") != protocol.VERSION:
                log.error("event=portal_version_mismatch portal=%s game=%s", m.get("v"), protocol.VERSION)
                app.request_stop("The casino is closing.")
                return
            self.app.portal_ports(int(m.get("port") or 0), int(m.get("web_port") or 0))
            self._open_all(m["conns"], m.get("why"))
            if self.dialed:              # this process serves already: said to the one that started it
                self.send({"t": "ready", "settings": plain_settings(app.config.settings)})
        elif m["t"] == "conns":
            self._open_all(m["conns"], m.get("why"))
        elif m["t"] == "stop":
            app.request_stop(str(m.get("why") or "The casino is closing."))
        elif m["t"] == "restart":
            app.request_restart(str(m.get("why") or "The casino is restarting."))
        elif m["t"] == "ping":
            self.send({"t": "pong"})
        elif m["t"] == "reload":
            applied, said = await app.reload()
            for text in said:
                print(("reload: " if applied else "reload refused: ") + text, file=sys.stderr)

    def handing_back(self) -> bool:
        """Stopping to be replaced: lines not handled yet go back to the portal, which
        hands them to the next game process, instead of being dropped."""
        return self.app.closing and self.app.restarting

    def _give_back(self, cid: int, taken: list[str | TooLong] | None = None) -> None:
        """`taken` and every line still waiting in the connection's inbox, in order, back to the portal."""
        inbox = self.inboxes.get(cid)
        lines = list(taken or [])
        while inbox is not None and not inbox.empty():
            more = inbox.get_nowait()
            if more is None:             # the connection is gone: nothing to hand back
                inbox.put_nowait(None)
                return
            lines += more
        if lines:
            self.send({"t": "again", "id": cid, "l": protocol.pack_lines(lines)})

    def _facts(self, session: Session, facts: protocol.Facts) -> None:
        writer = session.writer
        assert isinstance(writer, RemoteWriter)
        writer.facts.update(facts)
        if naws := protocol.naws(facts):
            session.on_resize(naws)
        else:
            session.prefs_changed()

    def _open_all(self, conns: list[protocol.Conn], why: str | None) -> None:
        """The connections of a hello (and of the `conns` that follow it)."""
        for conn in conns:
            self._open(conn["id"], conn["ip"], conn["x"], conn.get("s"), why, new=bool(conn.get("new")))

    def _open(self, cid: int, ip: str, facts: protocol.Facts, state: protocol.State | None,
              why: str | None = None, *, new: bool, via: str | None = None,
              lines: list[str | TooLong] | None = None) -> None:
        writer = RemoteWriter(self, cid, dict(facts))
        limits = self.app.config.settings.limits
        session = Session(writer, ip, max_output=limits.max_output)
        session.anonymous = False          # the portal counts who is logging in
        writer.session = session
        if "gmcp" in facts:
            session.gmcp = RemoteGmcp(writer)
        if naws := protocol.naws(facts):
            session.naws_cols = naws
        self.sessions[cid] = session
        inbox: asyncio.Queue[list[str | TooLong] | None] = asyncio.Queue()
        self.inboxes[cid] = inbox
        if lines:
            inbox.put_nowait(lines)
        if not new and via is None:        # a walk's Enter left the client on a fresh line
            session.kept()
        task = asyncio.create_task(self._serve(cid, session, inbox, state, why, new, via))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _serve(self, cid: int, session: Session, inbox: asyncio.Queue[list[str | TooLong] | None],
                     state: protocol.State | None, why: str | None, new: bool, via: str | None) -> None:
        """One connection's life in this process: greeted (or logged in again, or walked
        in from another shard), its lines in order, then its departure, or its move
        to another shard."""
        app = self.app
        loop = asyncio.get_running_loop()
        try:
            if state is not None:
                assert isinstance(session.writer, RemoteWriter)
                session.writer.told = state
                await app.resume(session, str(state.get("name")), state.get("room"), why, via)
            else:
                await app.on_connect(session, again=not new)
            while (lines := await inbox.get()) is not None:
                if self.handing_back():
                    self._give_back(cid, lines)
                    continue
                await app.on_input(session, lines, loop.time())
                if session.moving is not None:
                    self._move(cid, session)
                    return
        except Exception:
            log.exception("event=link_session_error id=%d", cid)
        finally:
            self.sessions.pop(cid, None)
            if session.moving is None:
                session.hung_up = True
                await app.on_disconnect(session)

    def _move(self, cid: int, session: Session) -> None:
        """A relayed connection walked into another shard: it goes there with the
        lines typed after the walk; what the portal sends before it has the move
        comes back `behind`, then `released` (server/portal/protocol.py)."""
        moving = session.moving
        assert moving is not None
        lines = list(moving.rest)
        inbox = self.inboxes.pop(cid, None)
        while inbox is not None and not inbox.empty():
            more = inbox.get_nowait()
            if more is None:
                break
            lines += more
        self.moved_out.add(cid)
        self.send({"t": "move", "id": cid, "to": moving.shard, "via": moving.via,
                   "s": {"name": session.account.name if session.account else "", "room": moving.room},
                   "l": protocol.pack_lines(lines)})


async def serve_game(app: GameApp, link_fd: int, handover_fd: int,
                     refusal: Callable[[BaseException], str | None] = lambda e: None,
                     links_path: str | None = None) -> int:
    """Run the casino behind the portal on the socket `link_fd` until told to stop;
    with `links_path`, other portals dial it there too (server/portal/dialed.py).
    A start that fails on the database prints `refusal(error)`, one line."""
    sock = socket.socket(fileno=link_fd)
    reader, writer = await asyncio.open_unix_connection(sock=sock, limit=protocol.LINE_LIMIT)
    link = GameLink(app, reader, writer)
    links = Links(link)
    app.portal = links
    # Nothing of the database until the portal's hello: a restart starts this process
    # while the one before still settles its tables (its imports and config load are
    # then off the restart's path), and the ledger has one writer at a time.
    incoming = protocol.messages(reader)
    try:
        hello = await anext(incoming, None)
    except ConnectionError:
        hello = None
    except ValueError:                     # a hello no reader takes (protocol.BadLine): a crash
        log.exception("event=portal_link_error at=hello")
        return 1
    if hello is None:                      # the portal stopped (or kept the process before)
        return 0
    try:
        await app.start(listen=False)
    except Exception as e:
        line = refusal(e)
        if line is None:
            raise
        await app.stop("The casino could not start.")
        print(line, file=sys.stderr, flush=True)
        link.send({"t": "bye", "restart": False, "why": line})
        link.outbox.flush()
        await writer.drain()
        return 1
    reading = asyncio.create_task(link.run(incoming, hello))
    sockets = handover.Receiver(socket.socket(fileno=handover_fd), link.adopt)
    # SIGTERM (a service manager stops the whole group): stop cleanly, as the portal's `stop` would
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, app.request_stop,
                                                  "The casino is closing for the night.")
    link.send({"t": "ready", "settings": plain_settings(app.config.settings)})
    dialed = (DialedListener(app, links, links_path, lambda r, w: GameLink(app, r, w, dialed=True))
              if links_path else None)
    if dialed is not None:
        dialed.open()
    await app.stop_requested.wait()
    if dialed is not None:
        dialed.close()
    if app.restarting:
        for one in links.all:
            one.let_go()
    await app.stop(app.stop_reason)
    sockets.close()
    links.close_sockets()
    for one in links.all:
        one.send({"t": "bye", "restart": app.restarting, "why": app.stop_reason})
        one.outbox.flush()
    # Read on until each portal has read the bye and ends its side: what it sent before
    # is still read (and, restarting, handed back with `again`), and no write of the
    # portal's (a `gone`) meets a socket already closed here, which would lose the
    # bye unread and make a stop look like a crash.
    ends = [reading, *links.reading]
    try:
        for one in links.all:
            await one.writer.drain()
        await asyncio.wait_for(asyncio.shield(asyncio.gather(*ends, return_exceptions=True)), BYE_WAIT)
    except (ConnectionError, asyncio.TimeoutError):
        pass
    for one in links.all:
        one.closed = True
        one.writer.close()
    for task in ends:
        task.cancel()
    return 0


def link_fd_from_env() -> int:
    return int(os.environ["CASINO_LINK_FD"])


def handover_fd_from_env() -> int:
    return int(os.environ["CASINO_HANDOVER_FD"])

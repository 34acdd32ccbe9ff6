"""The browser edge: one page and a WebSocket, served by aiohttp beside telnet.

A WebSocket connection is a Session like a telnet one: its Writer
(WebWriter) sends JSON text frames instead of telnet bytes, and its input goes
through the same app entry points (on_connect, on_input, on_disconnect), so
accounts, commands, tables, prompts and every limit are the telnet ones.

Frames, server to page (one JSON object each):
- {"t": "text", "d": "..."}: output, exactly what telnet would get (ANSI
  colour codes, CR LF line ends, the prompt at the end of a block);
- {"t": "prompt"}: the block is complete and the server waits (telnet's GA);
- {"t": "echo", "on": false|true}: mask the command line (a password) or not.
- {"t": "data", "p": "Char.Stats", "d": {...}}: after `stats`, the figures as
  GMCP's Char.Stats has them (docs/gmcp.md), for the page's stats view;
  {"t": "data", "p": "Casino.Table", "d": {...}}, the other Casino packages and
  Room.Info, as GMCP sends them (the page's PageChannel), for its card view.
Page to server:
- {"t": "line", "d": "..."}: what the player typed (one line or several);
- {"t": "cols", "n": 96}: the pane's width in characters (telnet's NAWS).

Only the casino's own page may open the WebSocket (its Origin must be our
host), and the page is served with a Content-Security-Policy that runs only
its own script.

Limits, as telnet has them (docs/operating.md):
- admission (HttpGate, over the lifecycle every edge shares:
  server.net.lifecycle): every HTTP connection to this port counts in
  app.connections from accept until its socket is really closed, with the
  caps shared with telnet (per address, in all, not logged in in all and per
  address); it counts as not logged in until a WebSocket on it logs in, so a
  connection that only fetched the page counts as not logged in while it is
  open (the one rule: server.net.lifecycle). A connection past a cap is
  answered with the reason (a WebSocket's text frame, or a 503 page) and
  closed; while more than REFUSING of those wait for their request, a
  further one gets a bare 503 at once;
- deadlines (HttpGate, in the casino's ticks): an HTTP connection that has
  not started a request within `http_timeout` seconds of connecting or of
  its last request (silent, slowloris, idle keep-alive, a page that never
  reads its answer) is aborted; a WebSocket, once open, has the session's
  login and idle timeouts instead;
- input: a frame is at most MAX_FRAME bytes (aiohttp closes the socket past
  it), lines are cut by the same LineSplitter (`max_line`), and a connection
  may make us parse `input_bytes_per_second`: each frame of every kind (text,
  binary, ping, pong; empty ones too) costs its bytes plus FRAME_COST, what
  handling a frame costs aiohttp and us in plain bytes' worth of CPU
  (bench/bench_input_cost.py); past that we stop reading it for a while,
  and aiohttp's own queue then stops reading the socket. Pings are answered
  here (not by aiohttp), so they are charged too. Lines then pass app.on_input's command rate; logins pass the
  same login throttle inside the login commands;
- output: frames wait in the writer's queue, which counts toward
  `max_output` together with the socket's buffer; past it Session aborts.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from pathlib import Path
from typing import AsyncGenerator
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler
from aiohttp.web_protocol import RequestHandler

from server import logs
from server.net import lifecycle
from server.net.edge_app import Clock, EdgeApp
from server.net.lifecycle import Connection, Edge
from server.net.lines import valid_text
from server.net.session import Session
from server.net.throttle import ByteBudget

log = logging.getLogger("casino.net")

CASINO: web.AppKey[EdgeApp] = web.AppKey("casino")     # the app this page serves
GATE: web.AppKey["HttpGate"] = web.AppKey("gate")     # admission and deadlines of its connections
ORIGINS: web.AppKey[set[str]] = web.AppKey("origins")   # host:port our page is served from
STATIC = Path(__file__).resolve().parents[1] / "web" / "static"
HEARTBEAT = 30.0         # seconds between pings: a vanished browser is noticed
MAX_FRAME = 65536        # bytes in one frame from a page (aiohttp closes the socket past it)
FRAME_COST = 800         # a frame's handling in plain bytes' worth of CPU (an empty one: about 4 us)
REFUSING = 64            # connections past a cap kept open to be told why (beyond: a bare 503)
REFUSAL_LOG_EVERY = 60.0  # seconds between logged refusals of one address

# What the browser page is, in the words telnet negotiation would use: the
# pane renders ANSI colour and Unicode, like an xterm. It `scrolls`: the page
# keeps everything with its own scrollbar, so a long reply is never paged
# with a more prompt (server.net.session.Session.rows).
BROWSER_INFO: dict[str, object] = {"ttype1": "casino-web", "TERM": "xterm-256color",
                                   "LANG": "en_US.UTF-8", "agreed_charset": "UTF-8", "scrolls": True}


class PageChannel:
    """The page's GMCP channel (server.net.mud.Channel): the page reads the tables'
    data (`Casino.*`: the table's state, rolls, the dealer's play, settlements) to
    draw beside the text, and `Room.Info` (a new room: the last table's view goes),
    so those are sent as data frames (WebWriter.data). Nothing else: Char.Stats
    comes by `stats` itself (Session.page_data), and Char.Status the page does not
    read, so it is not made for it. Over a portal the game process sends every
    package of a session whose channel is on; this one, in the portal, keeps the
    same few."""

    enabled = True

    def __init__(self, writer: "WebWriter") -> None:
        self.writer = writer
        self.modules: set[str] | None = {"casino", "room"}    # as Core.Supports would name them
        self.last_table: dict[str, object] | None = None

    def wants(self, package: str) -> bool:
        return package.split(".")[0].lower() in (self.modules or ())

    def send(self, package: str, data: object) -> None:
        if self.wants(package):
            self.writer.data(package, data)


class WebWriter:
    """A Session's Writer over a WebSocket: frames queue here and one pump
    task sends them in order, so a slow page backs up into a queue we count."""

    edge = "web"          # casino_sessions' and casino_connections' label (server/metrics/live.py)

    def __init__(self, ws: web.WebSocketResponse, transport: asyncio.Transport | None) -> None:
        self.ws = ws
        self.transport = transport
        self._frames: deque[str] = deque()
        self._queued = 0
        self._wake = asyncio.Event()
        self._closing = False
        self.done = asyncio.Event()          # the pump has stopped
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start sending (one task per connection, ended by close or abort)."""
        self._task = asyncio.create_task(self._pump())

    # --- the Writer seam ------------------------------------------------
    def write(self, text: str) -> None:
        self._send({"t": "text", "d": text})

    def write_prompt(self, text: str) -> None:
        self.write(text)
        self._send({"t": "prompt"})

    def echo(self, on: bool) -> None:
        self._send({"t": "echo", "on": on})

    def data(self, package: str, payload: object) -> None:
        """A GMCP package the page shows beside the text (Char.Stats: its stats view;
        Casino.Table: its card view), sent by `stats` or through the PageChannel."""
        self._send({"t": "data", "p": package, "d": payload})

    def get_extra_info(self, key: str) -> object:
        return BROWSER_INFO.get(key)

    def unsent(self) -> int:
        t = self.transport
        buffered = t.get_write_buffer_size() if t is not None and not t.is_closing() else 0
        return self._queued + buffered

    def abort(self) -> None:
        self._frames.clear()
        self._queued = 0
        self._closing = True
        if self.transport is not None:
            self.transport.abort()
        if self._task is not None:
            self._task.cancel()           # it may be stuck sending to a page that never reads
        self._wake.set()

    def close(self) -> None:
        self._closing = True
        self._wake.set()

    # --- sending --------------------------------------------------------
    def _drop(self) -> None:
        """The pump cannot go on: the connection is hung up (its session ends with
        it), so a page that hears nothing more is never left open, silent."""
        if self.transport is not None:
            self.transport.abort()

    def _send(self, frame: dict[str, object]) -> None:
        if self._closing:
            return
        text = json.dumps(frame, ensure_ascii=False)
        self._frames.append(text)
        self._queued += len(text)
        self._wake.set()

    async def _pump(self) -> None:
        """Send queued frames in order; close the socket once asked and drained."""
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while self._frames:
                    text = self._frames.popleft()
                    self._queued -= len(text)
                    try:
                        await self.ws.send_str(text)
                    except UnicodeEncodeError:     # text that is not valid Unicode got this far
                        await self.ws.send_str(valid_text(text))
                if self._closing:
                    break
            await asyncio.wait_for(self.ws.close(), lifecycle.CLOSE_GRACE)
        except (ConnectionError, RuntimeError, asyncio.TimeoutError):
            self._drop()
        except asyncio.CancelledError:
            pass                          # aborted
        except Exception:                 # any other failure drops this page, never the pump alone
            log.exception("event=web_writer_error")
            self._drop()
        finally:
            self.done.set()


class _Conn:
    """One HTTP connection the gate knows: its socket, deadline and either
    its place in the caps (`conn`, a WebSocket's session once upgraded) or
    why it is refused."""

    __slots__ = ("transport", "due", "conn", "refused", "upgraded")

    def __init__(self, transport: asyncio.Transport, conn: Connection | None, refused: str | None) -> None:
        self.transport = transport
        self.due: int | None = None
        self.conn = conn
        self.refused = refused
        self.upgraded = False


class HttpGate:
    """Admission and deadlines for every connection to the web port (see the
    module's docstring). It watches aiohttp's server through the two hooks
    every RequestHandler calls (connection_made and connection_lost) and is
    advanced by the casino's clock."""

    def __init__(self, casino: EdgeApp) -> None:
        self.casino = casino
        self.edge = Edge(casino, "web", "web_error")
        self.clock: Clock = casino.clock
        self._conns: dict[RequestHandler, _Conn] = {}
        self._due: dict[int, set[RequestHandler]] = {}
        self.refusing = 0

    def watch(self, server: web.Server) -> None:
        """Count the connections of aiohttp's `server` from now on."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler: RequestHandler, transport: asyncio.Transport) -> None:
            made(handler, transport)
            self.connection_made(handler, transport)

        def connection_lost(handler: RequestHandler, exc: BaseException | None = None) -> None:
            lost(handler, exc)
            self.connection_lost(handler)
        # aiohttp's hooks on this one server (it has no other per-connection seam)
        server.connection_made = connection_made  # type: ignore[method-assign]
        server.connection_lost = connection_lost  # type: ignore[method-assign]
        self.clock.subscribe(self)

    @property
    def timeout(self) -> int:
        """The HTTP deadline in ticks (read each time: a reload changes it)."""
        return self.clock.seconds(self.casino.config.settings.limits.http_timeout)

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        peer = transport.get_extra_info("peername") or ("?", 0)
        admitted = self.edge.admit(str(peer[0]))
        if isinstance(admitted, str):
            if self.refusing >= REFUSING:
                body = admitted.encode()
                transport.write(b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                                b"Connection: close\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
                transport.abort()
                return
            self.refusing += 1
            self._conns[handler] = _Conn(transport, None, admitted)
        else:
            self._conns[handler] = _Conn(transport, admitted, None)
        self._schedule(handler)

    def connection_lost(self, handler: RequestHandler) -> None:
        conn = self._conns.pop(handler, None)
        if conn is None:
            return
        self._unschedule(handler, conn)
        if conn.conn is None:
            self.refusing -= 1
            return
        conn.conn.closed()

    # --- what the page's requests tell the gate ---------------------------
    def refusal(self, handler: RequestHandler) -> str | None:
        """Why this connection is refused (None: admitted); a request on it
        starts its deadline again."""
        conn = self._conns.get(handler)
        if conn is None:
            return "The casino cannot take this connection."
        if not conn.upgraded:
            self._schedule(handler)
        return conn.refused

    def upgrade(self, handler: RequestHandler) -> Connection | None:
        """The connection is now a WebSocket's: the session's own login and
        idle deadlines apply to it, and its login decides how it is counted.
        Its Connection (None: not an admitted connection the gate knows)."""
        conn = self._conns.get(handler)
        if conn is None or conn.conn is None:
            return None
        conn.upgraded = True
        self._unschedule(handler, conn)
        return conn.conn

    # --- deadlines ----------------------------------------------------------
    def _schedule(self, handler: RequestHandler) -> None:
        conn = self._conns[handler]
        self._unschedule(handler, conn)
        conn.due = self.clock.ticks + self.timeout
        self._due.setdefault(conn.due, set()).add(handler)

    def _unschedule(self, handler: RequestHandler, conn: _Conn) -> None:
        if conn.due is None:
            return
        bucket = self._due.get(conn.due)
        if bucket is not None:
            bucket.discard(handler)
            if not bucket:
                del self._due[conn.due]
        conn.due = None

    def advance(self, ticks: int) -> None:
        now = self.clock.ticks
        for tick in sorted(t for t in self._due if t <= now):
            for handler in self._due.pop(tick):
                conn = self._conns.get(handler)
                if conn is None:
                    continue
                conn.due = None
                conn.transport.abort()        # connection_lost follows and counts it out

    def close(self) -> None:
        self.clock.unsubscribe(self)

    def __len__(self) -> int:
        return len(self._conns)


class _HttpNoise(logging.Filter):
    """aiohttp logs a traceback for each malformed request a client sends
    (a bad header, a line too long). Such a record becomes one `client_error`
    line without a traceback, at most once a minute per address and kind."""

    def __init__(self) -> None:
        super().__init__()
        self._seen: dict[tuple[str, str], float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if not isinstance(exc, HttpProcessingError):
            return True
        ip = str(record.args[0]) if isinstance(record.args, tuple) and record.args else "?"
        key = (ip, f"http:{type(exc).__name__}")
        if record.created - self._seen.get(key, -REFUSAL_LOG_EVERY) >= REFUSAL_LOG_EVERY:
            if len(self._seen) >= 10_000:
                self._seen.clear()
            self._seen[key] = record.created
            logs.event(log, "client_error", kind=key[1], ip=ip, via="web")
        return False


_HTTP_NOISE = _HttpNoise()


def _lines_of(frame: str, session: Session) -> str | None:
    """The typed text a page's frame carries (None for a resize or junk)."""
    try:
        data = json.loads(frame)
    except (ValueError, RecursionError) as err:     # junk, or nested past the recursion limit
        logs.once(session.complaints, log, "client_error", f"frame:{type(err).__name__}", ip=session.ip)
        return None
    if not isinstance(data, dict):
        return None
    kind, text, cols = data.get("t"), data.get("d"), data.get("n")
    if kind == "line" and isinstance(text, str):
        return text
    if kind == "cols" and isinstance(cols, int) and not isinstance(cols, bool):
        session.on_resize(cols)
    return None


async def _page(request: web.Request) -> web.StreamResponse:
    return web.FileResponse(STATIC / "index.html")


LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]")


def allowed_origins(host: str, port: int, extra: tuple[str, ...] = ()) -> frozenset[str]:
    """Where our own page can come from (host:port, lower case): the address
    the page is served on (and the loopback names, when that is loopback or
    every address) and the operator's `web_origins` (a bare name: on `port`).
    Never the request's own EdgeApp header: a DNS-rebinding page sends a EdgeApp of
    its own choosing, which matches its Origin."""
    names = {host.lower()}
    if host in ("", "0.0.0.0", "::") or host.startswith("127.") or host in ("localhost", "::1"):
        names.update(LOOPBACK_NAMES)
    out = {f"[{n}]:{port}" if ":" in n and not n.startswith("[") else f"{n}:{port}" for n in names}
    for name in extra:
        out.add(name if name.rsplit(":", 1)[-1].isdigit() and not name.endswith("]") else f"{name}:{port}")
    return frozenset(out)


def _foreign(request: web.Request) -> bool:
    """A page from another site opening our WebSocket (browsers always send
    Origin; other clients may leave it out)."""
    origin = request.headers.get("Origin")
    if origin is None:
        return False
    parts = urlsplit(origin)
    netloc = parts.netloc.lower()
    if parts.port is None and netloc:
        netloc += ":443" if parts.scheme == "https" else ":80"
    return netloc not in request.app[ORIGINS]


@web.middleware
async def _admission(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A request on a connection past a cap is answered with the reason (the
    WebSocket itself says it in a frame); each request restarts its deadline."""
    why = request.app[GATE].refusal(request.protocol)
    if why is not None and request.path != "/ws":
        return web.Response(status=503, text=why + "\n", headers={"Connection": "close"})
    return await handler(request)


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The page runs only its own script and talks only to its own server:
    a second wall behind the page's rule of showing server text as text."""
    response = await handler(request)
    host = request.host
    response.headers["Content-Security-Policy"] = (
        f"default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        f"connect-src 'self' ws://{host} wss://{host}; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'none'")
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


async def _socket(request: web.Request) -> web.StreamResponse:
    app = request.app[CASINO]
    ip = str(request.remote or "?")
    if _foreign(request):
        logs.event(log, "connection_refused", ip=ip, why="foreign origin", via="web")
        raise web.HTTPForbidden(text="This WebSocket serves the casino's own page only.")
    ws = web.WebSocketResponse(heartbeat=HEARTBEAT, compress=False, max_msg_size=MAX_FRAME, autoping=False)
    await ws.prepare(request)
    gate = request.app[GATE]
    why = gate.refusal(request.protocol)        # past a cap when it connected (HttpGate)
    conn = gate.upgrade(request.protocol) if why is None else None
    if why is None:
        why = conn.refusal() if conn is not None else "The casino cannot take this connection."
    if why is not None or conn is None:
        await ws.send_str(json.dumps({"t": "text", "d": f"{why}\r\n"}))
        await ws.close()
        return ws
    limits = app.config.settings.limits
    writer = WebWriter(ws, request.transport)
    session = conn.opened(writer)
    session.gmcp = PageChannel(writer)
    writer.start()
    loop = asyncio.get_running_loop()
    budget = ByteBudget(limits.input_bytes_per_second, limits.input_bytes_per_second, loop.time())

    async def chunks() -> AsyncGenerator[str, None]:
        """The typed text of the page's frames, each frame charged to the
        budget (pings answered here, so they are charged too)."""
        async for msg in ws:
            if session.closed:
                break
            data = msg.data if isinstance(msg.data, (str, bytes)) else b""
            wait = budget.spend(len(data) + FRAME_COST, loop.time())
            if msg.type == WSMsgType.TEXT:
                text = _lines_of(msg.data, session)
                if text is not None:
                    yield text + "\n"
            elif msg.type == WSMsgType.PING:
                await ws.pong(msg.data)
            if wait > 0:
                await asyncio.sleep(wait)    # stop reading this page a while (real time)
    try:
        await conn.serve(chunks())
    finally:
        try:
            await asyncio.wait_for(writer.done.wait(), lifecycle.CLOSE_GRACE + 1)
        except asyncio.TimeoutError:
            writer.abort()
    return ws


class WebServer:
    """The page and the WebSocket on one aiohttp server."""

    def __init__(self, runner: web.AppRunner, site: web.TCPSite, gate: HttpGate) -> None:
        self.runner = runner
        self.site = site
        self.gate = gate

    @property
    def port(self) -> int:
        server = self.site._server      # aiohttp keeps the asyncio server here
        # aiohttp types it AbstractServer; loop.create_server made a Server, which has sockets
        sockets = server.sockets if server is not None else None  # type: ignore[attr-defined]
        return sockets[0].getsockname()[1] if sockets else 0

    async def close(self) -> None:
        await self.runner.cleanup()
        self.gate.close()


async def start_web(casino: EdgeApp, host: str, port: int, reuse_port: bool = False) -> WebServer:
    """Serve the page at / and the WebSocket at /ws on host:port (0: any free port;
    `reuse_port`: beside other portals on it, SO_REUSEPORT)."""
    server_log = logging.getLogger("aiohttp.server")
    if _HTTP_NOISE not in server_log.filters:
        server_log.addFilter(_HTTP_NOISE)
    app = web.Application(middlewares=[_admission, _headers])
    app[CASINO] = casino
    app[GATE] = gate = HttpGate(casino)
    app[ORIGINS] = set()              # filled once the port is known (port 0: any free one)
    app.router.add_get("/", _page)
    app.router.add_get("/ws", _socket)
    app.router.add_static("/static/", STATIC)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=lifecycle.CLOSE_GRACE)
    await runner.setup()
    assert runner.server is not None, "set up: the server is made"
    gate.watch(runner.server)
    site = web.TCPSite(runner, host, port, reuse_port=reuse_port or None)
    await site.start()
    served = WebServer(runner, site, gate)
    app[ORIGINS].update(allowed_origins(host, served.port, casino.config.settings.web_origins))
    return served

"""The portal process: every connection, and the game process behind them.

The portal runs the telnet and WebSocket edges exactly as one process does
(negotiation, the byte budgets, the output limit, the per-address, total and
not-logged-in caps), as their `Host`. What a connection says goes to the game
process as messages (server/portal/protocol.py); what the game writes comes
back and is written to the connection as it is, through the same Session
checks (a client that does not read is cut off here).

The game process is a child (`casino game`), given one end of a socket pair.
When it exits to be replaced (`restart`) or dies (kill -9), the portal tells
every player the casino is restarting, starts a new one with the code now on
disk, and hands it every connection with its client facts and who is logged
in where (`hello`); input typed in between waits (a few lines each). When it
exits for good (an operator's `shutdown`), the portal stops too. A game
process that fails three times within a minute (cannot start, or dies
within ten seconds of starting) stops the portal: something is wrong that a
restart will not mend. A game process that dies after serving a while is
always replaced.
"""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any

from server import logs
from server.config.model import CasinoConfig
from server.net.lifecycle import logged_in as count_login
from server.net.host import addresses
from server.net.lines import TooLong
from server.net.session import Session
from server.net.throttle import ConnectionCounter
from server.portal import protocol
from server.tables.manager import Manager

log = logging.getLogger("casino.portal")

BUFFERED_LINES = 20        # lines a player may type while the game process restarts
RESTART_WINDOW = 60.0      # seconds: three failed starts within it stop the portal
FAILED_STARTS = 3
CRASH_SOON = 10.0          # seconds: a game process that dies this soon after ready counts as failed
GAME_STOP_TIMEOUT = 60.0   # seconds a stopping game process has before it is killed
RESTARTING = "The casino is restarting."
DATABASE_ENV = "CASINO_GAME_DATABASE"     # the database URL the game process uses


class GameProcess:
    """One game process: the child and our end of its socket."""

    def __init__(self, proc: asyncio.subprocess.Process, reader: asyncio.StreamReader,
                 writer: asyncio.StreamWriter) -> None:
        self.proc = proc
        self.reader = reader
        self.writer = writer
        self.ready = False
        self.ready_at = 0.0                           # when it said ready (monotonic)
        self.bye: protocol.Message | None = None      # what it said before exiting
        self.returned: dict[int, list[str | TooLong]] = {}   # lines it handed back (`again`)
        self.ended = False                 # we sent our last message

    def send(self, message: protocol.Message) -> None:
        if not self.ended and not self.writer.is_closing():
            self.writer.write(protocol.encode(message))

    def end(self) -> None:
        """Send nothing more: the game process reads to the end of what it was sent, then exits."""
        self.ended = True
        if self.writer.can_write_eof() and not self.writer.is_closing():
            self.writer.write_eof()


class Portal:
    """The edges' Host in the portal process (see server.net.host.Host)."""

    def __init__(self, config: CasinoConfig, game_argv: list[str],
                 config_dirs: tuple[Path, Path] | None = None, game_env: dict[str, str] | None = None) -> None:
        self.config = config
        self.game_argv = game_argv             # `casino game ...` without the link's fd
        self.game_env = dict(game_env or {})   # the database URL: never on a command line `ps` shows
        self.config_dirs = config_dirs         # config/ and rooms/, read again after a reload
        limits = config.settings.limits
        self.connections = ConnectionCounter(limits.connections_per_ip, limits.max_connections,
                                             limits.max_login_connections, limits.login_connections_per_ip)
        self.manager = Manager(config.settings.tick_hz)
        self.closing = False
        self.stop_reason = "The casino is closing."
        self.started_at = time.time()
        self.sessions: dict[int, Session] = {}
        self.ids: dict[Session, int] = {}
        self.states: dict[int, Any] = {}       # connection -> {"name", "room"} once logged in
        self.told: dict[int, dict[str, Any]] = {}   # the client facts the game process has
        self.waiting: dict[int, list[str | TooLong]] = {}   # typed while no game process listens
        self.online: set[int] = set()          # logged in (MSSP counts them)
        self.greeted: set[int] = set()         # handed to a game process (it showed the banner)
        self.known: set[int] = set()           # connections the current game process was given
        self._next_id = 1
        self.game: GameProcess | None = None
        self.failures: list[float] = []        # when a game process failed to start, or died at once
        self.stopped = asyncio.Event()
        self.stop_requested = asyncio.Event()
        self.exit_code = 0
        self._telnet: Any = None
        self._web: Any = None
        self.host = config.settings.host

    # --- what the edges use (server.net.host.Host, telnet's Listed) ------------------
    @property
    def clock(self) -> Manager:
        return self.manager

    @property
    def port(self) -> int:
        sockets = self._telnet.sockets if self._telnet else None
        return sockets[0].getsockname()[1] if sockets else 0

    @property
    def web_port(self) -> int:
        return self._web.port if self._web else 0

    @property
    def addresses(self) -> str:
        return addresses(self.host, self.port, self.web_port)

    async def on_connect(self, session: Session) -> None:
        if self.closing:
            session.close(f"*** {self.stop_reason} ***")
            return
        cid = self._next_id
        self._next_id += 1
        self.sessions[cid] = session
        self.ids[session] = cid
        session.resized = lambda: self._facts_changed(session)
        self.told[cid] = self.facts(session)
        logs.event(log, "connect", ip=session.ip, id=cid)
        if self.game is not None and self.game.ready:
            self._open(self.game, cid, session)
        else:                              # opened once the next game process is ready
            session.relay(f"*** {RESTARTING} One moment. ***\r\n", prompt=True)

    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None:
        cid = self.ids.get(session)
        if cid is None or not lines:
            return
        game = self.game
        if game is None or not game.ready:
            kept = self.waiting.setdefault(cid, [])
            kept.extend(lines[:max(0, BUFFERED_LINES - len(kept))])
            return
        message: protocol.Message = {"t": "in", "id": cid,
                                     "l": [{"long": x.length} if isinstance(x, TooLong) else x for x in lines]}
        changed = self._changed_facts(cid, session)
        if changed:
            message["x"] = changed
        game.send(message)

    async def on_disconnect(self, session: Session) -> None:
        cid = self.ids.pop(session, None)
        if cid is None:
            return
        self.sessions.pop(cid, None)
        self.states.pop(cid, None)
        self.told.pop(cid, None)
        self.waiting.pop(cid, None)
        self.online.discard(cid)
        self.greeted.discard(cid)
        if cid in self.known:
            self.known.discard(cid)
            if self.game is not None:
                self.game.send({"t": "gone", "id": cid})

    # --- client facts ---------------------------------------------------------------
    def facts(self, session: Session) -> dict[str, Any]:
        """What the game process reads of this client (protocol.FACTS, naws, gmcp)."""
        out: dict[str, Any] = {}
        for key in protocol.FACTS:
            try:
                value = session.writer.get_extra_info(key)
            except Exception:      # a closing transport may refuse
                value = None
            if value is not None:
                out[key] = value if isinstance(value, (str, int, float, bool)) else str(value)
        if session.naws_cols:
            out["naws"] = session.naws_cols
        if session.gmcp is not None:
            out["gmcp"] = bool(session.gmcp.enabled)
            if session.gmcp.modules is not None:
                out["gmcp_modules"] = sorted(session.gmcp.modules)
        return out

    def _changed_facts(self, cid: int, session: Session) -> dict[str, Any]:
        now = self.facts(session)
        before = self.told.get(cid, {})
        changed = {k: v for k, v in now.items() if before.get(k) != v}
        if changed:
            self.told[cid] = now
        return changed

    def _facts_changed(self, session: Session) -> None:
        cid = self.ids.get(session)
        if cid is None or self.game is None or not self.game.ready:
            return
        changed = self._changed_facts(cid, session)
        if changed:
            self.game.send({"t": "x", "id": cid, "x": changed})

    # --- the game process -----------------------------------------------------------
    async def start_game(self, why: str | None = None) -> bool:
        """Start a game process and hand it every connection; False if it could not start."""
        here, there = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        env = dict(os.environ, CASINO_LINK_FD=str(there.fileno()), **self.game_env)
        # the portal's process group (a kill of the group is a crash of the whole casino);
        # a terminal's Ctrl-C or hang-up reaches both, and the game process ignores them
        # (server/cli/game.py): the portal's `stop` stops it cleanly instead
        proc = await asyncio.create_subprocess_exec(*self.game_argv, pass_fds=(there.fileno(),), env=env)
        there.close()
        reader, writer = await asyncio.open_unix_connection(sock=here, limit=1 << 22)
        game = GameProcess(proc, reader, writer)
        self.game = game
        conns = [{"id": cid, "ip": s.ip, "x": self.told.get(cid) or self.facts(s), "s": self.states.get(cid),
                  "new": cid not in self.greeted} for cid, s in self.sessions.items()]
        self.greeted.update(self.sessions)
        self.known = set(self.sessions)
        game.send({"t": "hello", "v": protocol.VERSION, "conns": conns, "why": why})
        ready = asyncio.get_running_loop().create_future()
        asyncio.create_task(self._read(game, ready))
        if not await ready:
            return False
        logs.event(log, "game_started", pid=proc.pid, connections=len(conns))
        for cid, session in list(self.sessions.items()):
            if cid not in self.known:          # came while this process was starting
                self._open(game, cid, session)
        for cid, lines in list(self.waiting.items()):
            if cid in self.sessions:
                game.send({"t": "in", "id": cid,
                           "l": [{"long": x.length} if isinstance(x, TooLong) else x for x in lines]})
        self.waiting.clear()
        return True

    async def _read(self, game: GameProcess, ready: asyncio.Future[bool]) -> None:
        """Everything the game process says, until it exits; then what happens next."""
        try:
            while line := await game.reader.readline():
                message = protocol.decode(line)
                if message is None:
                    continue
                if message["t"] == "ready":
                    game.ready = True
                    game.ready_at = time.monotonic()
                    ready.set_result(True)
                elif message["t"] == "bye":
                    game.bye = message
                    game.ready = False         # what is typed from now on waits for the next one
                    game.end()
                elif message["t"] == "again":
                    game.returned.setdefault(message["id"], []).extend(
                        TooLong(int(x["long"])) if isinstance(x, dict) else str(x) for x in message["l"])
                elif message["t"] == "reloaded":
                    self.reloaded()
                else:
                    self.deliver(message)
        except ConnectionError as e:               # it died mid-message: its exit says the rest
            log.warning("event=game_link_lost error=%r", e)
        except ValueError:                         # a line past the reader's limit: a bug
            log.exception("event=game_link_error")
        game.writer.close()                        # the game process waits for this after its bye
        code = await game.proc.wait()
        if self.game is game:
            self.game = None
        if not game.ready_at:                      # never started: start_game's caller decides
            if not ready.done():
                ready.set_result(False)
            return
        await self._game_ended(game, code)

    def _open(self, game: GameProcess, cid: int, session: Session) -> None:
        self.known.add(cid)
        self.greeted.add(cid)
        game.send({"t": "open", "id": cid, "ip": session.ip, "x": self.told.get(cid) or self.facts(session)})

    def deliver(self, m: protocol.Message) -> None:
        """One message from the game process for one connection."""
        session = self.sessions.get(m.get("id", 0))
        if session is None:
            return
        kind = m["t"]
        if kind == "w" or kind == "p":
            session.relay(m["d"], prompt=kind == "p")
        elif kind == "g":
            if session.gmcp is not None:
                session.gmcp.send(m["p"], m["d"])
        elif kind == "data":
            session.writer.data(m["p"], m["d"])     # the browser page's own view; telnet ignores it
        elif kind == "s":
            self._state(m["id"], session, m["s"])
        elif kind == "echo":
            try:
                session.writer.echo(bool(m["on"]))
            except Exception:      # noqa: BLE001 - a transport already gone
                session.abort()
        elif kind == "close":
            session.close()
        elif kind == "abort":
            session.abort()

    def _state(self, cid: int, session: Session, state: Any) -> None:
        self.states[cid] = state
        if state is None:
            self.online.discard(cid)
            return
        self.online.add(cid)
        count_login(self.connections, session)   # no longer counted among those logging in

    async def _game_ended(self, game: GameProcess, code: int) -> None:
        """A game process that was serving exited: for good, to be replaced, or dead."""
        bye = game.bye or {}
        if self.closing or (bye and not bye.get("restart")):
            logs.event(log, "game_stopped", code=code)
            self.exit_code = code
            self.request_stop(str(bye.get("why") or self.stop_reason))
            return
        for cid, lines in game.returned.items():     # typed before what waits here: first
            if cid in self.sessions:
                self.waiting[cid] = (lines + self.waiting.get(cid, []))[:BUFFERED_LINES]
        crashed = not bye
        logs.event(log, "game_restarting", code=code, crashed=crashed)
        if crashed:
            for session in list(self.sessions.values()):
                session.relay(f"\r\n*** {RESTARTING} One moment. ***\r\n")
        if crashed and time.monotonic() - game.ready_at < CRASH_SOON:
            self.failures.append(time.monotonic())   # died as soon as it served: a crash loop?
        why = "The casino restarted after a failure." if crashed else None
        while True:
            recent = [t for t in self.failures if time.monotonic() - t < RESTART_WINDOW]
            if len(recent) >= FAILED_STARTS:
                log.error("event=game_keeps_failing failures=%d window=%ds", len(recent), int(RESTART_WINDOW))
                self.exit_code = 1
                self.request_stop("The casino could not start.")
                return
            if await self.start_game(why):
                return
            self.failures.append(time.monotonic())
            await asyncio.sleep(1.0)               # whatever failed may need a moment (the database)

    # --- lifecycle ------------------------------------------------------------------
    async def listen(self, host: str, port: int, web_port: int | None) -> None:
        """Open the edges (as one process does, server.app.Casino._listen)."""
        from server.app import CannotListen
        from server.net.telnet import start_telnet
        try:
            if web_port is not None:
                from server.net.web import start_web
                try:
                    self._web = await start_web(self, host, web_port)
                except OSError as e:
                    raise CannotListen(host, web_port, "--web-port", e) from e
            try:
                self._telnet = await start_telnet(self, host, port)
            except OSError as e:
                raise CannotListen(host, port, "--port", e) from e
        except CannotListen:
            await self._close_edges()
            raise
        self.host = host
        asyncio.create_task(self.manager.run())
        logs.event(log, "listening", host=host, port=self.port, web_port=self.web_port or "off")

    def request_stop(self, reason: str) -> None:
        self.stop_reason = reason
        self.stop_requested.set()

    def restart(self, reason: str = RESTARTING) -> None:
        """`casino restart` (SIGUSR1): the game process restarts, everyone stays."""
        if self.game is not None and self.game.ready:
            self.game.send({"t": "restart", "why": reason})

    def reloaded(self) -> None:
        """The game process applied a reload: the portal's caps and limits follow (the
        same files, read again; the game process has just found them valid)."""
        if self.config_dirs is None:
            return
        from server.config.errors import ConfigInvalid
        from server.config.load import load_config
        try:
            config = load_config(*self.config_dirs)
        except (ConfigInvalid, OSError) as e:
            log.warning("event=portal_reload_failed error=%s", e)
            return
        self.config = config
        limits = config.settings.limits
        counter = self.connections
        counter.limit = limits.connections_per_ip
        counter.total_limit = limits.max_connections
        counter.anonymous_limit = limits.max_login_connections
        counter.anonymous_per_ip = limits.login_connections_per_ip
        logs.event(log, "portal_reloaded")

    def reload(self) -> None:
        """SIGHUP: the game process reloads (its own `reload`)."""
        if self.game is not None and self.game.ready:
            self.game.send({"t": "reload"})

    async def stop(self) -> None:
        """Stop for good: the game process settles and says goodbye, then the edges close."""
        self.closing = True
        game = self.game
        if game is not None:
            game.send({"t": "stop", "why": self.stop_reason})
            try:
                await asyncio.wait_for(game.proc.wait(), GAME_STOP_TIMEOUT)
            except asyncio.TimeoutError:
                game.proc.kill()
        loop = asyncio.get_running_loop()
        sessions = list(self.sessions.values())
        for session in sessions:
            if not session.closed:
                session.close(f"*** {self.stop_reason} Goodbye. ***")
        deadline = loop.time() + 2.0
        while any(s.unsent() for s in sessions) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        await self._close_edges()
        self.stopped.set()

    async def _close_edges(self) -> None:
        if self._telnet:
            self._telnet.close()
        if self._web:
            await self._web.close()


def install_signals(portal: Portal) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, portal.request_stop, "The casino is closing for the night.")
    loop.add_signal_handler(signal.SIGHUP, portal.reload)
    loop.add_signal_handler(signal.SIGUSR1, portal.restart)


def game_argv(args: Any) -> list[str]:
    """The game process's command line: this interpreter, `casino game`, the same options
    (the database goes in its environment, DATABASE_ENV: a password in it stays out of `ps`)."""
    argv = [sys.executable, "-m", "server.cli", "game", "--config", str(args.config),
            "--rooms", str(args.rooms)]
    if args.seed is not None:
        argv += ["--seed", str(args.seed)]
    if args.log_json:
        argv.append("--log-json")
    return argv

"""The portal process: every connection, and the game process behind them.

The portal accepts every connection and counts it in the per-address, total
and not-logged-in caps. A telnet socket is handed to the game process
(server/portal/handover.py), which serves it as one process would; the portal
keeps a descriptor of it and what a restart must keep, and reads nothing of
it. The browser's WebSocket runs here, as one process runs it (the byte
budgets, the output limit), as its `EdgeApp`: what it says goes to the game
process as messages (server/portal/protocol.py), and what the game writes
comes back and is written to the connection as it is, through the same
Session checks (a client that does not read is cut off here).

When the game process exits to be replaced (`restart`) or dies (kill -9),
the portal tells every player the casino is restarting, starts a new one
with the code now on disk (for a restart, as soon as the game process says it is
restarting: the successor imports and reads the config while the tables
settle, and opens the database once it is handed over), and hands it every
connection with its client facts and who is logged in where (`hello`, from server/portal/clients.py);
input typed in between waits (a few lines each). When it exits for good (an
operator's `shutdown`), the portal stops too. Too many failed starts stop
the portal as well (server/portal/game_process.py, StartFailures). A start that
fails on config/ and rooms/ as they are now is tried again on the copy the last
good start read (server/portal/last_good.py). `casino restart` (SIGUSR1) is
passed on as `restart`: the game process checks those files first, as
`reload` does, and refuses if they are broken. The portal reads no config
itself (server/portal/main.py): its caps are the settings the game process
read, told with `ready` and `reloaded`.
"""
from __future__ import annotations

import asyncio
import logging
import signal
import socket
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from server import logs
from server.config.model import CasinoConfig, Settings, settings_from_plain
from server.casino.listeners import CannotListen, Listeners
from server.net.lifecycle import Edge
from server.net.lines import TooLong
from server.net.session import Session
from server.net.throttle import ConnectionCounter
from server.portal import accept, protocol
from server.portal.clients import Clients
from server.portal.handover import Handed
from server.portal.game_process import RESTART_WINDOW, Ahead, GameProcess, StartFailures
from server.portal.last_good import Dirs, LastGoodConfig, with_dirs
from server.tables.manager import Manager

if TYPE_CHECKING:
    import argparse
    from server.net.telnet import TelnetApp

log = logging.getLogger("casino.portal")

GAME_STOP_TIMEOUT = 60.0   # seconds a stopping game process has before it is killed
RESTARTING = "The casino is restarting."
DATABASE_ENV = "CASINO_GAME_DATABASE"     # the database URL the game process uses


class Portal:
    """The edges' EdgeApp in the portal process (see server.net.edge_app.EdgeApp): the
    connections are `clients`, the game process behind them `game`."""

    def __init__(self, config: CasinoConfig, game_argv: list[str],
                 config_dirs: tuple[Path, Path] | None = None, game_env: dict[str, str] | None = None) -> None:
        self.config = config
        self.game_argv = game_argv             # `casino game ...` without the link's fd
        self.game_env = dict(game_env or {})   # the database URL: never on a command line `ps` shows
        self.config_dirs = config_dirs         # config/ and rooms/, read again after a reload
        self.last_good = LastGoodConfig() if config_dirs is not None else None
        self.connections = ConnectionCounter.of(config.settings.limits)
        self.clients = Clients(self.connections)
        self.handed = Handed(self.connections)    # telnet sockets, served by the game process
        self.telnet = Edge(self, "telnet", "shell_error")   # their admission
        self.manager = Manager(config.settings.tick_hz)
        self.closing = False
        self.stop_reason = "The casino is closing."
        self.started_at = time.time()
        self.game: GameProcess | None = None
        self.ahead = Ahead()                   # the next game process, started ahead of a restart
        self.failures = StartFailures()
        self.stopped = asyncio.Event()
        self.stop_requested = asyncio.Event()
        self.exit_code = 0
        self.listeners = Listeners(config.settings.host)   # the telnet and web edges, as one process opens them

    # --- what the edges use (server.net.edge_app.EdgeApp, telnet's Listed) ------------------
    @property
    def clock(self) -> Manager:
        return self.manager

    @property
    def online(self) -> set[int]:
        return self.clients.online | self.handed.online

    @property
    def port(self) -> int:
        return self.listeners.port

    @property
    def web_port(self) -> int:
        return self.listeners.web_port

    @property
    def addresses(self) -> str:
        return self.listeners.addresses

    def _serving(self) -> GameProcess | None:
        """The game process, if it listens now (not starting, not saying goodbye)."""
        return self.game if self.game is not None and self.game.ready else None

    def accepted(self, sock: socket.socket, ip: str) -> None:
        """A telnet socket: counted in the caps (or refused with the reason) and handed on."""
        admitted = self.telnet.admit(ip)
        if isinstance(admitted, str):
            try:
                sock.send(admitted.encode() + b"\r\n")
            except OSError:
                pass
            sock.close()
            return
        cid = self.clients.next_id()
        handed = self.handed.add(cid, sock, ip)
        logs.event(log, "connect", ip=ip, id=cid)
        if (game := self._serving()) is not None:
            game.sockets.send(self.handed.adopt(cid), sock.fileno())
        else:                              # handed over once the next game process is ready
            handed.notice(f"*** {RESTARTING} One moment. ***\r\n")

    async def _accepting(self, app: TelnetApp, host: str, port: int) -> accept.Acceptor:
        return accept.listen(host, port, self.accepted)

    async def on_connect(self, session: Session) -> None:
        if self.closing:
            session.close(f"*** {self.stop_reason} ***")
            return
        cid = self.clients.add(session)
        session.resized = lambda: self._facts_changed(session)
        logs.event(log, "connect", ip=session.ip, id=cid)
        if (game := self._serving()) is not None:
            game.send(self.clients.opened(cid, session))
        else:                              # opened once the next game process is ready
            session.relay(f"*** {RESTARTING} One moment. ***\r\n", prompt=True)

    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None:
        cid = self.clients.ids.get(session)
        if cid is None or not lines:
            return
        if (game := self._serving()) is None:
            self.clients.wait(cid, lines)
            return
        message: protocol.In = {"t": "in", "id": cid, "l": protocol.pack_lines(lines)}
        if changed := self.clients.changed_facts(cid, session):
            message["x"] = changed
        game.send(message)

    async def on_disconnect(self, session: Session) -> None:
        cid = self.clients.remove(session)
        if cid is not None and self.game is not None:
            self.game.send({"t": "gone", "id": cid})

    def _facts_changed(self, session: Session) -> None:
        cid = self.clients.ids.get(session)
        if cid is None or (game := self._serving()) is None:
            return
        if changed := self.clients.changed_facts(cid, session):
            game.send({"t": "x", "id": cid, "x": changed})

    # --- the game process -----------------------------------------------------------
    async def _spawn(self, dirs: Dirs | None) -> GameProcess:
        """A new game process, on `dirs` (the last good copy) or the operator's files
        (then copied as the last good, should it start). It waits for its hello."""
        if dirs is None and self.last_good is not None and self.config_dirs is not None:
            await asyncio.to_thread(self.last_good.take, self.config_dirs)
        return await GameProcess.spawn(with_dirs(self.game_argv, dirs) if dirs else self.game_argv,
                                       self.game_env)

    async def start_game(self, why: str | None = None, dirs: Dirs | None = None) -> bool:
        """Start a game process (or take the one started ahead) and hand it every
        connection; False if it could not start. `dirs`: the config and rooms to read
        instead of the operator's (the last good copy)."""
        last_good = self.last_good
        ahead = self.ahead.take() if dirs is None else None
        if ahead is not None:
            game = await ahead
        else:
            await self.ahead.drop(GAME_STOP_TIMEOUT)
            game = await self._spawn(dirs)
        self.game = game
        conns = self.clients.handover()
        game.send({"t": "hello", "v": protocol.VERSION, "conns": conns, "why": why,
                   "port": self.port, "web_port": self.web_port})
        self.handed.forget()
        for cid in list(self.handed.sockets):
            game.sockets.send(self.handed.adopt(cid, why), self.handed.sockets[cid].sock.fileno())
        asyncio.create_task(self._run(game))
        if not await game.started:
            return False
        if dirs is None and last_good is not None:
            last_good.worked()
        logs.event(log, "game_started", pid=game.proc.pid, connections=len(conns),
                   config="last_good" if dirs else "current")
        for cid, session in self.clients.unknown():
            game.send(self.clients.opened(cid, session))
        for cid in self.handed.unknown():
            game.sockets.send(self.handed.adopt(cid), self.handed.sockets[cid].sock.fileno())
        for message in self.clients.take_waiting():
            game.send(message)
        return True

    async def _run(self, game: GameProcess) -> None:
        """The game process's life, then what happens next (start_game's caller
        decides for one that never started)."""
        code = await game.run(self._from_game)
        if self.game is game:
            self.game = None
        if game.ready_at:
            await self._game_ended(game, code)

    def _from_game(self, message: protocol.Message) -> None:
        if message["t"] == "ready" or message["t"] == "reloaded":
            if "settings" in message:
                self.follow(settings_from_plain(message["settings"]))
            if message["t"] == "reloaded":
                logs.event(log, "portal_reloaded")
        elif message["t"] == "restarting" and not self.closing:
            self.ahead.start(lambda: self._spawn(None))
        elif message["t"] == "k":
            self.handed.kept(message["id"], message["k"])
        elif message["t"] == "gone":
            self.handed.gone(message["id"])
        elif message["t"] == "s" and message["id"] in self.handed.sockets:
            self.handed.state(message["id"], message["s"])
        elif protocol.for_connection(message):
            self.clients.deliver(message)

    async def _game_ended(self, game: GameProcess, code: int) -> None:
        """A game process that was serving exited: for good, to be replaced, or dead."""
        bye = game.bye                     # None: it said no goodbye
        if self.closing or (bye is not None and not bye.get("restart")):
            logs.event(log, "game_stopped", code=code)
            self.exit_code = code
            await self.ahead.drop(GAME_STOP_TIMEOUT)
            why = bye.get("why") if bye is not None else None
            self.request_stop(str(why or self.stop_reason))
            return
        self.clients.handed_back(game.returned)
        self.handed.handed_back(game.returned)
        logs.event(log, "game_restarting", code=code, crashed=game.crashed)
        if game.crashed:
            for session in list(self.clients.sessions.values()):
                session.relay(f"\r\n*** {RESTARTING} One moment. ***\r\n")
            self.handed.notice(f"\r\n*** {RESTARTING} One moment. ***\r\n")
        if game.died_at_once():
            self.failures.add()                    # died as soon as it served: a crash loop?
        why = "The casino restarted after a failure." if game.crashed else None
        dirs: Dirs | None = None                   # the operator's files first
        while True:
            if self.failures.too_many():
                log.error("event=game_keeps_failing failures=%d window=%ds",
                          self.failures.recent(), int(RESTART_WINDOW))
                self.exit_code = 1
                await self.ahead.drop(GAME_STOP_TIMEOUT)
                self.request_stop("The casino could not start.")
                return
            if await self.start_game(why, dirs):
                return
            self.failures.add()
            if dirs is None and self.last_good is not None and self.last_good.good is not None:
                dirs = self.last_good.good         # then the files the last good start read
                log.warning("event=game_on_last_good_config config=%s", dirs[0])
                continue                           # at once: the players are waiting
            await asyncio.sleep(1.0)               # whatever failed may need a moment (the database)

    # --- lifecycle ------------------------------------------------------------------
    async def listen(self, host: str, port: int, web_port: int | None) -> None:
        """Open the edges as one process does (server.casino.listeners)."""
        try:
            await self.listeners.open(self, host, port, web_port, telnet=self._accepting)
        except CannotListen:
            await self.listeners.close()
            raise
        asyncio.create_task(self.manager.run())
        logs.event(log, "listening", host=host, port=self.port, web_port=self.web_port or "off")

    def request_stop(self, reason: str) -> None:
        self.stop_reason = reason
        self.stop_requested.set()

    def restart(self, reason: str = RESTARTING) -> None:
        """`casino restart` (SIGUSR1): the game process restarts, everyone stays; it
        refuses while config/ or rooms/ is broken (the new one would not start on
        them), each error `restart_refused` in the log."""
        if (game := self._serving()) is not None:
            game.send({"t": "restart", "why": reason})

    def follow(self, settings: Settings) -> None:
        """The settings a game process read (at its start, which a restart makes, or
        at a reload): the portal's caps and limits follow, the per-connection limits
        from the next connection."""
        self.config = CasinoConfig(settings=settings, tables={}, rooms={})
        self.connections.configure(settings.limits)

    def reload(self) -> None:
        """SIGHUP: the game process reloads (its own `reload`)."""
        if (game := self._serving()) is not None:
            game.send({"t": "reload"})

    async def stop(self) -> None:
        """Stop for good: the game process settles and says goodbye, then the edges close."""
        self.closing = True
        await self.ahead.drop(GAME_STOP_TIMEOUT)
        game = self.game
        if game is not None:
            game.send({"t": "stop", "why": self.stop_reason})
            try:
                await asyncio.wait_for(game.proc.wait(), GAME_STOP_TIMEOUT)
            except asyncio.TimeoutError:
                game.proc.kill()
        loop = asyncio.get_running_loop()
        sessions = list(self.clients.sessions.values())
        for session in sessions:
            if not session.closed:
                session.close(f"*** {self.stop_reason} Goodbye. ***")
        deadline = loop.time() + 2.0
        while any(s.unsent() for s in sessions) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        for handed in self.handed.sockets.values():
            if game is None or game.crashed:      # a game process that stopped said its goodbye
                handed.notice(f"\r\n*** {self.stop_reason} Goodbye. ***\r\n")
        self.handed.close_all()
        await self.listeners.close()
        if self.last_good is not None:
            self.last_good.remove()
        self.stopped.set()

def install_signals(portal: Portal) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, portal.request_stop, "The casino is closing for the night.")
    loop.add_signal_handler(signal.SIGHUP, portal.reload)
    loop.add_signal_handler(signal.SIGUSR1, portal.restart)


def game_argv(args: argparse.Namespace) -> list[str]:
    """The game process's command line: this interpreter, `casino game`, the same options
    (the database goes in its environment, DATABASE_ENV: a password in it stays out of `ps`)."""
    argv = [sys.executable, "-m", "server.cli", "game", "--config", str(args.config),
            "--rooms", str(args.rooms)]
    if args.seed is not None:
        argv += ["--seed", str(args.seed)]
    if args.log_json:
        argv.append("--log-json")
    return argv

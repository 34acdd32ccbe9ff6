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
operator's `shutdown`), the portal stops too. A start that fails is tried
again, later and later (1 s doubling to 30 s: server/portal/game_process.py,
StartFailures), never giving up while players wait: they read once why
nothing answers ("waiting for its database") and keep their connections. A start that
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
from server.portal.backlog import Backlog
from server.portal.clients import Clients
from server.portal.dialing import DialedShard
from server.portal.handover import Handed
from server.portal.last_good import LastGoodConfig
from server.portal.shard_games import RESTARTING, ShardGames
from server.portal.silence import Silence
from server.tables.manager import Manager

if TYPE_CHECKING:
    import argparse
    from server.net.telnet import TelnetApp

log = logging.getLogger("casino.portal")

DATABASE_ENV = "CASINO_GAME_DATABASE"     # the database URL the game process uses


class Portal:
    """The edges' EdgeApp in the portal process (see server.net.edge_app.EdgeApp): the
    connections are `clients` (relayed) and `handed` (telnet sockets), each on one
    shard; `shards` the game processes behind them, one shard's after another."""

    def __init__(self, config: CasinoConfig, games: dict[str, list[str]], door: str,
                 config_dirs: tuple[Path, Path] | None = None, game_env: dict[str, str] | None = None,
                 dial: dict[str, str] | None = None) -> None:
        self.config = config
        self.game_env = dict(game_env or {})   # the database URL: never on a command line `ps` shows
        self.config_dirs = config_dirs         # config/ and rooms/, read again after a reload
        self.last_good = LastGoodConfig() if config_dirs is not None else None
        self.connections = ConnectionCounter.of(config.settings.limits)
        self.clients = Clients(self.connections)
        self.handed = Handed(self.connections)    # telnet sockets, served by the game processes
        self.telnet = Edge(self, "telnet", "shell_error")   # their admission
        self.manager = Manager(config.settings.tick_hz)
        self.closing = False
        self.stop_reason = "The casino is closing."
        self.started_at = time.time()
        # each shard's `casino game` command line (one, for every room, when none is named);
        # or, a portal beside others, each shard's socket to dial (server/portal/dialing.py)
        self.shards: dict[str, ShardGames] = (
            {name: DialedShard(self, name, path) for name, path in dial.items()} if dial is not None
            else {name: ShardGames(self, name, argv) for name, argv in games.items()})
        self.reuse_port = dial is not None     # its port shared with the other portals
        self.door = door                       # the shard where a new connection starts
        self.stopped = asyncio.Event()
        self.stop_requested = asyncio.Event()
        self.exit_code = 0
        self.listeners = Listeners(config.settings.host)   # the telnet and web edges, as one process opens them
        self.silence = Silence(self.shards.values, self.manager.seconds(1),
                               self.manager.seconds(config.settings.limits.game_silence))
        self.manager.subscribe(self.silence)
        self.backlog = Backlog(self.clients, lambda: self.shards)   # input held while a game process does not read
        self.manager.subscribe(self.backlog)

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

    def accepted(self, sock: socket.socket, ip: str) -> None:
        """A telnet socket: counted in the caps (or refused with the reason) and handed
        to the shard where everyone logs in."""
        admitted = self.telnet.admit(ip)
        if isinstance(admitted, str):
            try:
                sock.send(admitted.encode() + b"\r\n")
            except OSError:
                pass
            sock.close()
            return
        cid = self.clients.next_id()
        handed = self.handed.add(cid, sock, ip, self.door)
        logs.event(log, "connect", ip=ip, id=cid)
        if (game := self.shards[self.door].serving()) is not None:
            game.sockets.send(self.handed.adopt(cid), sock.fileno())
        else:                              # handed over once the next game process is ready
            handed.notice(self.shards[self.door].notice() + "\r\n")

    async def _accepting(self, app: TelnetApp, host: str, port: int) -> accept.Acceptor:
        return accept.listen(host, port, self.accepted, reuse_port=self.reuse_port)

    async def on_connect(self, session: Session) -> None:
        if self.closing:
            session.close(f"*** {self.stop_reason} ***")
            return
        cid = self.clients.add(session, self.door)
        session.resized = lambda: self._facts_changed(session)
        logs.event(log, "connect", ip=session.ip, id=cid)
        if (game := self.shards[self.door].serving()) is not None:
            if game.full():                # opened once it reads again (server/portal/backlog.py)
                self.backlog.opening(self.door)
            else:
                game.send(self.clients.opened(cid, session))
        else:                              # opened once the next game process is ready
            session.relay(self.shards[self.door].notice() + "\r\n", prompt=True)

    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None:
        cid = self.clients.ids.get(session)
        if cid is None or not lines:
            return
        shard = self.clients.shard[cid]
        game = self.shards[shard].serving()
        if game is None or cid in self.clients.moving or self.backlog.holds(cid, game):
            self.backlog.park(cid, session, lines, shard if game is not None else None)
            return
        game.send(self.clients.lines_in(cid, session, lines))

    async def on_disconnect(self, session: Session) -> None:
        cid = self.clients.ids.get(session)
        if cid is None:
            return
        shard = self.clients.shard.get(cid, self.door)
        if self.clients.remove(session) is not None:     # its shard's game process knows it
            self.shards[shard].send({"t": "gone", "id": cid})

    def _facts_changed(self, session: Session) -> None:
        cid = self.clients.ids.get(session)
        if cid is None or cid in self.clients.moving:
            return
        if (game := self.shards[self.clients.shard[cid]].serving()) is None or self.backlog.holds(cid, game):
            return                         # told with its next line
        if changed := self.clients.changed_facts(cid, session):
            game.send({"t": "x", "id": cid, "x": changed})

    # --- what the game processes say (server.portal.shard_games.PortalSide) ------------
    def heard(self, shard: ShardGames, message: protocol.Message) -> None:
        if message["t"] == "ready" or message["t"] == "reloaded":
            if "settings" in message:
                self.follow(settings_from_plain(message["settings"]))
            if message["t"] == "reloaded":
                logs.event(log, "portal_reloaded", shard=shard.name)
        elif message["t"] == "restarting" and not self.closing:
            shard.start_ahead()
        elif message["t"] == "k":
            self.handed.kept(message["id"], message["k"])
        elif message["t"] == "gone":
            self.handed.gone(message["id"])
        elif message["t"] == "s" and message["id"] in self.handed.sockets:
            self.handed.state(message["id"], message["s"])
        elif message["t"] == "move":
            self._move(shard, message)
        elif message["t"] == "behind":
            self.clients.behind(message["id"], protocol.unpack_lines(message["l"]))
        elif message["t"] == "released":
            self._join(message["id"])
        elif protocol.for_connection(message):
            self.clients.deliver(message)

    def _move(self, source: ShardGames, m: protocol.Move) -> None:
        """A player walked into a room shard `to` hosts (server/casino/handoff.py): a telnet
        socket, let go by `source`, is handed to `to`'s game process at once; a relayed
        connection waits for `source` to send back what it had (`released`)."""
        cid, to = m["id"], m["to"]
        if to not in self.shards:
            log.error("event=move_to_unknown_shard shard=%s id=%d", to, cid)
            to = self.door
        lines = protocol.unpack_lines(m["l"])
        if cid in self.handed.sockets:
            self.handed.move(cid, to, m["s"], m.get("k"), lines, m.get("r", ""), m["via"])
            if (game := self.shards[to].serving()) is not None:
                game.sockets.send(self.handed.adopt(cid), self.handed.sockets[cid].sock.fileno())
            logs.event(log, "handoff", id=cid, source=source.name, target=to)
        elif cid in self.clients.sessions:
            self.clients.move(cid, to, source.name, m["s"], lines, m["via"])
            if not source.send({"t": "moved", "id": cid}):
                self._join(cid)            # it is gone: nothing more comes of the connection

    def _join(self, cid: int) -> None:
        """A relayed connection's source has nothing more of it: its shard takes it."""
        shard = self.clients.shard.get(cid)
        if shard is None:
            return
        game = self.shards[shard].serving()
        join = self.clients.released(cid, game is not None)
        if join is not None and game is not None:
            game.send(join)
            logs.event(log, "handoff", id=cid, target=shard)

    def source_gone(self, shard: str) -> None:
        """`shard`'s game process ended: the moves it had begun go on without it."""
        for cid in self.clients.moving_from(shard):
            self._join(cid)

    def stop_for_good(self, code: int, why: str) -> None:
        """A game process stopped for good (an operator's `shutdown`): the whole casino stops."""
        self.exit_code = code
        self.request_stop(why)

    # --- lifecycle ------------------------------------------------------------------
    async def start_games(self) -> bool:
        """Every shard's game process, started together; False if one could not start."""
        started = await asyncio.gather(*(shard.start() for shard in self.shards.values()))
        return all(started)

    async def listen(self, host: str, port: int, web_port: int | None) -> None:
        """Open the edges as one process does (server.casino.listeners)."""
        try:
            await self.listeners.open(self, host, port, web_port, telnet=self._accepting,
                                      reuse_port=self.reuse_port)
        except CannotListen:
            await self.listeners.close()
            raise
        asyncio.create_task(self.manager.run())
        logs.event(log, "listening", host=host, port=self.port, web_port=self.web_port or "off")

    def request_stop(self, reason: str) -> None:
        self.stop_reason = reason
        self.stop_requested.set()

    def restart(self, reason: str = RESTARTING) -> None:
        """`casino restart` (SIGUSR1): every game process restarts, everyone stays; each
        refuses while config/ or rooms/ is broken (the new one would not start on
        them), each error `restart_refused` in the log."""
        for shard in self.shards.values():
            shard.send({"t": "restart", "why": reason})

    def follow(self, settings: Settings) -> None:
        """The settings a game process read (at its start, which a restart makes, or
        at a reload): the portal's caps and limits follow, the per-connection limits
        from the next connection."""
        self.config = CasinoConfig(settings=settings, tables={}, rooms={})
        self.connections.configure(settings.limits)
        self.silence.limit = self.manager.seconds(settings.limits.game_silence)

    def reload(self) -> None:
        """SIGHUP: every game process reloads (its own `reload`)."""
        for shard in self.shards.values():
            shard.send({"t": "reload"})

    async def stop(self) -> None:
        """Stop for good: the game processes settle and say goodbye, then the edges close."""
        self.closing = True
        await asyncio.gather(*(shard.stop(self.stop_reason) for shard in self.shards.values()))
        loop = asyncio.get_running_loop()
        sessions = list(self.clients.sessions.values())
        for session in sessions:
            if not session.closed:
                session.close(f"*** {self.stop_reason} Goodbye. ***")
        deadline = loop.time() + 2.0
        while any(s.unsent() for s in sessions) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        for handed in self.handed.sockets.values():
            shard = self.shards.get(handed.shard)
            if shard is None or not shard.said_goodbye():
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


def games(args: argparse.Namespace, settings: Settings) -> dict[str, list[str]]:
    """Each shard's game process command line: `casino game --shard NAME` for each
    shard named, or one `casino game` for every room."""
    from server.config.shards import ONE, sharded
    from server.config.model import Metrics
    from server.metrics.serving import as_argument, game_port
    argv = game_argv(args)
    if not sharded(settings):              # none named, or one: the one game process
        out = {ONE: argv}
    else:
        out = {shard.name: [*argv, "--shard", shard.name] for shard in settings.shards}
    metrics = getattr(args, "metrics", None) or settings.metrics     # casino serve --metrics, or the config
    if metrics is not None:       # the portal's port, then one each (docs/operating.md, "Metrics")
        out = {name: [*a, "--metrics", as_argument(Metrics(metrics.host, game_port(metrics.port, i)))]
               for i, (name, a) in enumerate(out.items())}
    return out


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

"""One shard's game processes, one after another, in the portal.

A casino naming no shards has one of these (every room); with `server.shards`
the portal keeps one per shard, each the life of that shard's `casino game
--shard NAME`: started (or taken from the one started ahead of a restart),
handed the connections whose players are on its rooms, heard until it exits,
then replaced (after failed starts, later and later, never giving up while
players wait), or the portal stopped (a stop for good). What the portal does with each connection (which shard it is on,
its moves between shards) is the portal's (server/portal/portal.py).
"""
from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Protocol

from server import logs
from server.metrics import COUNTS
from server.portal import protocol
from server.portal.clients import Clients
from server.portal.game_process import Ahead, GameProcess, StartFailures
from server.portal.handover import Handed
from server.portal.last_good import Dirs, LastGoodConfig, with_dirs

log = logging.getLogger("casino.portal")

GAME_STOP_TIMEOUT = 60.0   # seconds a stopping game process has before it is killed
RESTARTING = "The casino is restarting."
# What the players of a shard read once when its next game process did not start
# (issue 42): a start that failed on the database said so in its goodbye.
WAITING_FOR_DATABASE = "The casino is waiting for its database; your connection is kept."
WAITING_TO_START = "The casino cannot start just now and keeps trying; your connection is kept."


class PortalSide(Protocol):
    """What a shard's game processes use of the portal (server.portal.portal.Portal)."""

    @property
    def clients(self) -> Clients: ...
    @property
    def handed(self) -> Handed: ...
    @property
    def last_good(self) -> LastGoodConfig | None: ...
    @property
    def config_dirs(self) -> tuple[Path, Path] | None: ...
    @property
    def game_env(self) -> dict[str, str]: ...
    @property
    def closing(self) -> bool: ...
    @property
    def stop_reason(self) -> str: ...
    @property
    def port(self) -> int: ...
    @property
    def web_port(self) -> int: ...

    def heard(self, shard: ShardGames, message: protocol.Message) -> None: ...
    def stop_for_good(self, code: int, why: str) -> None: ...
    def source_gone(self, shard: str) -> None: ...


class ShardGames:
    """The game process of shard `name` now (`game`), the one started ahead of its
    restart, and its failed starts."""

    def __init__(self, portal: PortalSide, name: str, argv: list[str]) -> None:
        self.portal = portal
        self.name = name
        self.argv = argv                       # `casino game ...` without the link's fd
        self.game: GameProcess | None = None
        self.ahead = Ahead()
        self.failures = StartFailures()
        self.on_database = False               # the last start failed on the database
        self.waiting: str | None = None        # what its players were told while it cannot start

    def serving(self) -> GameProcess | None:
        """The game process, if it listens now (not starting, not saying goodbye)."""
        return self.game if self.game is not None and self.game.ready else None

    def send(self, message: protocol.Message) -> bool:
        """To the game process serving now; False (not sent) while there is none."""
        game = self.serving()
        if game is None:
            return False
        game.send(message)
        return True

    async def _spawn(self, dirs: Dirs | None) -> GameProcess:
        """A new game process, on `dirs` (the last good copy) or the operator's files
        (then copied as the last good, should it start). It waits for its hello."""
        portal = self.portal
        copy = None
        if dirs is None and portal.last_good is not None and portal.config_dirs is not None:
            copy = await asyncio.to_thread(portal.last_good.take, portal.config_dirs)
        game = await GameProcess.spawn(with_dirs(self.argv, dirs) if dirs else self.argv, portal.game_env)
        game.config_copy = copy
        return game

    def start_ahead(self) -> None:
        """The game process said `restarting`: its successor starts now."""
        self.ahead.start(lambda: self._spawn(None))

    async def start(self, why: str | None = None, dirs: Dirs | None = None) -> bool:
        """Start a game process (or take the one started ahead) and hand it every
        connection on this shard; False if it could not start. `dirs`: the config and
        rooms to read instead of the operator's (the last good copy)."""
        portal = self.portal
        clients, handed, last_good = portal.clients, portal.handed, portal.last_good
        ahead = self.ahead.take() if dirs is None else None
        if ahead is not None:
            game = await ahead
        else:
            await self.ahead.drop(GAME_STOP_TIMEOUT)
            game = await self._spawn(dirs)
        self.game = game
        conns = clients.handover(self.name)
        for message in protocol.hello_messages(conns, why, portal.port, portal.web_port):
            game.send(message)
        handed.forget(self.name)
        for cid in handed.on(self.name):
            game.sockets.send(handed.adopt(cid, why), handed.sockets[cid].sock.fileno())
        asyncio.create_task(self._run(game))
        if not await game.started:
            self.on_database = game.bye is not None   # only a failure on the database says goodbye
            if last_good is not None and game.config_copy is not None:
                last_good.failed(game.config_copy)
            return False
        self.waiting = None
        if last_good is not None and game.config_copy is not None:
            last_good.worked(game.config_copy)
        logs.event(log, "game_started", shard=self.name, pid=game.proc.pid if game.proc else "dialed",
                   connections=len(conns),
                   config="last_good" if dirs else "current")
        for cid, session in clients.unknown(self.name):
            game.send(clients.opened(cid, session))
        for cid in handed.unknown(self.name):
            game.sockets.send(handed.adopt(cid), handed.sockets[cid].sock.fileno())
        for message in clients.take_waiting(self.name):
            game.send(message)
        return True

    async def _run(self, game: GameProcess) -> None:
        """The game process's life, then what happens next (start's caller
        decides for one that never started)."""
        code = await game.run(lambda message: self.portal.heard(self, message))
        if self.game is game:
            self.game = None
        if game.ready_at:
            await self._ended(game, code)

    def _for_good(self, game: GameProcess, code: int) -> bool:
        """Whether the game process that ended stopped the casino (an operator's
        `shutdown`, or the portal closing): then the portal stops too."""
        portal = self.portal
        bye = game.bye                     # None: it said no goodbye
        if portal.closing or (bye is not None and not bye.get("restart")):
            logs.event(log, "game_stopped", shard=self.name, code=code)
            why = bye.get("why") if bye is not None else None
            portal.stop_for_good(code, str(why or portal.stop_reason))
            return True
        return False

    def _carry_over(self, game: GameProcess, code: int) -> None:
        """The game process ended to be replaced, or died: what it handed back waits
        for the next one, and its players read that the casino is restarting."""
        portal = self.portal
        portal.clients.handed_back(game.returned)
        portal.handed.handed_back(game.returned)
        portal.source_gone(self.name)              # moves it had begun: nothing more comes of them
        logs.event(log, "game_restarting", shard=self.name, code=code, crashed=game.crashed)
        COUNTS.restarts[self.name] += 1
        if game.crashed:
            notice = f"\r\n*** {RESTARTING} One moment. ***\r\n"
            for session in portal.clients.on(self.name):
                session.relay(notice)
            portal.handed.notice(notice, self.name)

    async def _ended(self, game: GameProcess, code: int) -> None:
        """A game process that was serving exited: for good, to be replaced, or dead.
        Starts that fail are tried again later and later (StartFailures), for as long
        as the portal runs: its players are told once, and keep their connections."""
        portal = self.portal
        if self._for_good(game, code):
            await self.ahead.drop(GAME_STOP_TIMEOUT)
            return
        self._carry_over(game, code)
        if game.died_at_once():
            self.failures.add()                    # died as soon as it served: a crash loop?
        else:
            self.failures.clear()
        why = "The casino restarted after a failure." if game.crashed else None
        dirs: Dirs | None = None                   # the operator's files first
        while not portal.closing:
            if await self.start(why, dirs):
                return
            self.failures.add()
            last_good = portal.last_good
            if dirs is None and last_good is not None and last_good.good is not None:
                dirs = last_good.good              # then the files the last good start read
                log.warning("event=game_on_last_good_config shard=%s config=%s", self.name, dirs[0])
                continue                           # at once: the players are waiting
            wait = self.failures.wait()
            if self.failures.keeps_failing():
                log.error("event=game_keeps_failing shard=%s failures=%d", self.name, self.failures.count)
            logs.event(log, "game_start_failed", shard=self.name, failures=self.failures.count,
                       database=self.on_database, again_in=wait)
            self._tell_waiting()
            await asyncio.sleep(wait)              # whatever failed may need a moment (the database)

    def _tell_waiting(self) -> None:
        """Once a streak, every player on this shard reads why nothing answers."""
        if self.waiting is not None:
            return
        self.waiting = WAITING_FOR_DATABASE if self.on_database else WAITING_TO_START
        self.tell(self.waiting)

    def tell(self, text: str) -> None:
        """A line of the portal's own to every player on this shard, on a line of its own."""
        notice = f"\r\n*** {text} ***\r\n"
        for session in self.portal.clients.on(self.name):
            session.relay(notice, prompt=True)
        self.portal.handed.notice(notice, self.name)

    def notice(self) -> str:
        """What a connection arriving on this shard reads while no game process serves it."""
        return f"*** {self.waiting or RESTARTING + ' One moment.'} ***"

    async def stop(self, why: str) -> None:
        """Stop for good: the game process settles and says goodbye (killed after a minute)."""
        await self.ahead.drop(GAME_STOP_TIMEOUT)
        game = self.game
        if game is None or game.proc is None:
            return
        game.send({"t": "stop", "why": why})
        try:
            await asyncio.wait_for(game.proc.wait(), GAME_STOP_TIMEOUT)
        except asyncio.TimeoutError:
            game.proc.kill()

    def said_goodbye(self) -> bool:
        """Whether the game process said the last line to this shard's telnet players
        (the portal writes its own goodbye if not)."""
        return self.game is not None and not self.game.crashed

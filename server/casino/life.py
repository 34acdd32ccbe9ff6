"""The casino's life: starting, stopping, restarting, reloading."""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Protocol

from server import logs
from server.config.model import Metrics, plain_settings
from server.accounts.passwords import Passwords
from server.heap import Heap
from server.net.edge_app import PortalLink
from server.reload import Reloadable, reload
from server.render.text import sentence
from server.tables.manager import Manager

from server.casino.crossing import Crossing
from server.casino.hosting import Hosting
from server.casino.listeners import CannotListen, Listeners
from server.casino.operators import Operators
from server.casino.stores import Stores
from server.metrics.serving import serve_metrics

if TYPE_CHECKING:
    from server.casino.sessions import Sessions
    from server.ledger import Ledger
    from server.metrics.export import Exporter
    from server.casino.tables import Tables
    from server.net.telnet import TelnetApp
    from server.world.roster import Online

log = logging.getLogger("casino")

COMMANDS_FINISH_WAIT = 10.0      # seconds a clean stop waits for commands already running
RESTARTING = "The casino is restarting."   # what every player reads at a restart, whatever the reason


class LifeApp(Reloadable, Protocol):
    """What the casino's life uses of it (server.app.Casino): every service it
    opens and closes in order, the clock it runs, the portal it answers to,
    and what a reload changes."""

    @property
    def stores(self) -> Stores: ...
    @property
    def passwords(self) -> Passwords: ...
    @property
    def rights(self) -> Operators: ...
    @property
    def tables(self) -> Tables: ...
    @property
    def sessions(self) -> Sessions: ...
    @property
    def listeners(self) -> Listeners: ...
    @property
    def manager(self) -> Manager: ...
    @property
    def online(self) -> Online: ...
    @property
    def portal(self) -> PortalLink | None: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def hosting(self) -> Hosting: ...
    @property
    def crossing(self) -> Crossing | None: ...
    @property
    def metrics(self) -> Metrics | None: ...        # where /metrics is served (None: not served)
    @property
    def ledger(self) -> Ledger: ...                 # what /metrics reads the ledger's figures from
    @property
    def started_at(self) -> float: ...


class ShutdownCountdown:
    """An operator's `shutdown N`: announcements on the way down, then stop."""

    ANNOUNCE_AT = (600, 300, 120, 60, 30, 10, 5, 4, 3, 2, 1)

    def __init__(self, life: CasinoLife, seconds: int, reason: str) -> None:
        self.life, self.reason = life, sentence(reason)
        self.manager = life.app.manager
        self.left = self.manager.seconds(seconds)
        self._announce(seconds)

    def _announce(self, seconds: int) -> None:
        for session in list(self.life.app.online.values()):
            session.tell(f"*** The casino closes in {seconds} second{'s' if seconds != 1 else ''}: {self.reason} ***")

    def advance(self, ticks: int) -> None:
        before = self.left
        self.left = max(0, self.left - ticks)
        hz = self.manager.tick_hz
        crossed = [m for m in self.ANNOUNCE_AT if self.left <= m * hz < before]
        if crossed and self.left > 0:
            self._announce(-(-self.left // hz))
        if self.left == 0:
            self.manager.unsubscribe(self)
            self.life.request_stop(self.reason)


class CasinoLife:
    """Start opens the stores, the tables and the listeners, then runs the
    clock; stop refunds every table, says goodbye and closes them all again,
    in order. Signals, an operator's `shutdown` and the portal ask for a stop
    (`request_stop`); whoever serves the casino waits for `stop_requested`."""

    def __init__(self, app: LifeApp) -> None:
        self.app = app
        self._clock_task: asyncio.Task[None] | None = None
        self.stopped = asyncio.Event()
        self.closing = False                 # no more input is handled, nobody more admitted
        self.stop_requested = asyncio.Event()
        self.stop_reason = "The casino is closing."
        self.restarting = False              # stopping to be replaced: the portal keeps every connection
        self.exporter: Exporter | None = None   # /metrics, while served (server/metrics)

    async def start(self, edges: TelnetApp, host: str, port: int, web_port: int | None,
                    run_clock: bool, listen: bool) -> None:
        """`edges`: the casino as its listeners see it. `listen=False`: no
        listener at all, the connections come from a portal."""
        app = self.app
        await app.stores.open(app.rights.names, app.hosting.ledger(app.config))
        await app.rights.refuse_squatted(app.stores.accounts, app.rights.names)
        app.tables.open()
        metrics = app.metrics
        if metrics is not None:
            from server.metrics.live import CasinoLive
            shard = {"shard": app.hosting.shard} if app.hosting.shard is not None else {}
            self.exporter = await serve_metrics(lambda: CasinoLive(app), metrics.host, metrics.port,
                                                "casino" if listen else "game", **shard)
        if app.crossing is not None:
            await app.crossing.start()       # never waits for the broker (server/bus/bus.py)
        if listen:
            try:
                await app.listeners.open(edges, host, port, web_port)
            except CannotListen:
                await self.stop("The casino could not start.")
                raise
        if run_clock:
            # The real server (tests drive the clock themselves and keep their
            # heap as it is): full collections kept off the replies (server.heap).
            heap = Heap(app.manager.tick_hz, lambda: len(app.online))
            heap.refreeze()
            app.manager.subscribe(heap)
            self._clock_task = asyncio.create_task(app.manager.run())
        seed = app.seed if app.seed is not None else "none"
        if listen:
            logs.event(log, "listening", host=host, port=app.listeners.port,
                       web_port=app.listeners.web_port or "off", seed=seed)
        else:
            logs.event(log, "game_ready", seed=seed)

    def request_stop(self, reason: str) -> None:
        """Ask the serving loop to stop (signals, an operator's shutdown)."""
        self.stop_reason = sentence(reason)
        self.stop_requested.set()

    def request_restart(self, reason: str = "") -> str | None:
        """Stop to be replaced by a new game process with the code now on disk; every
        connection stays open in the portal. Returns why not, when there is no portal."""
        if self.app.portal is None:
            return ("This casino runs in one process (casino serve --one-process): a restart "
                    "would disconnect everyone. Use shutdown, or serve it with a portal.")
        if (broken := self.broken_config()) is not None:
            return broken
        if not self.closing:
            self.restarting = True
            self.app.portal.send({"t": "restarting"})    # the portal starts the next one now
            # every player reads that the casino is restarting, whatever reason was given
            said = sentence(reason)
            self.request_stop(said if said.startswith(RESTARTING) else f"{RESTARTING} {said}".strip())
        return None

    def broken_config(self) -> str | None:
        """Why a new game process would not start on config/ and rooms/ as they are now
        (every error as file:line, as `reload` says them), or None. Read here, in the
        loop: a restart is rare and the files are small (and bounded: yamlsrc)."""
        from server.config import load
        try:
            load.load_config(self.app.config_dir, self.app.rooms_dir)
        except load.ConfigInvalid as err:
            errors = [str(e) for e in err.errors]
            for error in errors:
                log.warning("event=restart_refused error=%s", error)
            return "\n".join([f"Restart refused: {len(errors)} error{'s' if len(errors) != 1 else ''} "
                              "in the config; nothing changed, everyone plays on."] + errors)
        return None

    def schedule_shutdown(self, seconds: int, reason: str) -> None:
        if seconds <= 0:
            self.request_stop(reason)
        else:
            self.app.manager.subscribe(ShutdownCountdown(self, seconds, reason))

    async def reload(self) -> tuple[bool, list[str]]:
        """Re-read config/ and rooms/ and apply them (server.reload); the portal
        is told the settings now applied, for the limits it applies itself."""
        applied, lines = await reload(self.app)
        portal = self.app.portal
        if applied and portal is not None:
            portal.send({"t": "reloaded", "settings": plain_settings(self.app.config.settings)})
        return applied, lines

    async def stop(self, reason: str = "The casino is closing.") -> None:
        """Stop accepting, tell everyone, settle tables, close cleanly.

        telnetlib3's Server.close() also closes every client transport, so the
        goodbyes are written and drained first and the listener closed last;
        `closing` turns away anyone who connects in between.
        """
        if self.closing:
            return
        self.closing = True
        reason = sentence(reason)
        logs.event(log, "shutdown", reason=reason)
        if self._clock_task:
            self._clock_task.cancel()
        if self.exporter is not None:        # first: the port is free for the process after this one
            exporter, self.exporter = self.exporter, None
            await exporter.close()
        app = self.app
        await app.tables.close_all(reason)
        # Commands already running finish (a wager among them now finds its
        # table closed) before the ledger they may still read is closed.
        await app.sessions.say_goodbye(reason, self.restarting, COMMANDS_FINISH_WAIT)
        if app.crossing is not None:
            await app.crossing.close()
        await app.listeners.close()
        await app.stores.close()
        app.passwords.close()
        self.stopped.set()

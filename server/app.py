"""The casino process: config, ledger, accounts, world, sessions and the clock.

This is the composition root. It owns no rules and no service of its own:
commands live in server.commands, games in server.games, and the casino's
services in server.casino (its stores, sessions, tables, life, listeners,
operator rights, relief locks). Here they are built and wired together, and
the casino answers for them in the words its users know: the edges
(server.net.edge_app.EdgeApp), the tables (server.tables.table.TableApp), the
commands (server.commands), a reload (server.reload.Reloadable) and the
portal's link (server.portal.game).
"""
from __future__ import annotations

import asyncio
import secrets
import time
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from server.accounts.passwords import Passwords
from server.accounts.store import AccountStore
from server.accounts.table_time import TableTimeStore
from server.casino import gmcp, handoff
from server.casino.crossing import Crossing
from server.casino.hosting import Hosting
from server.casino.life import CasinoLife
from server.casino.listeners import CannotListen, Listeners
from server.casino.operators import Operators
from server.casino.relief_locks import ReliefLocks
from server.casino.sessions import Sessions
from server.casino.settings import apply_settings
from server.casino.stores import Stores
from server.casino.tables import Tables
from server.commands.registry import Registry
from server.config.model import CasinoConfig, Metrics
from server.db.url import Database
from server.net.edge_app import PortalLink
from server.net.lines import TooLong
from server.net.session import LoggedIn, Session
from server.net.throttle import ConnectionCounter, CreationLimit, LoginThrottle
from server.tables.delivery import Viewing
from server.tables.manager import Manager
from server.world.crier import Crier
from server.world.rooms import World
from server.world.roster import Memo, Online

if TYPE_CHECKING:
    from server.ledger import Ledger
    from server.tables.table import Table

__all__ = ["Casino", "CannotListen"]      # CannotListen: for `casino serve` and the portal


class Casino:
    """One casino: its services, built here, and the members its users read."""

    def __init__(self, config: CasinoConfig, database: str | Path | Database, *, seed: int | None = None,
                 config_dir: str | Path = "config", rooms_dir: str | Path = "rooms",
                 registry: Registry | None = None, shard: str | None = None) -> None:
        from server.bus.words import WORDS
        from server.commands import REGISTRY   # imports every command module (and their WORDS)
        self.config = config
        # where chips and accounts live: an SQLite file or a PostgreSQL database
        self.database = database if isinstance(database, Database) else Database.parse(database)
        self.seed = seed
        self.config_dir = Path(config_dir)
        self.rooms_dir = Path(rooms_dir)
        self.registry = registry or REGISTRY
        self.manager = Manager(config.settings.tick_hz)
        self.world = World(config.rooms)
        self.hosting = Hosting.of(config, shard)   # every room, or one shard's (server/casino/hosting.py)
        self.crier = Crier()            # room-wide lines, a slice at a time
        self.world.on_enter = lambda session, room_id: gmcp.room_info(self, session, room_id)
        self.online = Online()               # key -> live session, with a name-ordered roster
        self.who_pages: Memo[tuple[str, int], tuple[str, ...]] = Memo()   # `who`'s pages, while nobody comes, goes or moves
        # the caps and throttles by the settings: apply_settings, below
        self.connections = ConnectionCounter(0)
        self.login_failures = LoginThrottle(0, 0.0)
        self.creations = CreationLimit(0)
        # Prefixes every table's ledger keys: keys never repeat across restarts.
        self.run_id = f"{int(time.time()):x}{secrets.token_hex(3)}"
        self.started_at = time.time()        # MSSP's UPTIME
        # Wall time in epoch seconds, for waits counted in hours (relief) that
        # outlive a run; tests replace it to move a day on without sleeping.
        self.wall_clock: Callable[[], float] = time.time
        self.portal: PortalLink | None = None   # set when a portal holds the connections (server/portal)
        # where /metrics is served: the config's (or casino serve --metrics) in one process; behind a
        # portal, where it says (casino game --metrics); None: not served (server.metrics absent)
        self.metrics: Metrics | None = config.settings.metrics
        self.stores = Stores(self.database)
        self.rights = Operators(self.run_id)
        self.passwords = Passwords.of(config.settings)     # what logins and sign-ups hash with
        self.relief_locks = ReliefLocks()
        self.tables = Tables(self)
        self.sessions = Sessions(self, self.tables)
        self.leaving, self.presence = self.sessions.leaving, self.sessions.presence
        self.session_clock = self.sessions.clock
        self.manager.subscribe(self.session_clock)
        self.listeners = Listeners(config.settings.host)
        self.life = CasinoLife(self)
        # the words that cross shards, on the broker (server/casino/crossing.py); None: one shard
        self.crossing = (Crossing(self, config.settings.bus, self.hosting.shard,
                                  [s.name for s in config.settings.shards], WORDS)
                         if self.hosting.shard is not None and config.settings.bus else None)
        apply_settings(self)                 # as every reload does again

    # --- life (server.casino.life) ---------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0, *, web_port: int | None = None,
                    run_clock: bool = True, listen: bool = True) -> None:
        """Listen for telnet on host:port and, when `web_port` is given, serve
        the browser page on host:web_port (0 for either: any free port).
        `listen=False`: no listener at all, the connections come from a portal
        (server/portal/game.py sets `portal` first)."""
        await self.life.start(self, host, port, web_port, run_clock, listen)

    async def stop(self, reason: str = "The casino is closing.") -> None:
        await self.life.stop(reason)

    async def reload(self) -> tuple[bool, list[str]]:
        return await self.life.reload()

    def request_stop(self, reason: str) -> None:
        self.life.request_stop(reason)

    def request_restart(self, reason: str = "") -> str | None:
        return self.life.request_restart(reason)

    def schedule_shutdown(self, seconds: int, reason: str) -> None:
        self.life.schedule_shutdown(seconds, reason)

    def broken_config(self) -> str | None:
        """Why a restart would not start on config/ and rooms/ as they are now, or None."""
        return self.life.broken_config()

    @property
    def closing(self) -> bool:
        return self.life.closing

    @property
    def stop_reason(self) -> str:
        return self.life.stop_reason

    @property
    def stop_requested(self) -> asyncio.Event:
        return self.life.stop_requested

    @property
    def restarting(self) -> bool:
        return self.life.restarting

    # --- the stores (server.casino.stores) -------------------------------
    @property
    def ledger(self) -> Ledger:
        return self.stores.ledger

    @property
    def accounts(self) -> AccountStore:
        return self.stores.accounts

    @property
    def table_time(self) -> TableTimeStore:
        return self.stores.table_time

    # --- the edges (server.casino.listeners, server.net.edge_app.EdgeApp) -------
    @property
    def clock(self) -> Manager:
        """The one clock, as the network edges see it (their deadlines count its ticks)."""
        return self.manager

    @property
    def port(self) -> int:
        return self.listeners.port

    @property
    def web_port(self) -> int:
        return self.listeners.web_port

    @property
    def addresses(self) -> str:
        return self.listeners.addresses

    def portal_ports(self, port: int, web_port: int) -> None:
        """Behind a portal: its ports, where players connect (MSSP tells them)."""
        self.listeners.told(port, web_port)

    # --- sessions (server.casino.sessions) -------------------------------
    async def on_connect(self, session: Session, *, again: bool = False) -> None:
        await self.sessions.on_connect(session, again=again)

    async def resume(self, session: Session, name: str, room: str | None, why: str | None,
                     via: str | None = None) -> None:
        await self.sessions.resume(session, name, room, why, via)

    async def hand_off(self, session: LoggedIn, room: str, way: str) -> bool:
        """Walk into a room another shard hosts (server/casino/handoff.py)."""
        return await handoff.hand_off(self, session, room, way)

    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None:
        await self.sessions.on_input(session, lines, now)

    async def on_disconnect(self, session: Session) -> None:
        await self.sessions.on_disconnect(session)

    def announce(self, room: str, text: str, exclude: Session | None = None) -> None:
        self.sessions.announce(room, text, exclude)

    def broadcast_room(self, room: str, text: str, exclude: Session | None = None) -> None:
        self.sessions.broadcast_room(room, text, exclude)

    async def status(self, session: Viewing) -> dict[str, object]:
        """A player's chips as data (GMCP Char.Status)."""
        return await gmcp.status(self.ledger, session)

    # --- tables (server.casino.tables) -----------------------------------
    def open_tables(self) -> list[str]:
        return self.tables.open()

    def seat_of(self, key: str) -> Table | None:
        return self.tables.seat_of(key)

    def forget_table(self, table: Table) -> None:
        self.tables.forget(table)

    async def close_room(self, room_id: str, reason: str) -> list[str]:
        from server.commands.general import describe_room
        return await self.tables.close_room(
            room_id, reason, lambda session: describe_room(self, session) if isinstance(session, Session) else [])

    @property
    def closed_rooms(self) -> set[str]:
        return self.tables.closed_rooms

    # --- operators (server.casino.operators) -----------------------------
    @property
    def operators(self) -> set[str]:
        return self.rights.names

    def is_operator(self, session: Session | Viewing) -> bool:
        return self.rights.is_operator(session)

    async def refuse_squatted_operators(self, names: Iterable[str]) -> list[str]:
        return await self.rights.refuse_squatted(self.accounts, names)

    def grant_key(self) -> str:
        return self.rights.grant_key()

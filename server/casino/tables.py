"""The casino's open tables: opened from the config, found by who sits where,
closed one at a time, a room's at once, or all at a stop."""
from __future__ import annotations

import asyncio
import functools
import logging
from collections import Counter
from typing import Callable, Iterator, Mapping, Protocol

from server import logs
from server.casino.hosting import Hosting
from server.config.model import CasinoConfig
from server.tables.delivery import Viewing
from server.tables.table import TableApp, Table
from server.world.rooms import Occupant, World

log = logging.getLogger("casino")


class TablesApp(TableApp, Protocol):
    """What the tables use of the casino (server.app.Casino): what each table
    is opened with, the config that lists the tables, the rooms they stand in."""

    @property
    def config(self) -> CasinoConfig: ...
    @property
    def world(self) -> World: ...
    @property
    def hosting(self) -> Hosting: ...


class Tables(Mapping[str, Table]):
    """Table id -> its table, for every table open now; the tables are the one
    answer to who sits where. A room closed by an operator stays closed, and
    its tables with it, until the next reload."""

    def __init__(self, app: TablesApp) -> None:
        self.app = app
        self._tables: dict[str, Table] = {}
        self.opened: Counter[str] = Counter()     # tables opened per table id this run (their keys differ)
        self.closed_rooms: set[str] = set()

    def __getitem__(self, table_id: str) -> Table:
        return self._tables[table_id]

    def __iter__(self) -> Iterator[str]:
        return iter(self._tables)

    def __len__(self) -> int:
        return len(self._tables)

    def open(self) -> list[str]:
        """Open a table for every configured table that has none; returns their ids."""
        app = self.app
        opened = []
        hosted = app.hosting.tables(app.config)
        for table_id, config in app.config.tables.items():
            if table_id in self._tables or (hosted is not None and table_id not in hosted):
                continue
            table = Table(app, config, generation=self.opened[table_id])
            self.opened[table_id] += 1
            self._tables[table_id] = table
            app.manager.subscribe(table)
            opened.append(table_id)
            logs.event(log, "table_opened", table=table_id, game=config.game)
        for room in app.config.rooms.values():     # a second table of one game in a room: its id
            words: set[str] = set()
            for here in (self._tables[t] for t in room.tables if t in self._tables):
                here.call(here.entry.word if here.entry.word not in words else here.id)
                words.add(here.entry.word)
        return opened

    def seat_of(self, key: str) -> Table | None:
        """The table where this player (by key) sits, or None."""
        for table in self._tables.values():
            if table.sits(key):
                return table
        return None

    def forget(self, table: Table) -> None:
        """A closed table leaves the casino (its own worker stops after this job)."""
        if self._tables.get(table.id) is table:
            del self._tables[table.id]
        self.app.manager.unsubscribe(table)
        logs.event(log, "table_closed", table=table.id)
        asyncio.get_running_loop().call_soon(table.stop)

    async def gone(self, session: Viewing) -> None:
        """A player has left the casino: every table applies its rule for a
        dropped player. Queued at every table at once, before the first
        await, so anything the player's next session does at a table comes
        after its own table's `gone`."""
        jobs = [table.submit(functools.partial(table.gone, session))
                for table in list(self._tables.values()) if not (table.closing or table.closed)]
        for job in jobs:
            try:
                await job
            except Exception:
                log.exception("event=gone_error name=%s", session.key)

    async def close_room(self, room_id: str, reason: str,
                         describe: Callable[[Occupant], list[str]] = lambda session: []) -> list[str]:
        """Refund every stake at the room's tables, send everyone out, keep it
        closed until the next reload. Returns the tables closed.

        Each player is told why once (a player at a table there heard it from
        the table, with the refund), then, in one reply, where they are shown
        to and that room as `look` shows it (`describe`, after the move). No
        table unseats anyone first: the table's close ends every seat at once,
        so nobody reads a sit-out or a new shooter on the way out."""
        world = self.app.world
        done = []
        told: set[str] = set()                  # heard the reason from their table already
        for table_id in world.rooms[room_id].tables:
            table = self._tables.get(table_id)
            if table is not None:
                told |= table.seated_keys() | set(table.watching())
                await table.close(reason)
                self.forget(table)
                done.append(table_id)
        self.closed_rooms.add(room_id)
        start = self.app.config.settings.start_room
        to = start if start != room_id else next(iter(world.rooms))
        name = world.rooms[to].name
        for session in world.occupants(room_id):
            said = "" if session.key in told else f"{reason} "
            world.place(session, to)
            session.tell(f"{said}You are shown out to {name}.", *describe(session))
        return done

    async def close_all(self, reason: str) -> None:
        """The casino stops: every table stops taking inputs at once; each then
        runs what was already queued and last its closing job, which refunds
        every stake."""
        closing = [(table, table.begin_close(f"{reason} Every live stake at this table is refunded."))
                   for table in list(self._tables.values())]
        for table, job in closing:
            try:
                await job
            except Exception:
                log.exception("event=table_close_error table=%s", table.id)
            logs.event(log, "table_closed", table=table.id)


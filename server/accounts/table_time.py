"""Time at the tables, kept durably beside the ledger (`stats`).

Time is not money, so it is not in the ledger; it lives in the same
database (the table is created if missing, like the accounts' `players`),
one row per player and table, added to whenever a seat ends: a leave, a
dropped connection, a table closing. A seat still taken is added by the
asker from the table's own clock (`Table.seated_ticks`), so `stats`
counts the visit going on too.

Measured in the casino's clock (manager ticks, turned into milliseconds by the
host), never wall time: tests move it with `tick_elapsed`, and a server that
was suspended does not credit anyone with the pause. Writes are rare (one per
visit), so, as for the accounts, a plain connection used from a worker thread
under a lock is enough.

Beside the time, the rounds played for no chips (a game of Pig against the
computer): the ledger counts every round that closed a stake, and has no row
for a game that moved none, so `stats` reads those rounds here.
"""
from __future__ import annotations

import asyncio
import logging
import threading
from pathlib import Path

from server.db.connection import Conn, connect, create_tables, reopened
from server.db.url import Database

log = logging.getLogger("casino.tables")

# BIGINT: an INTEGER on SQLite, a 64-bit integer on PostgreSQL (INTEGER there is 32 bits).
_SCHEMA = """
CREATE TABLE IF NOT EXISTS table_time (
    player   TEXT NOT NULL,
    table_id TEXT NOT NULL,
    millis   BIGINT NOT NULL,
    PRIMARY KEY (player, table_id)
)
"""

_ROUNDS_SCHEMA = """
CREATE TABLE IF NOT EXISTS chipless_rounds (
    player   TEXT NOT NULL,
    table_id TEXT NOT NULL,
    rounds   BIGINT NOT NULL,
    PRIMARY KEY (player, table_id)
)
"""

# Both databases speak these upserts (SQLite since 3.24).
_ADD_ROUND = ("INSERT INTO chipless_rounds (player, table_id, rounds) VALUES (?, ?, 1)"
              " ON CONFLICT (player, table_id) DO UPDATE SET rounds = chipless_rounds.rounds + 1")
_ADD = ("INSERT INTO table_time (player, table_id, millis) VALUES (?, ?, ?)"
        " ON CONFLICT (player, table_id) DO UPDATE SET millis = table_time.millis + excluded.millis")


class TableTimeStore:
    def __init__(self, where: str | Path | Database) -> None:
        self.database = where if isinstance(where, Database) else Database.parse(where)
        self._db = connect(self.database, check_same_thread=False)
        self._lock = threading.Lock()
        create_tables(self._db, self.database, _SCHEMA)
        create_tables(self._db, self.database, _ROUNDS_SCHEMA)

    def _conn(self) -> Conn:
        """The connection, opened again if the PostgreSQL server dropped it (call under the lock)."""
        self._db = reopened(self._db, self.database)
        return self._db

    def _add(self, player: str, table: str, millis: int) -> None:
        with self._lock:
            self._conn().execute(_ADD, (player, table, millis))

    def _read(self, player: str) -> dict[str, int]:
        with self._lock:
            return {table: int(millis) for table, millis in self._conn().execute(
                "SELECT table_id, millis FROM table_time WHERE player = ? ORDER BY table_id", (player,))}

    def _add_round(self, player: str, table: str) -> None:
        with self._lock:
            self._conn().execute(_ADD_ROUND, (player, table))

    def _rounds(self, player: str) -> dict[str, int]:
        with self._lock:
            return {table: int(rounds) for table, rounds in self._conn().execute(
                "SELECT table_id, rounds FROM chipless_rounds WHERE player = ? ORDER BY table_id", (player,))}

    async def add_round(self, player: str, table: str) -> None:
        """One more round played for no chips at `table` (`player` is the account key)."""
        await asyncio.to_thread(self._add_round, player, table)

    async def rounds(self, player: str) -> dict[str, int]:
        """Rounds played for no chips per table id."""
        return await asyncio.to_thread(self._rounds, player)

    async def add(self, player: str, table: str, millis: int) -> None:
        """Add one visit's time (`player` is the account key)."""
        if millis > 0:
            await asyncio.to_thread(self._add, player, table, millis)

    async def read(self, player: str) -> dict[str, int]:
        """Milliseconds seated per table id, for visits that have ended."""
        return await asyncio.to_thread(self._read, player)

    def close(self) -> None:
        with self._lock:
            self._db.close()

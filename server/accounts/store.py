"""Accounts and their remembered preferences, in the server's database (the ledger's).

Account writes are rare (a sign-up, a `set`), so a plain connection used from a
worker thread is enough; chips live in the ledger, never here. The table is
created if missing, so the same SQLite file or PostgreSQL database serves the
ledger and the accounts. A PostgreSQL connection that broke (the server
restarted) is opened again by the next call.
"""
from __future__ import annotations

import asyncio
import json
import threading
import time
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from server.accounts.names import name_key
from server.db.connection import Conn, PgConn, connect, create_tables, dialect_of, reopened
from server.db.url import Database

_SCHEMA = """
CREATE TABLE IF NOT EXISTS players (
    name_key TEXT PRIMARY KEY,
    name     TEXT NOT NULL,
    pwhash   TEXT NOT NULL,
    prefs    TEXT NOT NULL DEFAULT '{}',
    created  REAL NOT NULL,
    origin   TEXT
)
"""

# Who made an account: "server" (`casino account create`, on the server's
# machine: the only accounts that may hold operator rights) or "player" (a
# sign-up over telnet or the web). Accounts from before this was recorded are
# marked once, when the column is added: "server" for the names then listed as
# operators (they were trusted), "player" for the rest.
SERVER, PLAYER = "server", "player"

T = TypeVar("T")
READ_CHUNK = 500           # name keys a query reads at most (well under any bound on parameters)
Row = tuple[str, str, str, "str | None"]   # a player's name, pwhash, prefs (JSON), origin


@dataclass
class Account:
    name: str
    pwhash: str
    prefs: dict[str, object] = field(default_factory=dict)
    origin: str = PLAYER                # SERVER or PLAYER: who made it (operators need SERVER)

    @cached_property
    def key(self) -> str:
        """The name as the ledger and every map know it: asked several times a command."""
        return name_key(self.name)


class NameTaken(Exception):
    pass


class AccountStore:
    def __init__(self, where: str | Path | Database, operators: Iterable[str] = ()) -> None:
        """`where`: a Database, a URL or an SQLite file's path. `operators`: the
        configured operator names, used once, to mark accounts made before
        origins were recorded (see SERVER)."""
        self.database = where if isinstance(where, Database) else Database.parse(where)
        self._dialect = dialect_of(self.database)
        self._db = connect(self.database, check_same_thread=False)
        self._lock = threading.Lock()
        self._waiting: dict[str, list[asyncio.Future[Row | None]]] = {}   # name keys asked for
        self._reading: asyncio.Task[None] | None = None    # the read of them under way
        if self._dialect.name != "sqlite":
            create_tables(self._db, self.database, _SCHEMA.replace("REAL", "DOUBLE PRECISION"))
            return
        self._db.execute(_SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(players)")}
        if "origin" not in columns:
            trusted = sorted({name_key(n) for n in operators})
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("ALTER TABLE players ADD COLUMN origin TEXT")
            self._db.execute(f"UPDATE players SET origin = CASE WHEN name_key IN "
                             f"({','.join('?' * len(trusted))}) THEN ? ELSE ? END",
                             (*trusted, SERVER, PLAYER))
            self._db.execute("COMMIT")

    def _conn(self) -> Conn:
        """The connection, opened again if the PostgreSQL server dropped it (call under the lock)."""
        self._db = reopened(self._db, self.database)
        return self._db

    @property
    def unavailable(self) -> type[Exception]:
        """What a call raises while the database cannot be reached (it is down, restarting)."""
        return self._dialect.operational_error

    def _again(self, work: Callable[[Conn], T]) -> T:
        """`work` on the connection, and once more on a new one if the server had dropped
        it: a connection learns it was dropped (a PostgreSQL restart) only when used, so
        the first read after a restart would fail for nothing. Only for work that may run
        twice (a read, an update to the same value); call under the lock."""
        conn = self._conn()
        try:
            return work(conn)
        except self._dialect.operational_error:
            if not isinstance(conn, PgConn) or not conn.broken:
                raise
            return work(self._conn())

    def _rows(self, keys: list[str]) -> dict[str, Row]:
        """The players rows of `keys` (name keys), in one query a chunk."""
        def read(conn: Conn) -> dict[str, Row]:
            found: dict[str, Row] = {}
            for i in range(0, len(keys), READ_CHUNK):
                chunk = keys[i:i + READ_CHUNK]
                for row in conn.execute("SELECT name_key, name, pwhash, prefs, origin FROM players "
                                        f"WHERE name_key IN ({','.join('?' * len(chunk))})", chunk):
                    found[row[0]] = (row[1], row[2], row[3], row[4])
            return found
        with self._lock:
            return self._again(read)

    def _create(self, name: str, pwhash: str, origin: str) -> Account:
        with self._lock:
            try:
                self._conn().execute(
                    "INSERT INTO players (name_key, name, pwhash, created, origin) VALUES (?, ?, ?, ?, ?)",
                    (name_key(name), name, pwhash, time.time(), origin),
                )
            except self._dialect.integrity_error:
                raise NameTaken(name) from None
        return Account(name, pwhash, origin=origin)

    def _set_hash(self, name: str, pwhash: str) -> None:
        with self._lock:
            self._again(lambda conn: conn.execute("UPDATE players SET pwhash = ? WHERE name_key = ?",
                                                  (pwhash, name_key(name))))

    async def set_hash(self, name: str, pwhash: str) -> None:
        """Replace a player's password hash (an upgrade to today's parameters)."""
        await asyncio.to_thread(self._set_hash, name, pwhash)

    def _save_prefs(self, name: str, prefs: dict[str, object]) -> None:
        with self._lock:
            self._again(lambda conn: conn.execute("UPDATE players SET prefs = ? WHERE name_key = ?",
                                                  (json.dumps(prefs), name_key(name))))

    async def get(self, name: str) -> Account | None:
        """The account of `name`, or None. Names asked for while a read is on the
        worker thread are read together in the next one (one query, one thread
        hop): a restart logs a full house in again at once, a login storm asks
        many at once, and one at a time they would queue on the lock."""
        key = name_key(name)
        waiter: asyncio.Future[Row | None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, []).append(waiter)
        if self._reading is None:
            self._reading = asyncio.get_running_loop().create_task(self._read_waiting())
        row = await waiter
        return Account(row[0], row[1], json.loads(row[2]), row[3] or PLAYER) if row else None

    async def _read_waiting(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, {}
                try:
                    found = await asyncio.to_thread(self._rows, list(batch))
                except Exception as e:
                    for waiters in batch.values():
                        for w in waiters:
                            if not w.done():
                                w.set_exception(e)
                    continue
                for key, waiters in batch.items():
                    for w in waiters:
                        if not w.done():
                            w.set_result(found.get(key))
        finally:
            self._reading = None

    async def create(self, name: str, pwhash: str, origin: str = PLAYER) -> Account:
        return await asyncio.to_thread(self._create, name, pwhash, origin)

    async def save_prefs(self, name: str, prefs: dict[str, object]) -> None:
        await asyncio.to_thread(self._save_prefs, name, prefs)

    def close(self) -> None:
        with self._lock:
            self._db.close()

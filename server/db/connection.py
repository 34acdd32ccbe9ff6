"""One connection interface over sqlite3 and psycopg 3, and what differs between them.

The SQL of the ledger and the accounts is written once, with `?` placeholders
(sqlite3's); the PostgreSQL connection rewrites them to psycopg's `%s` (cached
per statement text). Both connections run in autocommit mode and the callers
issue BEGIN and COMMIT themselves, so a transaction's bounds are in the code
that needs them, the same on both.

Why psycopg 3 and not asyncpg: the ledger writes from one thread of its own
(group commit; the event loop never waits on the disk) and reads from
another, so a synchronous driver is what it needs, and psycopg's COPY and
array parameters send a whole batch's rows in a few statements
(PostgresStore._write), its executemany in one pipeline. asyncpg would put
the database on the event loop the ledger keeps it off. docs/ledger.md.
"""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Protocol, Sequence

from server.db.url import POSTGRES, SQLITE, Database

if TYPE_CHECKING:
    import psycopg

Params = Sequence[object]       # a statement's parameters: passed to the driver as they are


class Cursor(Protocol):
    """sqlite3.Cursor's shape, which PgCursor copies. Rows are the drivers':
    sqlite3 types a row Any and psycopg a tuple of Any (its values are the
    columns', known only to the SQL that read them)."""

    @property
    def rowcount(self) -> int: ...

    def execute(self, sql: str, params: Params = ..., /) -> Cursor: ...
    def executemany(self, sql: str, rows: Iterable[Params], /) -> Cursor: ...
    def fetchone(self) -> Any: ...             # sqlite3's row, or psycopg's (see above)
    def fetchall(self) -> list[Any]: ...       # likewise
    def __iter__(self) -> Iterator[Any]: ...   # likewise


class Conn(Protocol):
    """sqlite3.Connection's shape, which PgConn copies."""

    def execute(self, sql: str, params: Params = ..., /) -> Cursor: ...
    def executemany(self, sql: str, rows: Iterable[Params], /) -> Cursor: ...
    def cursor(self) -> Cursor: ...
    def close(self) -> None: ...
    @property
    def in_transaction(self) -> bool: ...


@dataclass(frozen=True)
class Dialect:
    """Everything the two databases do differently, in one place."""
    name: str
    begin_write: str             # the writer's BEGIN: SQLite takes its write lock at once
    begin_read: str              # one consistent snapshot for a read of several statements
    open_holds_hint: str         # SQLite's INDEXED BY for the partial index of open holds
    integrity_error: type[Exception]
    operational_error: type[Exception]


SQLITE_DIALECT = Dialect(SQLITE, "BEGIN IMMEDIATE", "BEGIN", "INDEXED BY holds_open_by_id",
                         sqlite3.IntegrityError, sqlite3.OperationalError)


@lru_cache(maxsize=1)
def _postgres_dialect() -> Dialect:
    import psycopg
    return Dialect(POSTGRES, "BEGIN", "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "",
                   psycopg.IntegrityError, psycopg.OperationalError)


def dialect_of(db: Database) -> Dialect:
    return SQLITE_DIALECT if db.kind == SQLITE else _postgres_dialect()


@lru_cache(maxsize=512)
def _pg(sql: str) -> str:
    """`?` placeholders as psycopg's `%s` (our SQL has no other `?` and no `%`)."""
    return sql.replace("?", "%s")


Row = tuple[Any, ...]      # psycopg's TupleRow: a row's values are the columns' (untyped)


class PgCursor:
    def __init__(self, cur: psycopg.Cursor[Row]) -> None:
        self._cur = cur

    @property
    def rowcount(self) -> int:
        return int(self._cur.rowcount)

    def execute(self, sql: str, params: Params = ()) -> PgCursor:
        self._cur.execute(_pg(sql), params or None)
        return self

    def executemany(self, sql: str, rows: Iterable[Params]) -> PgCursor:
        self._cur.executemany(_pg(sql), rows)
        return self

    def fetchone(self) -> Row | None:
        return self._cur.fetchone()

    def fetchall(self) -> list[Row]:
        return list(self._cur.fetchall())

    def __iter__(self) -> Iterator[Row]:
        return iter(self._cur)


class PgConn:
    """A psycopg 3 connection in autocommit mode, shaped like sqlite3's."""

    def __init__(self, url: str, *, connect_timeout: int = 10) -> None:
        import psycopg
        self.raw = psycopg.connect(url, autocommit=True, connect_timeout=connect_timeout)

    def execute(self, sql: str, params: Params = ()) -> PgCursor:
        return PgCursor(self.raw.cursor()).execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Params]) -> PgCursor:
        return PgCursor(self.raw.cursor()).executemany(sql, rows)

    def cursor(self) -> PgCursor:
        return PgCursor(self.raw.cursor())

    @property
    def in_transaction(self) -> bool:
        from psycopg.pq import TransactionStatus
        return bool(self.raw.info.transaction_status != TransactionStatus.IDLE)

    @property
    def broken(self) -> bool:
        """The server went away (or we closed it): a new connection is needed."""
        return bool(self.raw.broken or self.raw.closed)

    def close(self) -> None:
        self.raw.close()


def connect(db: Database, *, check_same_thread: bool = True) -> Conn:
    """A connection in autocommit mode. SQLite: WAL, synchronous=FULL, a 10 s busy timeout."""
    if db.kind == POSTGRES:
        return PgConn(db.url)
    assert db.path is not None
    conn = sqlite3.connect(str(db.path), isolation_level=None, check_same_thread=check_same_thread,
                           timeout=10.0)
    conn.execute("PRAGMA busy_timeout = 10000")
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode.lower() != "wal":
        raise sqlite3.OperationalError(f"could not switch {db.path} to WAL (got {mode})")
    conn.execute("PRAGMA synchronous = FULL")
    return conn


def reopened(conn: Conn, db: Database) -> Conn:
    """`conn`, or a new connection if it is a PostgreSQL one the server dropped (a
    restart, a failover): rare writers (accounts, time at the tables) call this first."""
    if isinstance(conn, PgConn) and conn.broken:
        conn.close()
        return connect(db)
    return conn


# PostgreSQL serializes every schema change under this lock (a transaction's):
# two processes starting together on a fresh database (two shards) would
# otherwise both create a table, and one fails on the catalogue's unique index.
SCHEMA_LOCK = 0x6361_7369_6E6F + 1


def create_tables(conn: Conn, db: Database, sql: str) -> None:
    """Run `sql` (CREATE ... IF NOT EXISTS) once whoever else starts beside us."""
    if db.kind == SQLITE:
        conn.execute(sql)
        return
    conn.execute("BEGIN")
    try:
        conn.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
        conn.execute(sql)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise

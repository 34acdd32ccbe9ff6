"""The SQLite schema and its migrations, applied on start.

`PRAGMA user_version` is the schema version: migration N (1-based) runs once,
inside BEGIN IMMEDIATE, so two processes starting together cannot both apply
it. Append new migrations; never edit an applied one.

Shape: `accounts` carry a materialised balance (a wallet may never be
negative, enforced by a CHECK as a last line of defence); `entries` are the
immutable legs, two per transfer; `operations` is one row per applied
idempotency key; `holds` are stakes, closed at most once (`closed_by`);
`pending_outcomes` keep closing operations whose write failed, so recovery can
complete them; `notices` wait for a player's next login.

Versions 2 and 3 re-key the index of open holds, by table then by hold id
(see their comments).
"""
from __future__ import annotations

import sqlite3

MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE accounts (
            id INTEGER PRIMARY KEY,
            kind TEXT NOT NULL CHECK (kind IN ('wallet', 'house', 'mint', 'pending')),
            owner TEXT NOT NULL,
            balance INTEGER NOT NULL DEFAULT 0,
            UNIQUE (kind, owner),
            CHECK (kind <> 'wallet' OR balance >= 0)
        )""",
        "INSERT INTO accounts (id, kind, owner) VALUES (1, 'mint', ''), (2, 'house', '')",
        """CREATE TABLE operations (
            id INTEGER PRIMARY KEY,
            scope TEXT NOT NULL,
            key TEXT NOT NULL,
            kind TEXT NOT NULL,
            table_id TEXT,
            args TEXT NOT NULL,
            time REAL NOT NULL,
            UNIQUE (scope, key)
        )""",
        """CREATE TABLE entries (
            id INTEGER PRIMARY KEY,
            op_id INTEGER NOT NULL,
            transfer INTEGER NOT NULL,
            account INTEGER NOT NULL,
            amount INTEGER NOT NULL
        )""",
        "CREATE INDEX entries_by_account ON entries (account, op_id)",
        """CREATE TABLE holds (
            id INTEGER PRIMARY KEY,
            table_id TEXT NOT NULL,
            handle TEXT NOT NULL,
            player TEXT NOT NULL,
            amount INTEGER NOT NULL CHECK (amount > 0),
            closed_by INTEGER,
            UNIQUE (table_id, handle)
        )""",
        # Closing a hold changes only closed_by: keep it out of every index but the
        # partial one of open holds (balance, recovery, check), so a close is cheap.
        "CREATE INDEX holds_by_player ON holds (player)",
        "CREATE INDEX holds_open ON holds (player, table_id) WHERE closed_by IS NULL",
        """CREATE TABLE pending_outcomes (
            id INTEGER PRIMARY KEY,
            scope TEXT NOT NULL,
            key TEXT NOT NULL,
            kind TEXT NOT NULL,
            table_id TEXT,
            args TEXT NOT NULL,
            time REAL NOT NULL,
            UNIQUE (scope, key)
        )""",
        """CREATE TABLE notices (
            id INTEGER PRIMARY KEY,
            player TEXT NOT NULL,
            text TEXT NOT NULL,
            time REAL NOT NULL
        )""",
        "CREATE INDEX notices_by_player ON notices (player)",
    ),
    (
        # Open holds indexed by table, not by player: closing a stake then no longer
        # touches one index page per player (a group commit writes every page it
        # touched, and those were a third of its pages).
        "DROP INDEX holds_open",
        "CREATE INDEX holds_open_by_table ON holds (table_id) WHERE closed_by IS NULL",
    ),
    (
        # ...and better, in the order they were made: a batch's closings touch the
        # index page of the newest holds, one or two pages instead of one per table.
        # Reading a player's held stakes scans the open holds (live stakes only),
        # not the player's history of holds.
        "DROP INDEX holds_open_by_table",
        "CREATE INDEX holds_open_by_id ON holds (id) WHERE closed_by IS NULL",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)


def connect(path: str, *, check_same_thread: bool = True) -> sqlite3.Connection:
    """A connection in autocommit mode (we issue BEGIN ourselves), WAL, synchronous=FULL."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=check_same_thread,
                           timeout=10.0)
    conn.execute("PRAGMA busy_timeout = 10000")
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if mode.lower() != "wal":
        raise sqlite3.OperationalError(f"could not switch {path} to WAL (got {mode})")
    conn.execute("PRAGMA synchronous = FULL")
    return conn


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema up to SCHEMA_VERSION; returns the version found before."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = conn.execute("PRAGMA user_version").fetchone()[0]
        if found > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {found} is newer than this program's {SCHEMA_VERSION}")
        for statements in MIGRATIONS[found:]:
            for sql in statements:
                conn.execute(sql)
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return found

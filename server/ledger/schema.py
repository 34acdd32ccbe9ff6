"""The ledger's schema on SQLite and PostgreSQL, and its migrations, applied on start.

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

from server.db.connection import SQLITE_DIALECT, Conn, Dialect
from server.db.url import POSTGRES, SQLITE

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

# PostgreSQL starts at today's shape: the three SQLite versions above in one,
# recorded as SCHEMA_VERSION. A later change appends a migration to both lists
# (POSTGRES_MIGRATIONS[i] takes version i + SCHEMA_VERSION_AT_START to the next).
# Ids are assigned by the writer (its mirror), except the rows only appended.
POSTGRES_START: tuple[str, ...] = (
    """CREATE TABLE casino_schema (version INTEGER NOT NULL)""",
    """CREATE TABLE accounts (
        id BIGINT PRIMARY KEY,
        kind TEXT NOT NULL CHECK (kind IN ('wallet', 'house', 'mint', 'pending')),
        owner TEXT NOT NULL,
        balance BIGINT NOT NULL DEFAULT 0,
        UNIQUE (kind, owner),
        CHECK (kind <> 'wallet' OR balance >= 0)
    )""",
    "INSERT INTO accounts (id, kind, owner) VALUES (1, 'mint', ''), (2, 'house', '')",
    """CREATE TABLE operations (
        id BIGINT PRIMARY KEY,
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        kind TEXT NOT NULL,
        table_id TEXT,
        args TEXT NOT NULL,
        time DOUBLE PRECISION NOT NULL,
        UNIQUE (scope, key)
    )""",
    """CREATE TABLE entries (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        op_id BIGINT NOT NULL,
        transfer BIGINT NOT NULL,
        account BIGINT NOT NULL,
        amount BIGINT NOT NULL
    )""",
    "CREATE INDEX entries_by_account ON entries (account, op_id)",
    """CREATE TABLE holds (
        id BIGINT PRIMARY KEY,
        table_id TEXT NOT NULL,
        handle TEXT NOT NULL,
        player TEXT NOT NULL,
        amount BIGINT NOT NULL CHECK (amount > 0),
        closed_by BIGINT,
        UNIQUE (table_id, handle)
    )""",
    "CREATE INDEX holds_by_player ON holds (player)",
    "CREATE INDEX holds_open_by_id ON holds (id) WHERE closed_by IS NULL",
    """CREATE TABLE pending_outcomes (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        kind TEXT NOT NULL,
        table_id TEXT,
        args TEXT NOT NULL,
        time DOUBLE PRECISION NOT NULL,
        UNIQUE (scope, key)
    )""",
    """CREATE TABLE notices (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        player TEXT NOT NULL,
        text TEXT NOT NULL,
        time DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX notices_by_player ON notices (player)",
    f"INSERT INTO casino_schema (version) VALUES ({SCHEMA_VERSION})",
)
POSTGRES_MIGRATIONS: tuple[tuple[str, ...], ...] = ()

# One ledger process per database (see sqlite_store._exclusive): PostgreSQL's
# advisory locks are per database, and the writer's connection holds this one.
POSTGRES_LOCK = 0x6361_7369_6E6F     # "casino"


def version(conn: Conn, dialect: Dialect) -> int:
    """The schema version the database holds (0: none yet)."""
    if dialect.name == SQLITE:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    found = conn.execute("SELECT to_regclass('casino_schema')").fetchone()[0]
    if found is None:
        return 0
    return int(conn.execute("SELECT version FROM casino_schema").fetchone()[0])


def migrate(conn: Conn, dialect: Dialect = SQLITE_DIALECT) -> int:
    """Bring the schema up to SCHEMA_VERSION; returns the version found before.
    Runs in one transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: under an
    exclusive lock of its own), so two processes starting together cannot both apply it."""
    conn.execute(dialect.begin_write)
    try:
        if dialect.name == POSTGRES:
            conn.execute("SELECT pg_advisory_xact_lock(?)", (POSTGRES_LOCK + 1,))
        found = version(conn, dialect)
        if found > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {found} is newer than this program's {SCHEMA_VERSION}")
        if dialect.name == SQLITE:
            for statements in MIGRATIONS[found:]:
                for sql in statements:
                    conn.execute(sql)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif found < SCHEMA_VERSION:
            for sql in POSTGRES_START:
                conn.execute(sql)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return found

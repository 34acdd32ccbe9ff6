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
(see their comments). Version 4 adds what the `top` boards read (see TOTALS).
Version 5 adds each wallet's shard and epoch, and PostgreSQL's id blocks (see
OWNER_COLUMNS). Version 6 takes charges out of the totals' `wagered` (see
UNCHARGE_TOTALS).
"""
from __future__ import annotations

from server.db.connection import SCHEMA_LOCK, SQLITE_DIALECT, Conn, Dialect
from server.db.url import POSTGRES, SQLITE

# `top`'s boards, each one indexed query (server/ledger/boards.py). A player's totals are
# those of their settled bets (settle and forfeit; a refund is a bet never played),
# kept by the writer in the transaction of the settlements that change them:
# wagered = stakes closed (since 6: not charges, and a settlement's own `risked` where it
# names one: ops.wagers); net = paid - staked; a settlement paying a player more than
# they staked in it is one of their `wins`, and `won` adds what it paid beyond the stake.
# `hidden` is `set leaderboard off`. Each board's index holds only listed players, so a
# page is a walk down one index that skips nobody hidden. Wealth is the wallet balance,
# indexed in `accounts` (chips on a table right now are not counted: they are in play).
TOTALS_TABLE = """CREATE TABLE player_totals (
    player TEXT PRIMARY KEY,
    wagered {big} NOT NULL DEFAULT 0,
    won {big} NOT NULL DEFAULT 0,
    net {big} NOT NULL DEFAULT 0,
    wins {big} NOT NULL DEFAULT 0,
    hidden INTEGER NOT NULL DEFAULT 0
)"""
TOTALS_INDEXES = (
    "CREATE INDEX totals_by_wagered ON player_totals (wagered DESC, player) WHERE hidden = 0",
    "CREATE INDEX totals_by_wins ON player_totals (wins DESC, player) WHERE hidden = 0",
    "CREATE INDEX totals_by_net ON player_totals (net DESC, player) WHERE hidden = 0",
    "CREATE INDEX wallets_by_balance ON accounts (balance DESC, owner) WHERE kind = 'wallet'",
)
# The back-fill: per (settlement, player) what was staked and paid, from the closed
# holds and the settlements' `pays` (JSON), summed per player. {pays} and {payee} and
# {pay} are the dialect's JSON functions.
_BACKFILL = """INSERT INTO player_totals (player, wagered, won, net, wins)
SELECT player, SUM(staked), SUM(CASE WHEN paid > staked THEN paid - staked ELSE 0 END),
       SUM(paid - staked), SUM(CASE WHEN paid > staked THEN 1 ELSE 0 END)
FROM (SELECT op, player, SUM(staked) AS staked, SUM(paid) AS paid FROM (
        SELECT h.closed_by AS op, h.player AS player, h.amount AS staked, 0 AS paid
        FROM holds h JOIN operations o ON o.id = h.closed_by WHERE o.kind IN ('settle', 'forfeit')
        UNION ALL
        SELECT o.id, {payee}, 0, {pay} FROM operations o, {pays} WHERE o.kind = 'settle'
      ) AS legs GROUP BY op, player) AS per
GROUP BY player"""
SQLITE_BACKFILL = _BACKFILL.format(pays="json_each(o.args, '$.pays') AS p",
                                   payee="p.value ->> 0", pay="p.value ->> 1")
POSTGRES_BACKFILL = _BACKFILL.format(pays="jsonb_array_elements(o.args::jsonb -> 'pays') AS p",
                                     payee="p ->> 0", pay="(p ->> 1)::bigint")

# Version 6: a charge (a stake whose handle ends in ops.CHARGE_SUFFIX, New York's 5%) is
# chips lost, not a wager: `top`'s wagered board leaves it out, as `stats` always has (its
# chips still count in `net`). The totals kept so far counted it: take it out of them.
# Settlements that carry their own wagers (`risked` in their arguments: alley craps) are
# new with this version, so none is among the rows changed here.
WAGERS_SINCE = 6
UNCHARGE_TOTALS = (
    "UPDATE player_totals SET wagered = wagered - (SELECT COALESCE(SUM(h.amount), 0) FROM holds h"
    " JOIN operations o ON o.id = h.closed_by WHERE h.player = player_totals.player"
    " AND o.kind IN ('settle', 'forfeit') AND substr(h.handle, length(h.handle) - 6) = ':charge')")
# (substr, not LIKE: no `%` in SQL run without parameters, see connection.pg_sql; 7 = len(':charge'))

OWNER_COLUMNS = {"shard": "ALTER TABLE accounts ADD COLUMN shard TEXT",
                 "epoch": "ALTER TABLE accounts ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0"}

# PostgreSQL's writers draw their ids in blocks of ID_BLOCK from one sequence (block b
# is b * ID_BLOCK up to the next), so writers of several shards never make the same id
# (server/ledger/mirror.py, `Ids`). A new block is one nextval; a block a writer did not
# use up is skipped, never reused.
ID_BLOCK = 100_000
ID_BLOCKS = "ledger_id_blocks"
SEED_BLOCKS = (f"SELECT setval('{ID_BLOCKS}', GREATEST((SELECT COALESCE(MAX(id), 0) FROM accounts),"
                " (SELECT COALESCE(MAX(id), 0) FROM operations),"
                f" (SELECT COALESCE(MAX(transfer), 0) FROM entries)) / {ID_BLOCK} + 1)")

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
    (
        # `top`: per-player totals, back-filled from the settlements already made.
        TOTALS_TABLE.format(big="INTEGER"),
        *TOTALS_INDEXES,
        SQLITE_BACKFILL,
    ),
    (
        # Shards (docs/ledger.md, "Shards"): a wallet's writer and its epoch, the fencing
        # token every batch of a shard checks. NULL and 0: the one writer of a casino
        # that names no shards (SQLite is always that).
        *OWNER_COLUMNS.values(),
    ),
    (
        UNCHARGE_TOTALS,
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)

# PostgreSQL starts at today's shape: the SQLite versions above in one, recorded
# as SCHEMA_VERSION. A later change appends a migration to both lists: a database
# made at version v has POSTGRES_MIGRATIONS[v - POSTGRES_FIRST:] still to apply.
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
    TOTALS_TABLE.format(big="BIGINT"),
    *TOTALS_INDEXES,
    *OWNER_COLUMNS.values(),
    f"CREATE SEQUENCE {ID_BLOCKS}",
    SEED_BLOCKS,
    f"INSERT INTO casino_schema (version) VALUES ({SCHEMA_VERSION})",
)
POSTGRES_FIRST = 3          # the version the first PostgreSQL databases were made at
POSTGRES_MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (TOTALS_TABLE.format(big="BIGINT"), *TOTALS_INDEXES, POSTGRES_BACKFILL),    # 3 -> 4
    (*OWNER_COLUMNS.values(), f"CREATE SEQUENCE {ID_BLOCKS}", SEED_BLOCKS),      # 4 -> 5
    (UNCHARGE_TOTALS,),                                                          # 5 -> 6
)
assert POSTGRES_FIRST + len(POSTGRES_MIGRATIONS) == SCHEMA_VERSION

# One ledger process per database (see sqlite_store._exclusive): PostgreSQL's
# advisory locks are per database, and the writer's connection holds this one.
# The writers of a sharded casino hold it shared (so a casino naming no shards
# cannot start beside them), and each its shard's own lock exclusively: the two
# keys (SHARD_LOCK, hashtext(name)).
POSTGRES_LOCK = 0x6361_7369_6E6F     # "casino"
SHARD_LOCK = 0x6361_7368             # "cash"


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
            conn.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
        found = version(conn, dialect)
        if found > SCHEMA_VERSION:
            raise RuntimeError(f"database schema {found} is newer than this program's {SCHEMA_VERSION}")
        if dialect.name == SQLITE:
            for statements in MIGRATIONS[found:]:
                for sql in statements:
                    conn.execute(sql)
            conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        elif found == 0:
            for sql in POSTGRES_START:
                conn.execute(sql)
        elif found < SCHEMA_VERSION:
            for statements in POSTGRES_MIGRATIONS[found - POSTGRES_FIRST:]:
                for sql in statements:
                    conn.execute(sql)
            conn.execute("UPDATE casino_schema SET version = ?", (SCHEMA_VERSION,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return found

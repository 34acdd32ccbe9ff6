"""`casino ledger copy`: move a stopped casino to another database (SQLite <-> PostgreSQL).

Everything a casino keeps is copied row for row, ids included: the ledger
(accounts, operations, entries, holds, pending outcomes), the notices waiting
for a login, and the players' accounts. Ids are kept because operations name
holds and entries name accounts and operations by id, and `ledger check`
proves the copy from those links.

The rules, each for a reason:
- Only a stopped casino is copied: the source's lock (the SQLite file's flock,
  PostgreSQL's advisory lock) is taken for the whole copy, so a casino that
  is running, or starts meanwhile, cannot change what is being copied. Open
  holds and pending outcomes a crash left are copied as they are; the first
  start on the target recovers them, as it would have on the source.
- The source must pass every invariant first: a broken ledger is not spread.
- The target must hold nothing (no ledger rows, no players): merging two
  casinos' ids is not a copy. Its lock is taken too.
- The target is written in ONE transaction and checked before its COMMIT:
  every invariant, the same report as the source's (minted, balances, house,
  counts) and the same balance in every account. Anything else rolls back,
  leaving the target as empty as it was.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields

from server.db.connection import Conn, Dialect, connect, dialect_of
from server.db.url import POSTGRES, SQLITE, Database
from server.ledger.check import CheckReport, check_connection
from server.ledger.errors import LedgerError
from server.ledger.schema import POSTGRES_LOCK, SCHEMA_VERSION, SEED_BLOCKS, WAGERS_SINCE, migrate, version

OWNERS_SINCE = 5     # the schema version whose accounts have shard and epoch (OWNER_COLUMNS)
PAGE = 5000          # rows read and written per statement: memory stays flat however big the casino

Table = tuple[str, tuple[str, ...], bool]

# table, its columns (the key first: rows are paged by it), whether PostgreSQL's id is an identity
LEDGER_TABLES: tuple[Table, ...] = (
    ("accounts", ("id", "kind", "owner", "balance", "shard", "epoch"), False),
    ("operations", ("id", "scope", "key", "kind", "table_id", "args", "time"), False),
    ("entries", ("id", "op_id", "transfer", "account", "amount"), True),
    ("holds", ("id", "table_id", "handle", "player", "amount", "closed_by"), False),
    ("pending_outcomes", ("id", "scope", "key", "kind", "table_id", "args", "time"), True),
    ("notices", ("id", "player", "text", "time"), True),
    ("player_totals", ("player", "wagered", "won", "net", "wins", "hidden"), False),
)
PLAYERS: Table = ("players", ("name_key", "name", "pwhash", "prefs", "created", "origin"), False)
TABLE_TIME: Table = ("table_time", ("player", "table_id", "millis"), False)   # `stats`' time at the tables
CHIPLESS_ROUNDS: Table = ("chipless_rounds", ("player", "table_id", "rounds"), False)   # `stats`' Pig rounds
KEY_COLUMNS = {"table_time": 2, "chipless_rounds": 2}      # tables keyed by more than their first column


class CopyRefused(LedgerError):
    """The copy was not made; the message says why, in one line. The target is unchanged."""


@dataclass(frozen=True)
class CopyReport:
    source: CheckReport              # equal to the target's: the copy is refused otherwise
    rows: dict[str, int]             # table -> rows copied


def copy(source: Database, target: Database) -> CopyReport:
    """Copy the stopped casino at `source` into the empty `target` (see the module's rules).
    Raises CopyRefused, or the driver's error when a database fails during the copy."""
    if _same(source, target):
        raise CopyRefused(f"the source and the target are the same database ({source.shown})")
    if source.path is not None and not source.path.is_file():
        raise CopyRefused(f"no ledger database at {source.shown}")
    releases: list[Callable[[], None]] = []
    try:
        src_dialect = dialect_of(source)
        src = _open(source, "the source")
        releases.append(src.close)
        releases.append(_lock(source, src, "the source"))
        src.execute(src_dialect.begin_read)       # one snapshot of the source for the whole copy
        releases.append(lambda: _end(src))
        tables, before = _judge_source(source, src, src_dialect)
        # The target is touched only once the source is known to be worth copying.
        if target.path is not None:
            target.path.parent.mkdir(parents=True, exist_ok=True)
        dst_dialect = dialect_of(target)
        dst = _open(target, "the target")
        releases.append(dst.close)
        releases.append(_lock(target, dst, "the target"))
        held = _occupied(dst, dst_dialect)
        if held:
            raise CopyRefused(f"{target.shown} is not empty ({held}): the copy goes only into an empty database")
        _prepare(target, dst, dst_dialect)
        rows = _write(src, src_dialect, before, target, dst, dst_dialect, tables)
        return CopyReport(before, rows)
    finally:
        for release in reversed(releases):
            try:
                release()
            except Exception:    # noqa: BLE001 - a connection already lost: the copy's own error is the one to tell
                pass


def _judge_source(source: Database, src: Conn, dialect: Dialect) -> tuple[list[Table], CheckReport]:
    """The tables to copy and the source's check, or CopyRefused."""
    found = version(src, dialect)
    if found == 0:
        raise CopyRefused(f"no ledger database at {source.shown}")
    if found > SCHEMA_VERSION:
        raise CopyRefused(f"{source.shown} has schema {found}, newer than this program's {SCHEMA_VERSION}")
    before = check_connection(src, dialect)
    if not before.ok:
        raise CopyRefused(f"the source's ledger is broken ({before.broken[0]}):"
                          f" see `casino ledger check --database {source.shown}`")
    # before WAGERS_SINCE the totals counted charges as wagers: copied as they are, the
    # target (made at this version) would not check; a start migrates them
    if not _has_table(src, dialect, "player_totals") or found < max(OWNERS_SINCE, WAGERS_SINCE):
        raise CopyRefused(f"the ledger at {source.shown} predates this version (schema {found}):"
                          " start the casino on it once (casino serve), stop it, then copy")
    tables = list(LEDGER_TABLES)
    if _has_table(src, dialect, "players"):
        if dialect.name == SQLITE and "origin" not in {
                row[1] for row in src.execute("PRAGMA table_info(players)")}:
            raise CopyRefused(f"the accounts at {source.shown} predate this version:"
                              " start the casino on it once (casino serve), stop it, then copy")
        tables.append(PLAYERS)
    if _has_table(src, dialect, "table_time"):
        tables.append(TABLE_TIME)
    if _has_table(src, dialect, "chipless_rounds"):
        tables.append(CHIPLESS_ROUNDS)
    return tables, before


def _write(src: Conn, src_dialect: Dialect, before: CheckReport, target: Database, dst: Conn,
           dst_dialect: Dialect, tables: list[Table]) -> dict[str, int]:
    """Every row, in one transaction on the target, proven before its COMMIT."""
    dst.execute(dst_dialect.begin_write)
    try:
        held = _occupied(dst, dst_dialect)     # under the target's lock nothing can have come, but be sure
        if held:
            raise CopyRefused(f"{target.shown} is not empty ({held})")
        dst.execute("DELETE FROM accounts")    # the mint and house rows a new schema starts with
        rows = {name: _copy_table(src, dst, dst_dialect, name, columns, identity)
                for name, columns, identity in tables}
        if dst_dialect.name == POSTGRES:
            dst.execute(SEED_BLOCKS)           # the writers' next id blocks come after the copied ids
        _prove(src, before, dst, dst_dialect, [t[0] for t in tables])
        dst.execute("COMMIT")
    except BaseException:
        if dst.in_transaction:
            dst.execute("ROLLBACK")
        raise
    return rows


def _copy_table(src: Conn, dst: Conn, dialect: Dialect, name: str, columns: tuple[str, ...],
                identity: bool) -> int:
    listed = ", ".join(columns)
    overriding = " OVERRIDING SYSTEM VALUE" if identity and dialect.name == POSTGRES else ""
    insert = (f"INSERT INTO {name} ({listed}){overriding}"
              f" VALUES ({', '.join('?' * len(columns))})")
    n = 0
    for page in _pages(src, name, columns):
        dst.executemany(insert, page)
        n += len(page)
    if identity and dialect.name == POSTGRES:
        # The next id the server makes must come after the copied ones.
        dst.execute(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'),"
                    f" COALESCE(MAX(id), 0) + 1, false) FROM {name}")
    return n


def _pages(src: Conn, name: str, columns: tuple[str, ...]) -> Iterator[list[tuple[object, ...]]]:
    """The table's rows in key order, PAGE at a time (keyset paging: each page is one index
    seek). The key is the first column, or the first KEY_COLUMNS[name] (a row value)."""
    width = KEY_COLUMNS.get(name, 1)
    key = ", ".join(columns[:width])
    after = f"({key}) > ({', '.join('?' * width)})" if width > 1 else f"{key} > ?"
    listed = ", ".join(columns)
    page = [tuple(r) for r in src.execute(f"SELECT {listed} FROM {name} ORDER BY {key} LIMIT ?", (PAGE,))]
    while page:
        yield page
        if len(page) < PAGE:
            return
        page = [tuple(r) for r in src.execute(f"SELECT {listed} FROM {name} WHERE {after}"
                                              f" ORDER BY {key} LIMIT ?", (*page[-1][:width], PAGE))]


def _prove(src: Conn, before: CheckReport, dst: Conn, dst_dialect: Dialect, tables: list[str]) -> None:
    """The target, inside its transaction, against the source: else CopyRefused (rolled back)."""
    after = check_connection(dst, dst_dialect)
    if not after.ok:
        raise CopyRefused(f"the copy broke an invariant ({after.broken[0]}); nothing was kept")
    differ = [f.name for f in fields(CheckReport) if getattr(before, f.name) != getattr(after, f.name)]
    if differ:
        raise CopyRefused("the copy's ledger check differs from the source's in "
                          + ", ".join(differ) + "; nothing was kept")
    balances = "SELECT kind, owner, balance FROM accounts"
    theirs = {(k, o): b for k, o, b in src.execute(balances)}
    ours = {(k, o): b for k, o, b in dst.execute(balances)}
    if theirs != ours:
        wrong = sorted(k for k in theirs.keys() | ours.keys() if theirs.get(k) != ours.get(k))
        raise CopyRefused(f"the copy's balances differ from the source's ({wrong[0][0]} {wrong[0][1]});"
                          " nothing was kept")
    for name in tables:
        count = f"SELECT COUNT(*) FROM {name}"
        if src.execute(count).fetchone()[0] != dst.execute(count).fetchone()[0]:
            raise CopyRefused(f"the copy's {name} differ in number from the source's; nothing was kept")


def _prepare(target: Database, dst: Conn, dialect: Dialect) -> None:
    """The target's schema, made as the casino makes it: the ledger's migrations, and the
    players table by the account store itself (so its shape is never written twice)."""
    from server.accounts.store import AccountStore
    from server.accounts.table_time import TableTimeStore
    migrate(dst, dialect)
    AccountStore(target).close()
    TableTimeStore(target).close()


def _occupied(conn: Conn, dialect: Dialect) -> str:
    """What the database already holds of a casino ('' when nothing)."""
    held = []
    if version(conn, dialect) > 0:
        for name, _, _ in LEDGER_TABLES[1:]:
            n = conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
            if n:
                held.append(f"{n} {name}")
        n = conn.execute("SELECT COUNT(*) FROM accounts WHERE id > 2 OR balance <> 0").fetchone()[0]
        if n:
            held.append(f"{n} accounts")
    for name in ("players", "table_time", "chipless_rounds"):
        if _has_table(conn, dialect, name):
            n = conn.execute(f"SELECT COUNT(*) FROM {name}").fetchone()[0]
            if n:
                held.append(f"{n} {name}")
    return ", ".join(held)


def _has_table(conn: Conn, dialect: Dialect, name: str) -> bool:
    if dialect.name == SQLITE:
        return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
                            (name,)).fetchone() is not None
    return conn.execute("SELECT to_regclass(?)", (name,)).fetchone()[0] is not None


def _end(conn: Conn) -> None:
    conn.execute("COMMIT")


def _open(db: Database, which: str) -> Conn:
    """A connection, or CopyRefused saying which side could not be reached and why."""
    try:
        return connect(db)
    except Exception as exc:       # noqa: BLE001 - down, refused, a bad password: each a one-line reason
        raise CopyRefused(f"{which}: {db.problem(exc)}") from None


def _lock(db: Database, conn: Conn, which: str) -> Callable[[], None]:
    """Take the lock a running casino holds on `db` (see the module's rules); returns its release."""
    if db.kind == SQLITE:
        from server.ledger.sqlite_store import _exclusive
        try:
            fd = _exclusive(str(db.path) + ".lock")
        except LedgerError:
            raise CopyRefused(f"{which} {db.shown} is in use: stop the casino on it first"
                              " (only a stopped casino is copied)") from None
        return lambda: os.close(fd)
    if not conn.execute("SELECT pg_try_advisory_lock(?)", (POSTGRES_LOCK,)).fetchone()[0]:
        raise CopyRefused(f"{which} {db.shown} is in use: stop the casino on it first"
                          " (only a stopped casino is copied)")
    return lambda: None          # released when the connection closes


def _same(a: Database, b: Database) -> bool:
    if a.path is not None and b.path is not None:
        return os.path.realpath(a.path) == os.path.realpath(b.path)
    return a.url == b.url

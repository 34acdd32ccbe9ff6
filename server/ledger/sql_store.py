"""The ledger's store over SQL, the same on SQLite and PostgreSQL: judged in Python, written in bulk.

One writer connection, used only by the writer thread, applies whole batches.
Each operation is judged in Python against the writer's in-memory `Mirror`
(`server/ledger/mirror.py`), so a refused one never reaches SQL; the accepted
ones are written with one `executemany` per statement kind inside ONE
transaction, and the mirror takes the batch only after COMMIT returned. The
database's own constraints (unique keys, a wallet never negative, a hold
closed once) still guard every row: if the mirror and the database ever
disagreed, the commit would fail rather than write a wrong row. The mirror
keeps only the most recent keys: when the database refuses a batch's rows,
the keys the batch took for new are looked up there and the batch is judged
once more (a retry of an evicted key is then recognised). A separate reader
connection serves balances and statements from committed data, so reads
never wait behind the writer.

Every movement is a transfer: two entries, one per account, summing to zero,
plus the same change to each account's materialised balance.

`SQLStore` is the shared part; `SQLiteStore` and `PostgresStore` open the
connections, keep one ledger process per database, and (PostgreSQL) reconnect.
"""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from server.db.connection import Conn, Cursor, Dialect
from server.ledger import boards, reads, recovery

from server.ledger import stats
from server.ledger.errors import Fenced, KeyConflict, LedgerError, Refused
from server.ledger.mirror import RECENT_KEYS, Batch, Closed, Key, Mirror, Sig
from server.ledger.ops import (
    RECOVERY_SCOPE,
    Balance,
    Claim,
    Item,
    LeaveNotice,
    Movement,
    Op,
    Recovered,
    ShowOnBoards,
    TakeNotices,
)

log = logging.getLogger("casino.ledger")

_INSERT_ACCOUNTS = "INSERT INTO accounts (id, kind, owner, shard, epoch) VALUES (?, ?, ?, ?, ?)"
_INSERT_OPS = ("INSERT INTO operations (id, scope, key, kind, table_id, args, time)"
               " VALUES (?, ?, ?, ?, ?, ?, ?)")
_INSERT_HOLDS = "INSERT INTO holds (id, table_id, handle, player, amount) VALUES (?, ?, ?, ?, ?)"
_CLOSE_HOLDS = "UPDATE holds SET closed_by = ? WHERE id = ? AND closed_by IS NULL"
_INSERT_ENTRIES = "INSERT INTO entries (op_id, transfer, account, amount) VALUES (?, ?, ?, ?)"
_UPDATE_BALANCES = "UPDATE accounts SET balance = balance + ? WHERE id = ?"
_DELETE_PENDING = "DELETE FROM pending_outcomes WHERE scope = ? AND key = ?"
_STORED_OP = "SELECT kind, args FROM operations WHERE scope = ? AND key = ?"
_INSERT_NOTICE = "INSERT INTO notices (player, text, time) VALUES (?, ?, ?)"
# Totals are added to, never set: the row may exist (earlier play, or `set leaderboard`)
_ADD_TOTALS = ("INSERT INTO player_totals (player, wagered, won, net, wins) VALUES (?, ?, ?, ?, ?)"
               " ON CONFLICT (player) DO UPDATE SET wagered = player_totals.wagered + excluded.wagered,"
               " won = player_totals.won + excluded.won, net = player_totals.net + excluded.net,"
               " wins = player_totals.wins + excluded.wins")
_SET_HIDDEN = ("INSERT INTO player_totals (player, hidden) VALUES (?, ?)"
               " ON CONFLICT (player) DO UPDATE SET hidden = excluded.hidden")

R = TypeVar("R")


class MirrorMismatch(Exception):
    """The database refused a row the mirror accepted: the batch is rolled back, nothing moves."""


class SQLStore:
    """The `Store` protocol over a writer connection `_w` and a reader `_r` (set by the subclass)."""

    dialect: Dialect
    _w: Conn
    _r: Conn

    # A shard's writer (PostgresStore): its name, and the tables whose holds it recovers.
    # None: the one writer of a casino naming no shards, which owns every wallet and table.
    shard: str | None = None
    tables: frozenset[str] | None = None

    def __init__(self, recent_keys: int = RECENT_KEYS) -> None:
        self.recent_keys = recent_keys
        self._failures = 0
        self._failures_lock = threading.Lock()

    def _load(self) -> None:
        """(Re)build the writer's cursor and mirror from the committed database."""
        self._c: Cursor = self._w.cursor()    # one cursor for the hot path: no allocation per statement
        self.mirror = Mirror(self._w, self.recent_keys, self.shard)

    # -- transactions -------------------------------------------------------------

    def fail_next_commits(self, n: int) -> None:
        """Test hook: the next `n` COMMITs raise the database's OperationalError and roll back."""
        with self._failures_lock:
            self._failures = n

    def _commit(self) -> None:
        with self._failures_lock:
            inject = self._failures > 0
            self._failures -= inject
        if inject:
            raise self.dialect.operational_error("disk I/O error (injected by fail_next_commits)")
        self._w.execute("COMMIT")

    def _rollback(self) -> None:
        try:
            if self._w.in_transaction:
                self._w.execute("ROLLBACK")
        except Exception:  # noqa: BLE001 - a lost connection rolls back by itself
            log.exception("rollback failed")

    def _write(self, batch: Batch) -> None:
        """Write a judged batch's rows: a few executemany, whatever the batch's size."""
        c = self._c
        if batch.account_rows:
            c.executemany(_INSERT_ACCOUNTS, batch.account_rows)
        if batch.op_rows:
            c.executemany(_INSERT_OPS, batch.op_rows)
        if batch.hold_rows:
            c.executemany(_INSERT_HOLDS, batch.hold_rows)
        if batch.close_rows:
            c.executemany(_CLOSE_HOLDS, batch.close_rows)
            if c.rowcount != len(batch.close_rows):
                raise MirrorMismatch(f"closed {c.rowcount} holds, the mirror expected {len(batch.close_rows)}")
        if batch.legs:
            c.executemany(_INSERT_ENTRIES, batch.legs)
        deltas = [(d, a) for a, d in batch.deltas.items() if d]
        if deltas:
            c.executemany(_UPDATE_BALANCES, deltas)
        if batch.pending_done:
            c.executemany(_DELETE_PENDING, batch.pending_done)
        if batch.totals:
            c.executemany(_ADD_TOTALS, [(p, *t) for p, t in batch.totals.items()])

    def _stored(self, k: Key) -> Sig | None:
        """A key's (kind, args) as the database holds it, for a key the mirror may have evicted."""
        row = self._w.execute(_STORED_OP, k).fetchone()
        return (row[0], row[1]) if row is not None else None

    def _transaction(self, judge: Callable[[Batch], R],
                     before_commit: Callable[[], None] | None = None) -> tuple[Batch, R]:
        """Judge a batch (`judge` fills it), write it and COMMIT, in one write transaction.

        If the database refuses a row the mirror accepted, a key the batch took for new
        may be one the mirror evicted: the transaction is rolled back, those keys are
        looked up, and if any is there the batch is judged and written again, once
        (the retry is now recognised; the others go through). Otherwise, or if it
        fails again, the error stands and nothing moves. Likewise when a shard finds
        wallets of the batch taken by another (`Fenced`): it writes them no more, and
        the batch is judged again without them (their operations are NotOwned). The
        caller merges.
        """
        w, begin = self._w, self.dialect.begin_write
        w.execute(begin)
        try:
            batch = Batch(self.mirror, time.time(), self._stored)
            out = judge(batch)
            try:
                self._write(batch)
            except Fenced as fenced:
                w.execute("ROLLBACK")
                w.execute(begin)
                self.mirror.disown(fenced.lost)
                log.warning("ledger wallets taken by another shard count=%d", len(fenced.lost))
                batch = Batch(self.mirror, batch.now, self._stored)
                out = judge(batch)
                self._write(batch)
            except (self.dialect.integrity_error, MirrorMismatch):
                w.execute("ROLLBACK")               # our own rows must not answer the lookups
                w.execute(begin)
                found = [(k, sig) for k in batch.ops if (sig := self._stored(k)) is not None]
                if not found:
                    raise
                log.info("ledger keys recalled from the database count=%d", len(found))
                self.mirror.remember(found)
                batch = Batch(self.mirror, batch.now, self._stored)
                out = judge(batch)
                self._write(batch)
            if before_commit is not None:
                before_commit()
            self._commit()
        except BaseException:
            self._rollback()                        # the batch is dropped; the mirror still agrees
            self.mirror.trim()                      # with the database, keys recalled included
            raise
        return batch, out

    def apply_batch(self, items: Sequence[Item],
                    before_commit: Callable[[], None] | None = None,
                    moved: dict[str, Balance] | None = None) -> list[object]:
        def judge(batch: Batch) -> list[object]:
            results: list[object] = []
            apply = batch.apply
            for item in items:
                if type(item) is TakeNotices:
                    results.append(self._take_notices(item.player))
                    continue
                if type(item) is LeaveNotice:
                    self._c.execute(_INSERT_NOTICE, (item.player, item.text, batch.now))
                    results.append(None)
                    continue
                if type(item) is ShowOnBoards:
                    self._c.execute(_SET_HIDDEN, (item.player, 0 if item.shown else 1))
                    results.append(None)
                    continue
                if type(item) is Claim:         # PostgresStore takes these before the batch
                    results.append(Refused("only a shard's writer, on PostgreSQL, claims wallets"))
                    continue
                try:
                    apply(item)
                    results.append(None)
                except (Refused, KeyConflict) as exc:     # judged before any change: nothing moved
                    results.append(exc)
            return results

        batch, results = self._transaction(judge, before_commit)
        batch.merge(moved)
        return results

    def _take_notices(self, player: str) -> list[str]:
        rows = self._c.execute("DELETE FROM notices WHERE player = ? RETURNING id, text", (player,)).fetchall()
        return [text for _, text in sorted(rows)]

    def record_outcomes(self, ops: Sequence[Op]) -> None:
        rows = [(op.scope, op.key, op.kind.value, op.table, op.args_json(), time.time()) for op in ops]
        self._w.execute(self.dialect.begin_write)
        try:
            self._w.executemany(
                "INSERT INTO pending_outcomes (scope, key, kind, table_id, args, time)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING", rows)
            self._commit()
        except BaseException:
            self._rollback()
            raise
        for scope, key, kind, _, args, _ in rows:       # the first recorded outcome of a key stays
            self.mirror.pending.setdefault((scope, key), (kind, args))

    # -- recovery and reads -------------------------------------------------------------

    def recover(self) -> list[Recovered]:
        done: list[Recovered] = []

        def judge(batch: Batch) -> None:
            c = self._w
            done.clear()
            notices: list[tuple[str, str]] = []
            mine = self.tables
            recorded = [r for r in c.execute("SELECT id, scope, key, kind, table_id, args FROM"
                                             " pending_outcomes ORDER BY id").fetchall()
                        if mine is None or r[4] in mine]
            for _, scope, key, kind, table, args in recorded:
                op = Op.from_record(kind, scope, key, table, args)
                try:
                    closed: Closed | LedgerError | None = batch.apply(op)
                except (Refused, KeyConflict) as exc:
                    closed = exc
                outcome, told = recovery.completed(op, closed)
                done.extend(outcome)
                notices += told
            for (table, handle), (_, player, amount) in batch.open_holds():
                if mine is not None and table not in mine:
                    continue                            # another shard's table: its own recovery
                op = Op.refund(f"{table}:{handle}", table, handle, scope=RECOVERY_SCOPE)
                batch.apply(op)                         # an open hold always refunds; raises otherwise
                done.append(Recovered("refunded", table, handle, player, amount, op.key))
                notices.append((player, recovery.refund_notice(table, amount)))
            if recorded:
                c.executemany("DELETE FROM pending_outcomes WHERE id = ?", [(r[0],) for r in recorded])
            if notices:
                c.executemany(_INSERT_NOTICE, [(player, text, batch.now) for player, text in notices])

        batch, _ = self._transaction(judge)
        batch.merge()
        self.mirror.pending.clear()
        for r in done:
            log.warning("recovery %s", r)
        log.info("recovery done completed=%d refunded=%d discarded=%d",
                 sum(r.action in ("settled", "forfeited") for r in done),
                 sum(r.action == "refunded" for r in done),
                 sum(r.action == "discarded" for r in done))
        return done

    def balance(self, player: str) -> Balance:
        return reads.balance(self._r, self.dialect, player)

    def balances(self, players: list[str]) -> dict[str, Balance]:
        return reads.balances(self._r, self.dialect, players)

    def statement(self, player: str, n: int) -> list[Movement]:
        return reads.statement(self._r, self.dialect, player, n)

    def board(self, board: str, page: int, asker: str, excluded: list[str]) -> boards.Board:
        return boards.read(self._r, self.dialect, board, page, asker, excluded)

    def last_minted(self, prefix: str) -> float | None:
        return reads.last_minted(self._r, self.dialect, prefix)

    def open_holds(self, player: str) -> dict[str, int]:
        return reads.open_holds(self._r, self.dialect, player)

    def figures(self) -> dict[str, int]:
        return reads.figures(self._r, self.dialect)

    def stats(self, player: str, groups: Mapping[str, str] | None = None) -> stats.PlayerStats:
        return stats.player_stats(self._r, self.dialect, player, groups)

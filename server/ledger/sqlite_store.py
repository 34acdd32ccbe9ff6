"""The embedded store: SQLite in WAL mode with synchronous=FULL.

One writer connection, used only by the writer thread, applies whole batches:
BEGIN IMMEDIATE, one SAVEPOINT per operation (a refused operation rolls back
alone), one COMMIT for all. A separate reader connection serves balances and
statements from committed data, so reads never wait behind the writer.

Every movement is a transfer: two entries, one per account, summing to zero,
plus the same change to each account's materialised balance.
"""
from __future__ import annotations

import fcntl
import logging
import os
import sqlite3
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

from server.ledger import reads, recovery
from server.ledger.errors import (
    InsufficientFunds,
    KeyConflict,
    LedgerError,
    Refused,
    UnknownPlayer,
    UnknownStake,
)
from server.ledger.ops import (
    CLOSING,
    RECOVERY_SCOPE,
    Balance,
    Kind,
    Movement,
    Op,
    Recovered,
    TakeNotices,
)
from server.ledger.schema import connect, migrate

log = logging.getLogger("casino.ledger")

MINT_ACCOUNT = 1
HOUSE_ACCOUNT = 2

Closed = list[tuple[str, str, int]]   # (handle, player, amount) of each stake an operation closed


class SQLiteStore:
    """The `Store` protocol over one SQLite file."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self._lock = _exclusive(self.path + ".lock")
        try:
            self._setup()
        except BaseException:
            os.close(self._lock)
            raise

    def _setup(self) -> None:
        self._w = connect(self.path, check_same_thread=False)
        migrate(self._w)
        self._c = self._w.cursor()       # one cursor for the hot path: no allocation per statement
        self._r = connect(self.path, check_same_thread=False)
        self._ids: dict[tuple[str, str], int] = {}
        self._op_created: list[tuple[str, str]] = []
        self._batch_created: list[tuple[str, str]] = []
        last = self._w.execute("SELECT COALESCE(MAX(transfer), 0) FROM entries").fetchone()[0]
        self._next_transfer = last + 1
        self._wallet_ids: set[int] = set()
        # Legs and non-wallet balance changes of the operations applied so far in this
        # batch, written once before COMMIT: the house and a table's pending account
        # are touched by nearly every operation, so one UPDATE each per batch instead
        # of one per operation. Wallets change at once, so a wager sees their balance.
        self._legs: list[tuple[int, int, int, int]] = []
        self._deltas: dict[int, int] = defaultdict(int)
        self._op_legs: list[tuple[int, int, int, int]] = []
        self._op_deltas: dict[int, int] = defaultdict(int)
        self._pending_keys = set(self._w.execute("SELECT scope, key FROM pending_outcomes").fetchall())
        self._failures = 0
        self._failures_lock = threading.Lock()

    # -- transactions -------------------------------------------------------------

    def fail_next_commits(self, n: int) -> None:
        """Test hook: the next `n` COMMITs raise sqlite3.OperationalError and roll back."""
        with self._failures_lock:
            self._failures = n

    def _commit(self) -> None:
        with self._failures_lock:
            inject = self._failures > 0
            self._failures -= inject
        if inject:
            raise sqlite3.OperationalError("disk I/O error (injected by fail_next_commits)")
        self._w.execute("COMMIT")

    def _flush(self) -> None:
        """Write the batch's legs and non-wallet balance changes (just before COMMIT)."""
        self._w.executemany("INSERT INTO entries (op_id, transfer, account, amount) VALUES (?, ?, ?, ?)",
                            self._legs)
        self._w.executemany("UPDATE accounts SET balance = balance + ? WHERE id = ?",
                            [(d, a) for a, d in self._deltas.items() if d])
        self._legs, self._deltas = [], defaultdict(int)

    def _abort(self) -> None:
        """Undo a failed transaction and forget account ids it created."""
        for k in self._batch_created + self._op_created:
            self._ids.pop(k, None)
        self._batch_created, self._op_created = [], []
        self._legs, self._deltas = [], defaultdict(int)
        self._op_legs, self._op_deltas = [], defaultdict(int)
        try:
            if self._w.in_transaction:
                self._w.execute("ROLLBACK")
        except sqlite3.Error:
            log.exception("rollback failed")

    def _isolated(self, fn, *args):
        """Run one operation under a SAVEPOINT; a refusal undoes only it and is returned."""
        self._c.execute("SAVEPOINT op")
        try:
            result = fn(*args)
        except (Refused, KeyConflict) as exc:
            self._c.execute("ROLLBACK TO op")
            self._c.execute("RELEASE op")
            for k in self._op_created:
                self._ids.pop(k, None)
            self._op_created = []
            self._op_legs, self._op_deltas = [], defaultdict(int)
            return exc
        self._c.execute("RELEASE op")
        self._batch_created += self._op_created
        self._op_created = []
        self._legs += self._op_legs
        for account, delta in self._op_deltas.items():
            self._deltas[account] += delta
        self._op_legs, self._op_deltas = [], defaultdict(int)
        return result

    def apply_batch(self, items: Sequence[Op | TakeNotices]) -> list[object]:
        now = time.time()
        self._w.execute("BEGIN IMMEDIATE")
        try:
            results = [self._isolated(self._apply_item, item, now) for item in items]
            self._flush()
            self._commit()
        except BaseException:
            self._abort()
            raise
        self._batch_created = []
        return results

    def _apply_item(self, item: Op | TakeNotices, now: float) -> object:
        if isinstance(item, TakeNotices):
            rows = self._w.execute("DELETE FROM notices WHERE player = ? RETURNING id, text",
                                   (item.player,)).fetchall()
            return [text for _, text in sorted(rows)]
        self._apply_op(item, now)
        return None

    def record_outcomes(self, ops: Sequence[Op]) -> None:
        self._w.execute("BEGIN IMMEDIATE")
        try:
            now = time.time()
            self._w.executemany(
                "INSERT INTO pending_outcomes (scope, key, kind, table_id, args, time)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING",
                [(op.scope, op.key, op.kind.value, op.table, op.args_json(), now) for op in ops])
            self._commit()
        except BaseException:
            self._abort()
            raise
        self._pending_keys.update((op.scope, op.key) for op in ops)

    # -- operations -----------------------------------------------------------------

    def _account(self, kind: str, owner: str, *, create: bool) -> int | None:
        k = (kind, owner)
        found = self._ids.get(k)
        if found is None:
            row = self._w.execute("SELECT id FROM accounts WHERE kind = ? AND owner = ?", k).fetchone()
            if row:
                found = row[0]
            elif create:
                found = self._w.execute("INSERT INTO accounts (kind, owner) VALUES (?, ?)", k).lastrowid
                self._op_created.append(k)
            else:
                return None
            self._ids[k] = found
            if kind == "wallet":
                self._wallet_ids.add(found)
        return found

    def _apply_op(self, op: Op, now: float) -> Closed | None:
        """Apply one operation; None when it is a retry of one already applied."""
        c = self._c
        args = op.args_json()
        cur = c.execute("INSERT INTO operations (scope, key, kind, table_id, args, time)"
                        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO NOTHING",
                        (op.scope, op.key, op.kind.value, op.table, args, now))
        if cur.rowcount == 0:
            kind, stored = c.execute("SELECT kind, args FROM operations WHERE scope = ? AND key = ?",
                                     (op.scope, op.key)).fetchone()
            if (kind, stored) == (op.kind.value, args):
                return None
            raise KeyConflict(f"key {op.key!r} ({op.scope}) was {kind} {stored}, now {op.kind.value} {args}")
        op_id = cur.lastrowid
        if op.kind in CLOSING and (op.scope, op.key) in self._pending_keys:
            earlier = c.execute("DELETE FROM pending_outcomes WHERE scope = ? AND key = ?"
                                " RETURNING kind, args", (op.scope, op.key)).fetchall()
            if earlier and earlier[0] != (op.kind.value, args):
                raise KeyConflict(f"key {op.key!r} ({op.scope}) has a pending {earlier[0]}, now {args}")
        legs = self._op_legs
        deltas = self._op_deltas
        wallets: dict[int, int] = defaultdict(int)

        def move(src: int, dst: int, amount: int) -> None:
            if amount:
                t = self._next_transfer
                self._next_transfer += 1
                legs.append((op_id, t, src, -amount))
                legs.append((op_id, t, dst, amount))
                (wallets if src in self._wallet_ids else deltas)[src] -= amount
                (wallets if dst in self._wallet_ids else deltas)[dst] += amount

        closed: Closed = []
        if op.kind is Kind.MINT:
            move(MINT_ACCOUNT, self._account("wallet", op.player, create=True), op.amount)
        elif op.kind is Kind.HOLD:
            wallet = self._debit_wallet(op.player, op.amount)
            pending = self._account("pending", op.table, create=True)
            c.execute("INSERT INTO holds (id, table_id, handle, player, amount) VALUES (?, ?, ?, ?, ?)",
                      (op_id, op.table, op.key, op.player, op.amount))
            move(wallet, pending, op.amount)
            wallets[wallet] += op.amount         # already debited, guarded
        else:
            closed = self._close(op, op_id)
            pending = self._account("pending", op.table, create=False)
            total = sum(amount for _, _, amount in closed)
            if op.kind is Kind.SETTLE:
                for player, pay in op.pays:
                    wallet = self._account("wallet", player, create=False)
                    if wallet is None:
                        raise UnknownPlayer(f"no wallet for payee {player!r}")
                    from_stakes = min(pay, total)
                    move(pending, wallet, from_stakes)
                    move(HOUSE_ACCOUNT, wallet, pay - from_stakes)
                    total -= from_stakes
                move(pending, HOUSE_ACCOUNT, total)
            elif op.kind is Kind.REFUND:
                for _, player, amount in closed:
                    move(pending, self._account("wallet", player, create=False), amount)
            else:
                move(pending, HOUSE_ACCOUNT, total)
        for wallet, delta in wallets.items():
            if delta:
                c.execute("UPDATE accounts SET balance = balance + ? WHERE id = ?", (delta, wallet))
        return closed

    def _debit_wallet(self, player: str, amount: int) -> int:
        """Take a wager from a wallet, or refuse it before anything moves."""
        wallet = self._account("wallet", player, create=False)
        if wallet is None:
            raise InsufficientFunds(player, amount, 0)
        cur = self._c.execute("UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?",
                              (amount, wallet, amount))
        if cur.rowcount == 0:
            balance = self._w.execute("SELECT balance FROM accounts WHERE id = ?", (wallet,)).fetchone()[0]
            raise InsufficientFunds(player, amount, balance)
        return wallet

    def _close(self, op: Op, op_id: int) -> Closed:
        closed: Closed = []
        for handle in op.stakes:
            row = self._c.execute("SELECT id, player, amount FROM holds WHERE table_id = ? AND handle = ?"
                                  " AND closed_by IS NULL", (op.table, handle)).fetchone()
            if row is None:
                raise UnknownStake(f"table={op.table} stake={handle} is not an open hold")
            self._c.execute("UPDATE holds SET closed_by = ? WHERE id = ?", (op_id, row[0]))
            closed.append((handle, row[1], row[2]))
        return closed

    # -- recovery and reads -------------------------------------------------------------

    def recover(self) -> list[Recovered]:
        now = time.time()
        c = self._w
        done: list[Recovered] = []
        notices: list[tuple[str, str]] = []
        c.execute("BEGIN IMMEDIATE")
        try:
            for pid, scope, key, kind, table, args in c.execute(
                    "SELECT id, scope, key, kind, table_id, args FROM pending_outcomes ORDER BY id").fetchall():
                op = Op.from_record(kind, scope, key, table, args)
                closed = self._isolated(self._apply_op, op, now)
                outcome, told = recovery.completed(op, closed)
                done += outcome
                notices += told
                c.execute("DELETE FROM pending_outcomes WHERE id = ?", (pid,))
            for table, handle, player, amount in c.execute(
                    "SELECT table_id, handle, player, amount FROM holds WHERE closed_by IS NULL"
                    " ORDER BY id").fetchall():
                op = Op.refund(f"{table}:{handle}", table, handle, scope=RECOVERY_SCOPE)
                refused = self._isolated(self._apply_op, op, now)
                if isinstance(refused, Exception):
                    raise refused
                done.append(Recovered("refunded", table, handle, player, amount, op.key))
                notices.append((player, recovery.refund_notice(table, amount)))
            c.executemany("INSERT INTO notices (player, text, time) VALUES (?, ?, ?)",
                          [(player, text, now) for player, text in notices])
            self._flush()
            self._commit()
        except BaseException:
            self._abort()
            raise
        self._batch_created = []
        self._pending_keys.clear()
        for r in done:
            log.warning("recovery %s", r)
        log.info("recovery done completed=%d refunded=%d discarded=%d",
                 sum(r.action in ("settled", "forfeited") for r in done),
                 sum(r.action == "refunded" for r in done),
                 sum(r.action == "discarded" for r in done))
        return done

    def balance(self, player: str) -> Balance:
        return reads.balance(self._r, player)

    def statement(self, player: str, n: int) -> list[Movement]:
        return reads.statement(self._r, player, n)

    def close(self) -> None:
        self._r.close()
        self._w.close()
        os.close(self._lock)


def _exclusive(lock_path: str) -> int:
    """One ledger process per file: a second one's start-up recovery would refund the
    first one's live stakes. The kernel drops the lock when the process dies (kill -9
    included), so a crash never leaves the file locked."""
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        raise LedgerError(f"{lock_path} is held: another process has this ledger open") from None
    return fd

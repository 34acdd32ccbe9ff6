"""The ledger on a PostgreSQL server, for a casino that outgrows one file.

The judging and writing are `SQLStore`'s, unchanged: one writer connection,
one transaction per batch, COMMIT durable at synchronous_commit=on (the
server's default). What a server adds, and this class handles:

- One ledger process per database: the writer's connection holds an advisory
  lock (a second casino on the same database is refused, as with the SQLite
  file's flock). A shard's writer holds that lock shared and its shard's
  exclusively: the shards of one casino write together, two writers of one
  shard never (docs/ledger.md, "Shards"). The server drops it when the connection dies, but only once
  that session's backend has ended: one still finishing a dead casino's last
  statement holds it a moment after the kill, so the lock is waited for a few
  seconds (LOCK_WAIT) before a restart is refused.
- The server can go away (a restart, `pg_ctl stop -m immediate`, a network
  fault). Every call first checks its connection and opens a new one if it
  is broken; while that fails, calls fail (callers see "pending recovery",
  never "paid") and the table retries. A new writer connection takes the lock
  again and reloads the mirror from the database, since the last COMMIT may
  or may not have landed.
- That last COMMIT, sent when the connection broke, is in doubt. Its callers
  were told the write failed; a settlement is retried by its table under
  the same key (a no-op if it landed), but a wager the table gave back may be
  open in the database. Those holds are refunded in the first transaction
  after the reconnect, and the player is told. Every player's balance is
  handed back with that batch, so the event loop's view is exact again.

A batch is written with a fixed number of statements whatever its size (see
`_write`): COPY for the rows it appends, one UPDATE or DELETE over arrays for
the rows it changes. psycopg's executemany binds and adapts every row in
Python, one Bind/Execute each; that was 86% of the writer's time here.
"""
from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import TypeVar

from server.db.connection import PgConn, dialect_of
from server.db.url import Database
from server.ledger.boards import Board
from server.ledger.errors import Fenced, LedgerError
from server.ledger.mirror import RECENT_KEYS, Batch
from server.ledger.ops import RECOVERY_SCOPE, Balance, Claim, Item, Kind, Movement, Op, Recovered
from server.ledger.schema import ID_BLOCK, ID_BLOCKS, POSTGRES_LOCK, SHARD_LOCK, migrate
from server.ledger.shards import LedgerShard
from server.ledger.stats import PlayerStats
from server.ledger.sql_store import _INSERT_NOTICE, MirrorMismatch, SQLStore

log = logging.getLogger("casino.ledger")

LOCK_WAIT = "3s"      # how long a new writer waits for the ledger's lock (lock_timeout)

T = TypeVar("T")

# A batch's rows in a fixed number of statements (`PostgresStore._write`). COPY
# checks every constraint as INSERT does: a duplicate key raises UniqueViolation.
_COPY_ACCOUNTS = "COPY accounts (id, kind, owner, shard, epoch) FROM STDIN"
_COPY_OPS = "COPY operations (id, scope, key, kind, table_id, args, time) FROM STDIN"
_COPY_HOLDS = "COPY holds (id, table_id, handle, player, amount) FROM STDIN"
_COPY_ENTRIES = "COPY entries (op_id, transfer, account, amount) FROM STDIN"
_CLOSE_HOLDS = ("UPDATE holds SET closed_by = d.op FROM unnest(%s::bigint[], %s::bigint[]) AS d(op, id)"
                " WHERE holds.id = d.id AND holds.closed_by IS NULL")
_UPDATE_BALANCES = ("UPDATE accounts SET balance = balance + d.delta"
                    " FROM unnest(%s::bigint[], %s::bigint[]) AS d(id, delta) WHERE accounts.id = d.id")
# A shard's wallets, written only at the epoch it owns them at: a wallet another shard took
# meanwhile is not updated (the batch is Fenced). Its row lock orders a batch and a claim.
# The epoch alone fences: every claim adds 1, so an epoch this shard holds is one no other
# shard ever held (a filter on `shard` too made the prepared plan scan every account).
_UPDATE_OWNED = ("UPDATE accounts SET balance = balance + d.delta"
                 " FROM unnest(%s::bigint[], %s::bigint[], %s::bigint[]) AS d(id, delta, epoch)"
                 " WHERE accounts.id = d.id AND accounts.epoch = d.epoch"
                 " RETURNING accounts.id")
_CLAIM = ("UPDATE accounts SET shard = %s, epoch = epoch + 1 WHERE kind = 'wallet' AND owner = ANY(%s)"
          " RETURNING id, owner, epoch, balance")
_OPEN_HOLDS_OF = ("SELECT id, table_id, handle, player, amount FROM holds"
                  " WHERE closed_by IS NULL AND player = ANY(%s)")
# A shard's own house and mint, made when it first opens (ids from a block of their own).
_SHARD_ACCOUNTS = (f"INSERT INTO accounts (id, kind, owner, shard) SELECT b * {ID_BLOCK} + n, k, %s, %s"
                   f" FROM (SELECT nextval('{ID_BLOCKS}') AS b) AS blk,"
                   " (VALUES (0, 'house'), (1, 'mint')) AS a(n, k) ON CONFLICT (kind, owner) DO NOTHING")
_ADD_TOTALS = ("INSERT INTO player_totals (player, wagered, won, net, wins)"
               " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::bigint[], %s::bigint[], %s::bigint[])"
               " ON CONFLICT (player) DO UPDATE SET wagered = player_totals.wagered + excluded.wagered,"
               " won = player_totals.won + excluded.won, net = player_totals.net + excluded.net,"
               " wins = player_totals.wins + excluded.wins")
_DELETE_PENDING = ("DELETE FROM pending_outcomes USING unnest(%s::text[], %s::text[]) AS d(scope, key)"
                   " WHERE pending_outcomes.scope = d.scope AND pending_outcomes.key = d.key")


def in_doubt_notice(table: str, amount: int) -> str:
    return (f"Your wager of {amount} chips at table {table} could not be confirmed when the "
            f"database failed; it has been refunded to your wallet.")


class PostgresStore(SQLStore):
    """The `Store` protocol over one PostgreSQL database."""

    _w: PgConn
    _r: PgConn

    def __init__(self, url: str, *, recent_keys: int = RECENT_KEYS, shard: LedgerShard | None = None) -> None:
        super().__init__(recent_keys)
        if shard is not None:
            self.shard, self.tables = shard.name, shard.tables
        self.db = Database.parse(url)
        self.dialect = dialect_of(self.db)
        self._w = self._writer()
        try:
            self._r = PgConn(self.db.url)
            self._load()
        except BaseException:
            self._w.close()
            raise
        self._committing = False
        self._in_doubt: list[Op] = []      # holds of a batch whose COMMIT's outcome is unknown
        self._resync = False               # hand back every balance with the next batch

    def _writer(self) -> PgConn:
        """A new writer connection, holding the ledger's lock, with the schema migrated."""
        import psycopg
        w = PgConn(self.db.url)
        try:
            w.execute(f"SET lock_timeout = '{LOCK_WAIT}'")
            try:
                if self.shard is None:
                    w.execute("SELECT pg_advisory_lock(?)", (POSTGRES_LOCK,))
                else:
                    w.execute("SELECT pg_advisory_lock_shared(?)", (POSTGRES_LOCK,))
            except psycopg.errors.LockNotAvailable:
                raise LedgerError(f"{self.db.shown} is held: another process has this ledger open") from None
            if self.shard is not None:
                try:
                    w.execute("SELECT pg_advisory_lock(?, hashtext(?))", (SHARD_LOCK, self.shard))
                except psycopg.errors.LockNotAvailable:
                    raise LedgerError(f"{self.db.shown}: another process writes shard {self.shard!r}") from None
            w.execute("RESET lock_timeout")
            migrate(w, self.dialect)
            if self.shard is not None:
                w.execute(_SHARD_ACCOUNTS, (self.shard, self.shard))
        except BaseException:
            w.close()
            raise
        return w

    def _load(self) -> None:
        super()._load()
        self._raw = self._w.raw.cursor()     # psycopg's own cursor, for COPY

    def _write(self, batch: Batch) -> None:
        """Write a judged batch's rows in at most eight statements, whatever its size.

        The appended rows go by COPY (text format: as fast as binary here, and
        no types to declare), the changed ones by one statement over arrays.
        A hold closed twice, or already closed, updates fewer rows than the
        batch has closings: MirrorMismatch, as with SQLite's executemany.
        """
        c = self._raw
        for sql, rows in ((_COPY_ACCOUNTS, batch.account_rows), (_COPY_OPS, batch.op_rows),
                          (_COPY_HOLDS, batch.hold_rows)):
            if rows:
                with c.copy(sql) as copy:
                    for row in rows:
                        copy.write_row(row)
        if batch.close_rows:
            ops, holds = zip(*batch.close_rows)
            c.execute(_CLOSE_HOLDS, (list(ops), list(holds)))
            if c.rowcount != len(batch.close_rows):
                raise MirrorMismatch(f"closed {c.rowcount} holds, the mirror expected {len(batch.close_rows)}")
        if batch.legs:
            with c.copy(_COPY_ENTRIES) as copy:
                for leg in batch.legs:
                    copy.write_row(leg)
        epochs = batch.epochs
        if epochs is None:
            deltas = [(a, d) for a, d in batch.deltas.items() if d]
        else:   # a shard's own wallets at their epochs, even those a batch moved by net 0
            owned = [(a, d, epochs[a]) for a, d in batch.deltas.items() if a in epochs]
            if owned:
                ids, moved_by, at = map(list, zip(*owned))
                c.execute(_UPDATE_OWNED, (ids, moved_by, at))
                if c.rowcount != len(owned):
                    raise Fenced(set(ids) - {row[0] for row in c.fetchall()})
            deltas = [(a, d) for a, d in batch.deltas.items() if d and a not in epochs]
        if deltas:
            accounts, changes = zip(*deltas)
            c.execute(_UPDATE_BALANCES, (list(accounts), list(changes)))
        if batch.pending_done:
            scopes, keys = zip(*batch.pending_done)
            c.execute(_DELETE_PENDING, (list(scopes), list(keys)))
        if batch.totals:
            players = list(batch.totals)
            columns = zip(*batch.totals.values())      # wagered, won, net, wins
            c.execute(_ADD_TOTALS, (players, *map(list, columns)))

    # -- a broken connection ------------------------------------------------------------

    def _connected(self) -> None:
        """Before any write: a broken writer connection is replaced and the mirror reloaded."""
        if not self._w.broken:
            return
        self._w.close()
        self._w = self._writer()          # raises while the server is away: the call fails
        self._load()
        self._resync = True
        log.warning("ledger reconnected to %s; mirror reloaded", self.db.shown)

    def _rollback(self) -> None:
        if not self._w.broken:            # a lost connection's transaction is gone with it
            super()._rollback()

    def _commit(self) -> None:
        # Left True when the COMMIT raises: apply_batch's handler, reached after the
        # rollback, must still tell a broken COMMIT from an earlier failure.
        self._committing = True
        super()._commit()
        self._committing = False

    def apply_batch(self, items: Sequence[Item],
                    before_commit: Callable[[], None] | None = None,
                    moved: dict[str, Balance] | None = None) -> list[object]:
        self._connected()
        if self._in_doubt:
            self._refund_in_doubt()
        claims = [i for i in items if type(i) is Claim]
        if claims:                   # first, in a transaction of their own: the batch may use them
            return self._claiming(claims, items, before_commit, moved)
        self._committing = False
        try:
            results = super().apply_batch(items, before_commit, moved)
        except Exception:
            if self._committing and self._w.broken:
                self._in_doubt += [i for i in items if isinstance(i, Op) and i.kind is Kind.HOLD]
            raise
        if self._resync and moved is not None:
            for player in self.mirror.owners.values():
                moved.setdefault(player, self.mirror.balance(player))
            self._resync = False
        return results

    def _claiming(self, claims: list[Claim], items: Sequence[Item],
                  before_commit: Callable[[], None] | None,
                  moved: dict[str, Balance] | None) -> list[object]:
        """A batch with claims: the claims, then the rest as a batch (results in order)."""
        got = self.claim(sorted({p for c in claims for p in c.players}))
        if moved is not None:
            moved.update(got)
        rest = [i for i in items if type(i) is not Claim]
        done = iter(self.apply_batch(rest, before_commit, moved) if rest else ())
        if not rest and before_commit is not None:
            before_commit()
        return [{p: got[p] for p in i.players} if type(i) is Claim else next(done) for i in items]

    def claim(self, players: Sequence[str]) -> dict[str, Balance]:
        """Take these players' wallets for this shard (their epochs move on, so the shard
        that had them can write them no more), and read them as they are now: the
        balance, and the chips held at any table. A player with no wallet yet gets one
        at the first mint. Called from the writer thread, as `apply_batch` is."""
        assert self.shard is not None, "only a shard claims wallets"
        self._connected()
        c = self._raw
        self._w.execute(self.dialect.begin_write)
        try:
            c.execute(_CLAIM, (self.shard, list(players)))
            wallets = [(int(i), o, int(e), int(b)) for i, o, e, b in c.fetchall()]
            c.execute(_OPEN_HOLDS_OF, (list(players),))
            holds = [(int(i), t, h, p, int(a)) for i, t, h, p, a in c.fetchall()]
            self._commit()
        except BaseException:
            self._rollback()
            raise
        self.mirror.claimed(wallets, holds, players)
        return {player: self.mirror.balance(player) for player in players}

    def _refund_in_doubt(self) -> None:
        """Refund the holds of an in-doubt COMMIT that did land (see the module's note)."""
        landed = [op for op in self._in_doubt
                  if op.table is not None and (op.table, op.key) in self.mirror.holds]
        told: list[tuple[str, str]] = []

        def judge(batch: Batch) -> None:
            told.clear()
            for op in landed:
                assert op.table is not None and op.player is not None
                batch.apply(Op.refund(f"doubt:{op.table}:{op.key}", op.table, op.key,
                                      scope=RECOVERY_SCOPE))
                told.append((op.player, in_doubt_notice(op.table, op.amount)))
            if told:
                self._c.executemany(_INSERT_NOTICE, [(p, t, batch.now) for p, t in told])

        if landed:
            batch, _ = self._transaction(judge)
            batch.merge()
            log.warning("ledger refunded wagers of an in-doubt commit count=%d", len(landed))
        self._in_doubt = []

    def record_outcomes(self, ops: Sequence[Op]) -> None:
        self._connected()
        super().record_outcomes(ops)

    def recover(self) -> list[Recovered]:
        """As SQLStore's; a shard first takes the wallets of its tables' open holds it does
        not own (a player handed to another shard with chips on the table), so every hold
        of its tables closes."""
        self._connected()
        epochs, tables = self.mirror.epochs, self.tables
        if epochs is not None and tables is not None:
            players = sorted({player for (table, _), (_, player, _) in self.mirror.holds.items()
                              if table in tables and self.mirror.ids.get(("wallet", player)) not in epochs})
            if players:
                log.warning("ledger recovery takes wallets of held players count=%d", len(players))
                self.claim(players)
        return super().recover()

    # -- reads: a broken reader connection is replaced once per call ---------------------

    def _reading(self, read: Callable[[], T]) -> T:
        if self._r.broken:
            self._r.close()
            self._r = PgConn(self.db.url)
        try:
            return read()
        except self.dialect.operational_error:
            if not self._r.broken:
                raise
            self._r.close()
            self._r = PgConn(self.db.url)
            return read()

    def balance(self, player: str) -> Balance:
        return self._reading(lambda: SQLStore.balance(self, player))

    def balances(self, players: list[str]) -> dict[str, Balance]:
        return self._reading(lambda: SQLStore.balances(self, players))

    def statement(self, player: str, n: int) -> list[Movement]:
        return self._reading(lambda: SQLStore.statement(self, player, n))

    def board(self, board: str, page: int, asker: str, excluded: list[str]) -> Board:
        return self._reading(lambda: SQLStore.board(self, board, page, asker, excluded))

    def stats(self, player: str, groups: Mapping[str, str] | None = None) -> PlayerStats:
        return self._reading(lambda: SQLStore.stats(self, player, groups))

    def last_minted(self, prefix: str) -> float | None:
        return self._reading(lambda: SQLStore.last_minted(self, prefix))

    def open_holds(self, player: str) -> dict[str, int]:
        return self._reading(lambda: SQLStore.open_holds(self, player))

    def figures(self) -> dict[str, int]:
        return self._reading(lambda: SQLStore.figures(self))

    def close(self) -> None:
        """Release the lock before closing: the server drops a closed session's locks only
        once its backend has ended, after `close()` returns, so a ledger opened again at
        once (a restart) would find the lock still held."""
        self._r.close()
        try:
            if not self._w.broken and self.shard is None:
                self._w.execute("SELECT pg_advisory_unlock(?)", (POSTGRES_LOCK,))
            elif not self._w.broken:
                self._w.execute("SELECT pg_advisory_unlock(?, hashtext(?))", (SHARD_LOCK, self.shard))
                self._w.execute("SELECT pg_advisory_unlock_shared(?)", (POSTGRES_LOCK,))
        except self.dialect.operational_error:
            pass                    # the connection is gone, and its lock with it
        finally:
            self._w.close()

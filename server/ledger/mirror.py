"""The writer's in-memory picture of the ledger, and one batch judged against it.

Why this exists: judging an operation in SQL costs several statements and a
SAVEPOINT each, and that writer CPU (the GIL is shared with the event loop)
was what capped group commit. The writer is the only writer of the file (an
exclusive flock per process, one writer thread), so everything it needs to
judge an operation can live in memory, loaded once at open: account ids,
wallet balances, open holds, the most recent applied keys with their canonical
arguments, and the recorded outcomes. The `Mirror` is that picture; it always
agrees with the committed file.

Only the `recent_keys` most recent keys are kept (oldest evicted first after
each commit), so memory and start-up time stay bounded in a server that runs
for months. A key is a cache, not the truth: an operation whose key the mirror
does not hold is judged as new, and only if that judging refuses it, or the
file refuses its row (UNIQUE (scope, key)), is the key looked up in the file
(`Batch.recall`, the store's conflict path). A retry arriving after its key
was evicted is thus still a no-op, and a reused key still a KeyConflict; the
common path never reads the file.

A `Batch` is an overlay on the mirror. Each operation is judged against the
mirror plus the overlay (so a wager sees an earlier win of the same batch);
every check comes before any change, so a refused operation changes nothing.
An accepted one adds its effects to the overlay and the rows to write. The
store writes all rows with a few `executemany` in one transaction, and calls
`merge` only after COMMIT returned; if the commit fails the batch is dropped
and the mirror still equals the file.
"""
from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Iterable

from server.db.connection import Conn, PgConn
from server.ledger.errors import (
    InsufficientFunds,
    KeyConflict,
    NotOwned,
    Refused,
    UnknownPlayer,
    UnknownStake,
)
from server.ledger.ops import CLOSING, Balance, Kind, Op, wagers
from server.ledger.schema import ID_BLOCK, ID_BLOCKS

NO_END = 1 << 62                       # the end of an SQLite writer's ids: it is the only writer
# Applied keys kept in memory. Retries come within seconds of the original (a failed
# settlement is retried every 2 s), and after a restart only recorded outcomes (kept
# apart, in full) are retried: 200,000 keys is half an hour at 100 operations a second.
RECENT_KEYS = 200_000

# Enum member and `.value` lookups are Python-level descriptor calls; the writer
# judges every operation, so it compares against these plain references instead.
_MINT, _HOLD, _SETTLE, _REFUND = Kind.MINT, Kind.HOLD, Kind.SETTLE, Kind.REFUND
_VALUE = {k: k.value for k in Kind}

Key = tuple[str, str]                  # (scope, key) of an operation, (table, handle) of a hold
AccountRow = tuple[int, str, str, "str | None", int]   # id, kind, owner, shard, epoch
Sig = tuple[str, str]                  # (kind, canonical args): equal means the same operation
OpenHold = tuple[int, str, int]        # (hold id, player, amount)
Closed = list[tuple[str, str, int]]    # (handle, player, amount) of each stake an operation closed


class Mirror:
    """What the writer judges with, equal to the committed file except that `ops` holds only
    recent keys (`Batch.merge` applies a commit; `remember` and `trim` only move keys in and
    out of that cache)."""

    def __init__(self, conn: Conn, recent_keys: int = RECENT_KEYS, shard: str | None = None) -> None:
        """Load from `conn` (call inside a transaction, or with no writer running); of the
        applied keys, only the `recent_keys` most recent. `shard`: the shard this writer
        is (docs/ledger.md, "Shards"): its own house and mint, and it judges only the
        wallets it owns; None for the one writer of a casino naming no shards."""
        if recent_keys < 1:
            raise ValueError(f"recent_keys must be >= 1, got {recent_keys}")
        q = conn.execute
        self.recent_keys = recent_keys
        self.shard = shard
        self.ids: dict[Key, int] = {(k, o): i for i, k, o in q("SELECT id, kind, owner FROM accounts")}
        self.house = self.ids[("house", shard or "")]     # the store makes a shard's own first
        self.mint = self.ids[("mint", shard or "")]
        # wallet id -> epoch of each wallet this shard owns (None: it owns every wallet)
        self.epochs: dict[int, int] | None = None if shard is None else dict(
            q("SELECT id, epoch FROM accounts WHERE kind = 'wallet' AND shard = ?", (shard,)))
        self.wallets: dict[int, int] = dict(q("SELECT id, balance FROM accounts WHERE kind = 'wallet'"))
        self.holds: dict[Key, OpenHold] = {
            (t, h): (i, p, a) for i, t, h, p, a in
            q("SELECT id, table_id, handle, player, amount FROM holds WHERE closed_by IS NULL")}
        # by player, what a balance reports: the wallet's owner, and chips held per table
        self.owners: dict[int, str] = {i: o for (kind, o), i in self.ids.items() if kind == "wallet"}
        self.held: dict[str, dict[str, int]] = {}
        for (table, _), (_, player, amount) in self.holds.items():
            self._held(player, table, amount)
        newest_first = q("SELECT scope, key, kind, args FROM operations ORDER BY id DESC LIMIT ?",
                         (recent_keys,)).fetchall()
        newest_first.reverse()
        # insertion order is age: `order` names the keys of `ops`, oldest first (a deque, because
        # evicting from the front of a dict leaves holes every later eviction would scan)
        self.ops: dict[Key, Sig] = {(s, k): (kind, a) for s, k, kind, a in newest_first}
        self.order: deque[Key] = deque(self.ops)
        self.pending: dict[Key, Sig] = {(s, k): (kind, a) for s, k, kind, a in
                                        q("SELECT scope, key, kind, args FROM pending_outcomes")}
        # Ids: PostgreSQL's writers draw blocks (schema.ID_BLOCK; several shards write one
        # database), SQLite's one writer counts on from the largest. Each counter is its
        # next id and the end of its block.
        self._conn = conn
        self.blocks = isinstance(conn, PgConn)
        if self.blocks:
            self.next_op = self.end_op = self.next_transfer = self.end_transfer = 0
            self.next_account = self.end_account = 0
        else:       # (a database row's values are Any: these columns are integers)
            self.next_op = q("SELECT COALESCE(MAX(id), 0) FROM operations").fetchone()[0] + 1
            self.next_transfer = q("SELECT COALESCE(MAX(transfer), 0) FROM entries").fetchone()[0] + 1
            self.next_account = q("SELECT COALESCE(MAX(id), 0) FROM accounts").fetchone()[0] + 1
            self.end_op = self.end_transfer = self.end_account = NO_END

    def block(self) -> tuple[int, int]:
        """A new block of ids, first and end (PostgreSQL: one nextval, in the writer's
        transaction; a block a rolled-back batch drew is simply skipped)."""
        first = int(self._conn.execute(f"SELECT nextval('{ID_BLOCKS}')").fetchone()[0]) * ID_BLOCK
        return first, first + ID_BLOCK

    def claimed(self, wallets: Iterable[tuple[int, str, int, int]],
                holds: Iterable[tuple[int, str, str, str, int]], players: Iterable[str]) -> None:
        """This shard took these wallets (id, owner, epoch, balance, as committed), and
        these are every open hold of `players`, wherever they are."""
        assert self.epochs is not None, "only a shard claims wallets"
        for account, owner, epoch, balance in wallets:
            self.ids[("wallet", owner)] = account
            self.owners[account] = owner
            self.wallets[account] = balance
            self.epochs[account] = epoch
        players = set(players)
        for hk, (_, player, amount) in [(hk, h) for hk, h in self.holds.items() if h[1] in players]:
            del self.holds[hk]
            self._held(player, hk[0], -amount)
        for hold_id, table, handle, player, amount in holds:
            self.holds[(table, handle)] = (hold_id, player, amount)
            self._held(player, table, amount)

    def disown(self, wallets: Iterable[int]) -> None:
        """Another shard took these wallets: this one writes them no more."""
        assert self.epochs is not None
        for account in wallets:
            self.epochs.pop(account, None)

    def _held(self, player: str, table: str, amount: int) -> None:
        tables = self.held.setdefault(player, {})
        left = tables.get(table, 0) + amount
        if left:
            tables[table] = left
        else:
            del tables[table]
            if not tables:
                del self.held[player]

    def balance(self, player: str) -> Balance:
        """The player's committed balance (what reads.balances finds in the file)."""
        wallet = self.ids.get(("wallet", player))
        return Balance(wallet=self.wallets.get(wallet, 0) if wallet else 0,
                       held=dict(self.held.get(player, ())))

    def remember(self, keys: Iterable[tuple[Key, Sig]]) -> None:
        """Hold applied keys again (looked up in the file), as the newest."""
        ops, order = self.ops, self.order
        for k, sig in keys:
            if k not in ops:                  # `order` names each held key once
                ops[k] = sig
                order.append(k)

    def trim(self) -> None:
        """Forget the oldest keys beyond `recent_keys` (they stay in the file)."""
        excess = len(self.ops) - self.recent_keys
        if excess > 0:
            ops, oldest = self.ops, self.order.popleft
            for _ in range(excess):
                del ops[oldest()]

    def snapshot(self) -> tuple[object, ...]:
        """Everything the mirror holds, for tests comparing it with a fresh load (a fresh
        load draws no block yet: the counters of block-drawing mirrors are left out)."""
        counters = None if self.blocks else (self.next_op, self.next_transfer, self.next_account)
        return (self.ids, self.wallets, self.holds, self.ops, self.pending,
                counters, self.owners, self.held, self.epochs)


class Batch:
    """One group commit's overlay on the mirror, and the rows it will write."""

    def __init__(self, mirror: Mirror, now: float,
                 stored: Callable[[Key], Sig | None] | None = None) -> None:
        """`stored` reads a key's (kind, args) from the file: asked only when a key the
        mirror does not hold might have been evicted (see `recall`)."""
        self.m = mirror
        self.now = now
        self.stored = stored
        self.ops: dict[Key, Sig] = {}              # keys accepted in this batch
        self.accounts: dict[Key, int] = {}         # accounts created in this batch
        self.new_wallets: list[int] = []
        self.opened: dict[Key, OpenHold] = {}      # holds opened in this batch
        self.closed: set[Key] = set()              # holds (mirror's or batch's) closed in this batch
        self.deltas: defaultdict[int, int] = defaultdict(int)   # account id -> balance change
        self.pending_done: list[Key] = []          # recorded outcomes this batch completed
        self.next_op, self.end_op = mirror.next_op, mirror.end_op
        self.next_transfer, self.end_transfer = mirror.next_transfer, mirror.end_transfer
        self.next_account, self.end_account = mirror.next_account, mirror.end_account
        self.house, self.mint, self.epochs = mirror.house, mirror.mint, mirror.epochs
        # rows to write, in the columns order of sqlite_store's statements
        self.account_rows: list[AccountRow] = []
        self.op_rows: list[tuple[int, str, str, str, str | None, str, float]] = []
        self.hold_rows: list[tuple[int, str, str, str, int]] = []
        self.close_rows: list[tuple[int, int]] = []
        self.legs: list[tuple[int, int, int, int]] = []
        # player -> [wagered, won, net, wins] this batch's settlements add to `player_totals`
        # (written with the batch's rows: the totals always agree with the settlements)
        self.totals: dict[str, list[int]] = {}

    # -- judging ------------------------------------------------------------------------

    def apply(self, op: Op) -> Closed | None:
        """Judge `op`; accept it into the batch, or raise a Refused/KeyConflict having changed nothing.

        Returns None for a retry of an applied operation (it changes nothing),
        else the stakes it closed (empty for a mint or a wager).
        """
        k = (op.scope, op.key)
        kind = op.kind
        sig = (_VALUE[kind], op.args_json())
        seen = self.m.ops.get(k) or self.ops.get(k)
        if seen is not None:
            if seen == sig:
                return None
            raise KeyConflict(f"key {op.key!r} ({op.scope}) was {seen[0]} {seen[1]}, now {sig[0]} {sig[1]}")
        recorded = self.m.pending.get(k) if self.m.pending and kind in CLOSING else None
        if recorded is not None and recorded != sig:
            if self.recall(k, sig):
                return None
            raise KeyConflict(f"key {op.key!r} ({op.scope}) has a pending {recorded}, now {sig[1]}")
        if kind is _MINT:
            return self._mint(op, k, sig)        # never refused: an evicted key shows at the write
        try:
            if kind is _HOLD:
                return self._hold(op, k, sig)
            closed = self._close(op, k, sig)
        except Refused:
            # A retry whose key was evicted is refused afresh (its stakes are closed, its chips
            # spent): the file tells whether it was applied. Only refusals pay for the lookup.
            if self.recall(k, sig):
                return None
            raise
        if recorded is not None:
            self.pending_done.append(k)
        return closed

    def recall(self, k: Key, sig: Sig) -> bool:
        """Is the key, absent from mirror and batch, applied in the file? True if as this very
        operation (a retry: the key is remembered again); KeyConflict if as another one."""
        stored = self.stored(k) if self.stored is not None else None
        if stored is None:
            return False
        self.m.remember([(k, stored)])
        if stored != sig:
            raise KeyConflict(f"key {k[1]!r} ({k[0]}) was {stored[0]} {stored[1]}, "
                              f"now {sig[0]} {sig[1]}") from None
        return True

    def _mint(self, op: Op, k: Key, sig: Sig) -> Closed:
        player = op.player
        assert player is not None, "Op.mint names the player"
        wallet = self._wallet(player) or self._create("wallet", player)
        self._move(self._op_row(op, k, sig), self.mint, wallet, op.amount)
        return []

    def _hold(self, op: Op, k: Key, sig: Sig) -> Closed:
        player, table = op.player, op.table
        assert player is not None and table is not None, "Op.hold names player and table"
        wallet = self._wallet(player)
        if wallet is None:
            raise InsufficientFunds(player, op.amount, 0)
        balance = self.m.wallets.get(wallet, 0) + self.deltas.get(wallet, 0)
        if balance < op.amount:
            raise InsufficientFunds(player, op.amount, balance)
        pending = self._id("pending", table) or self._create("pending", table)
        op_id = self._op_row(op, k, sig)
        self.hold_rows.append((op_id, table, op.key, player, op.amount))
        self.opened[(table, op.key)] = (op_id, player, op.amount)
        self._move(op_id, wallet, pending, op.amount)
        return []

    def _close(self, op: Op, k: Key, sig: Sig) -> Closed:
        table = op.table
        assert table is not None, "a closing Op names its table"
        holds, opened, closed_here = self.m.holds, self.opened, self.closed
        found: list[tuple[Key, OpenHold]] = []
        for handle in op.stakes:
            hk = (table, handle)
            hold = None if hk in closed_here else (holds.get(hk) or opened.get(hk))
            if hold is None:
                raise UnknownStake(f"table={table} stake={handle} is not an open hold")
            found.append((hk, hold))
        payees: list[tuple[int, int]] = []
        for player, pay in op.pays:
            wallet = self._wallet(player)
            if wallet is None:
                raise UnknownPlayer(f"no wallet for payee {player!r}")
            payees.append((wallet, pay))
        if op.kind is _REFUND and self.epochs is not None:     # a shard judges the wallets it refunds
            for _, (_, player, _) in found:
                self._wallet(player)
        # judged: from here on nothing can refuse
        op_id = self._op_row(op, k, sig)
        pending = self._id("pending", table)     # exists: it holds the stakes just found
        assert pending is not None
        closed: Closed = []
        total = 0
        staked: dict[str, int] = {}
        for hk, (hold_id, player, amount) in found:
            closed_here.add(hk)
            self.close_rows.append((op_id, hold_id))
            closed.append((hk[1], player, amount))
            total += amount
            staked[player] = staked.get(player, 0) + amount
        if op.kind is not _REFUND:            # a refunded bet was never played: no totals
            self._count(staked, op.pays, wagers(closed, op.risked))
        if op.kind is _SETTLE:
            for wallet, pay in payees:
                from_stakes = min(total, pay)
                self._move(op_id, pending, wallet, from_stakes)
                self._move(op_id, self.house, wallet, pay - from_stakes)
                total -= from_stakes
            self._move(op_id, pending, self.house, total)
        elif op.kind is _REFUND:
            for _, player, amount in closed:
                wallet = self._id("wallet", player)
                assert wallet is not None, "a hold's player has a wallet (holding needs one)"
                self._move(op_id, pending, wallet, amount)
        else:
            self._move(op_id, pending, self.house, total)
        return closed

    # -- effects (only after an operation is judged) --------------------------------------

    def _count(self, staked: dict[str, int], pays: tuple[tuple[str, int], ...],
               wagered: dict[str, int]) -> None:
        """One settlement's part in each player's totals: what they staked in it and what
        it paid them (a forfeit pays nothing); `wagered` is what counts as their wager
        (ops.wagers: not a charge; an escrow's settlement says what was at risk)."""
        totals = self.totals
        paid = dict(pays)
        for player in (staked.keys() | paid.keys()) if paid else staked:
            gain = paid.get(player, 0) - staked.get(player, 0)
            t = totals.get(player)
            if t is None:
                t = totals[player] = [0, 0, 0, 0]
            t[0] += wagered.get(player, 0)
            t[2] += gain
            if gain > 0:
                t[1] += gain
                t[3] += 1

    def _id(self, kind: str, owner: str) -> int | None:
        k = (kind, owner)
        return self.m.ids.get(k) or self.accounts.get(k)

    def _wallet(self, player: str) -> int | None:
        """The player's wallet id (None: no wallet yet), if this writer may write it: a
        shard writes only the wallets it owns (NotOwned, judged before any change)."""
        wallet = self.m.ids.get(("wallet", player))
        if wallet is None:
            return self.accounts.get(("wallet", player))
        if self.epochs is not None and wallet not in self.epochs:
            raise NotOwned(f"the wallet of {player} is written by another shard")
        return wallet

    def _create(self, kind: str, owner: str) -> int:
        account = self.next_account
        if account >= self.end_account:
            account, self.end_account = self.m.block()
        self.next_account = account + 1
        self.accounts[(kind, owner)] = account
        shard = self.m.shard
        # a new wallet is this shard's at epoch 1; a claim by another makes it 2 (and on)
        self.account_rows.append((account, kind, owner, shard, 1 if kind == "wallet" and shard else 0))
        if kind == "wallet":
            self.new_wallets.append(account)
        return account

    def _op_row(self, op: Op, k: Key, sig: Sig) -> int:
        op_id = self.next_op
        if op_id >= self.end_op:
            op_id, self.end_op = self.m.block()
        self.next_op = op_id + 1
        self.ops[k] = sig
        self.op_rows.append((op_id, op.scope, op.key, sig[0], op.table, sig[1], self.now))
        return op_id

    def _move(self, op_id: int, src: int, dst: int, amount: int) -> None:
        """One transfer: two legs summing to zero, and the same change to both balances."""
        if amount:
            t = self.next_transfer
            if t >= self.end_transfer:
                t, self.end_transfer = self.m.block()
            self.next_transfer = t + 1
            self.legs.append((op_id, t, src, -amount))
            self.legs.append((op_id, t, dst, amount))
            d = self.deltas
            d[src] -= amount
            d[dst] += amount

    # -- after COMMIT ------------------------------------------------------------------

    def open_holds(self) -> list[tuple[Key, OpenHold]]:
        """Holds open in mirror plus batch, in the order they were made (for recovery)."""
        live = {**self.m.holds, **self.opened}
        return sorted(((k, h) for k, h in live.items() if k not in self.closed), key=lambda kh: kh[1][0])

    def merge(self, moved: dict[str, Balance] | None = None) -> None:
        """The batch is durable: make the mirror equal the file again. `moved`,
        when given, gets the new balance of every player the batch changed."""
        m = self.m
        m.ops.update(self.ops)
        m.order.extend(self.ops)
        m.trim()
        m.ids.update(self.accounts)
        wallets, owners, holds = m.wallets, m.owners, m.holds
        for account in self.new_wallets:
            wallets[account] = 0
            if m.epochs is not None:
                m.epochs[account] = 1
        for (kind, owner), account in self.accounts.items():
            if kind == "wallet":
                owners[account] = owner
        changed: set[str] = set()
        for account, delta in self.deltas.items():
            if account in wallets:
                wallets[account] += delta
                changed.add(owners[account])
        for hk, hold in self.opened.items():
            holds[hk] = hold
            m._held(hold[1], hk[0], hold[2])
            changed.add(hold[1])
        for hk in self.closed:
            _, player, amount = holds.pop(hk)
            m._held(player, hk[0], -amount)
            changed.add(player)
        for k in self.pending_done:
            m.pending.pop(k, None)
        m.next_op, m.next_transfer, m.next_account = self.next_op, self.next_transfer, self.next_account
        m.end_op, m.end_transfer, m.end_account = self.end_op, self.end_transfer, self.end_account
        if moved is not None:
            for player in changed:
                moved[player] = m.balance(player)

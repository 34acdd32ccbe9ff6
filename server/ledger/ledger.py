"""The async face of the ledger: what tables and commands await.

Each money call returns only once its operation is durable (or raises: a
`Refused` kind when nothing moved, `LedgerUnavailable` when the write failed
and the outcome is pending recovery). Writes go through the group-commit
writer thread; reads run on a separate reader thread. Nothing here blocks the
event loop.

Balances are answered on the loop itself once known: a trip to the reader
thread and back costs the asker a wake-up of another thread and the GIL
twice, the slowest reply in a crowd (docs/performance.md). The writer hands
back, with each batch's results, the new balance of every player the batch
changed (it knows them from its mirror, which equals the committed file), and
the first read of any other player fills in the rest.
"""
from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar, cast

from server.ledger.errors import LedgerClosed, Refused
from server.ledger.mirror import RECENT_KEYS
from server.ledger.boards import Board
from server.ledger.ops import Balance, Claim, LeaveNotice, Movement, Op, Recovered, ShowOnBoards, TakeNotices
from server.ledger.shards import LedgerShard
from server.db.url import Database
from server.ledger.stats import PlayerStats
from server.ledger.store import Store, open_store
from server.ledger.writer import GroupCommitWriter

T = TypeVar("T")


class Ledger:
    """Double-entry chips with holds; open with `await Ledger.open(path)`."""

    def __init__(self, store: Store, recovered: list[Recovered]) -> None:
        self.store = store
        self.recovered = recovered
        # Committed balances known on the loop: every player a batch changed since
        # start and every player read since. Never evicted (one per active player),
        # so a read that raced a write only fills in a player no batch has told of.
        self._known: dict[str, Balance] = {}
        self._writer = GroupCommitWriter(store, self._known.update)
        # each call awaits the writer's future directly: no coroutine in between
        self._submit = self._writer.submit
        self._reader = ThreadPoolExecutor(max_workers=1, thread_name_prefix="casino-ledger-reader")
        self._closed = False
        self._asking: dict[str, list[asyncio.Future[Balance]]] = {}   # balances for the next read
        self._reading = False                                        # a balance read is on the reader

    @classmethod
    async def open(cls, where: str | Path | Database, *, recent_keys: int = RECENT_KEYS,
                   shard: LedgerShard | None = None) -> Ledger:
        """Create or migrate the database, run start-up recovery, start the writer.

        `where` is a Database, a URL (sqlite:///..., postgresql://...) or an
        SQLite file's path. The writer keeps the `recent_keys` most recent
        idempotency keys in memory; older ones are looked up in the database
        when needed (docs/ledger.md). `shard`: this ledger is that shard's writer,
        beside the other shards' on one PostgreSQL database (docs/ledger.md, "Shards")."""
        db = where if isinstance(where, Database) else Database.parse(where)

        def start() -> tuple[Store, list[Recovered]]:
            store = open_store(db, recent_keys, shard)
            try:
                return store, store.recover()
            except BaseException:
                store.close()
                raise

        store, recovered = await asyncio.to_thread(start)
        return cls(store, recovered)

    async def mint(self, key: str, player: str, amount: int, reason: str) -> None:
        """Create chips into a player's wallet (starting chips, an operator grant)."""
        await self._submit(Op.mint(key, player, amount, reason))

    async def hold(self, key: str, player: str, table: str, amount: int) -> None:
        """Move a wager to the table's pending account; `key` is the stake handle."""
        await self._submit(Op.hold(key, player, table, amount))

    async def settle(self, key: str, table: str, stakes: Sequence[str],
                     pays: Mapping[str, int], risked: Mapping[str, int] | None = None) -> None:
        """Close `stakes`, pay `pays` to wallets; the rest of the stakes goes to the house
        (when pays exceed the stakes, the house pays the difference). `risked`: what each
        player had at risk, when that is not what the stakes held (Op.settle)."""
        await self._submit(Op.settle(key, table, stakes, pays, risked))

    async def refund(self, key: str, table: str, stake: str) -> None:
        await self._submit(Op.refund(key, table, stake))

    async def forfeit(self, key: str, table: str, stake: str) -> None:
        await self._submit(Op.forfeit(key, table, stake))

    async def notify(self, player: str, text: str) -> None:
        """Keep `text` for the player's next login (`take_notices`); returns once durable."""
        await self._submit(LeaveNotice(player, text))

    async def show_on_boards(self, player: str, shown: bool) -> None:
        """`set leaderboard on|off`: list the player on `top`'s boards or not; durable on return."""
        await self._submit(ShowOnBoards(player, shown))

    async def take_notices(self, player: str) -> list[str]:
        """Fetch and clear what the ledger has to tell a player (recovery results)."""
        # the store answers a TakeNotices with the texts it took (Store.apply_batch)
        return cast("list[str]", await self._submit(TakeNotices(player)))

    async def claim(self, players: Sequence[str]) -> dict[str, Balance]:
        """Take these players' wallets for this shard (they arrived on it); their balances
        as they are now. Only a shard's ledger claims (else each is Refused)."""
        got = await self._submit(Claim(tuple(players)))
        if isinstance(got, Refused):
            raise got
        return cast("dict[str, Balance]", got)

    async def _read(self, read: Callable[[], T]) -> T:
        """`read` (a store read) on the reader thread."""
        if self._closed:
            raise LedgerClosed("the ledger is closed")
        return await asyncio.get_running_loop().run_in_executor(self._reader, read)

    async def balance(self, player: str) -> Balance:
        """The player's wallet and open holds, as committed when asked.

        Known on the loop for anyone a write changed or a read found since
        start; a balance asked for after a write has returned always sees that
        write (its batch's balances reached the loop before its result did).
        Balances not known yet, asked for while a read is on the reader thread,
        are read together in the next one (one snapshot, one thread hop)."""
        if self._closed:
            raise LedgerClosed("the ledger is closed")
        known = self._known.get(player)
        if known is not None:
            return Balance(known.wallet, dict(known.held))
        future: asyncio.Future[Balance] = asyncio.get_running_loop().create_future()
        self._asking.setdefault(player, []).append(future)
        if not self._reading:
            self._read_balances()
        return await future

    def _read_balances(self) -> None:
        asking, self._asking = self._asking, {}
        self._reading = True
        loop = asyncio.get_running_loop()

        def done(read: asyncio.Future[dict[str, Balance]]) -> None:
            self._reading = False
            error = LedgerClosed("the ledger is closed") if read.cancelled() else read.exception()
            for player, waiting in asking.items():
                for future in waiting:
                    if future.done():
                        continue            # its command was cancelled (a closing table)
                    if error is not None:
                        future.set_exception(error)
                    else:
                        future.set_result(read.result()[player])
            if error is None:
                for player, balance in read.result().items():
                    self._known.setdefault(player, balance)
            if self._asking and not self._closed:
                self._read_balances()
            elif self._asking:
                for waiting in self._asking.values():
                    for future in waiting:
                        if not future.done():
                            future.set_exception(LedgerClosed("the ledger is closed"))
                self._asking = {}

        loop.run_in_executor(self._reader, self.store.balances, list(asking)).add_done_callback(done)

    async def statement(self, player: str, n: int = 10) -> list[Movement]:
        return await self._read(lambda: self.store.statement(player, n))

    async def board(self, board: str, page: int, asker: str, excluded: list[str]) -> Board:
        """A page of `top`'s `board` (1-based), and where `asker` stands; `excluded`
        (the operators) are never listed."""
        return await self._read(lambda: self.store.board(board, page, asker, excluded))

    async def last_minted(self, prefix: str) -> float | None:
        """When the newest mint whose key starts with `prefix` was committed
        (epoch seconds), or None: a player's last relief, for its waiting time."""
        return await self._read(lambda: self.store.last_minted(prefix))

    async def open_holds(self, player: str) -> dict[str, int]:
        """The chips `player` has held at each table, as every shard committed them
        (not this process's mirror, which knows its own tables' holds)."""
        return await self._read(lambda: self.store.open_holds(player))

    async def stats(self, player: str, groups: Mapping[str, str] | None = None) -> PlayerStats:
        """The player's rounds and money figures, derived from committed rows
        (server.ledger.stats), per table id or per `groups[table id]`: on the
        reader thread, like `statement`."""
        return await self._read(lambda: self.store.stats(player, groups))

    async def figures(self) -> dict[str, int]:
        """The whole ledger's figures for /metrics, on the reader thread (server.ledger.reads.figures)."""
        return await self._read(self.store.figures)

    def fail_next_commits(self, n: int) -> None:
        """Test hook: the next `n` commits fail with sqlite3.OperationalError."""
        self.store.fail_next_commits(n)

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        await self._writer.close()
        await asyncio.get_running_loop().run_in_executor(self._reader, self.store.close)
        self._reader.shutdown(wait=True)

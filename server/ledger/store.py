"""The store interface: what the ledger needs from a durable backend.

The async `Ledger` and its group-commit writer speak only this protocol, so a
PostgreSQL store can replace the embedded SQLite one without touching them (server/ledger/postgres_store.py).
Threading contract: `apply_batch`, `record_outcomes` and `recover` are called
from the single writer thread; `balance`, `statement` and `stats` from one reader
thread; neither is ever called from the event loop.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from server.db.url import POSTGRES, Database
from server.ledger.boards import Board
from server.ledger.mirror import RECENT_KEYS
from server.ledger.errors import LedgerError
from server.ledger.ops import Balance, Item, Movement, Op, Recovered
from server.ledger.shards import LedgerShard
from server.ledger.stats import PlayerStats


class Store(Protocol):
    def apply_batch(self, items: Sequence[Item],
                    before_commit: Callable[[], None] | None = None,
                    moved: dict[str, Balance] | None = None) -> list[object]:
        """Apply every item in ONE durable transaction, each isolated from the others.

        Returns one result per item: a value, or the `Refused`/`KeyConflict`
        instance that refused it (that item moved nothing; the others stand).
        Returns only once the transaction is durable; raises if it is not.
        `before_commit`, when given, is called once the batch is written, just
        before COMMIT (the writer hands back the previous batch's results
        there, so the event loop works while this commit is on the disk).
        `moved`, when given, gets the committed balance of every player the
        batch changed (the ledger answers `balance` from these on the loop).
        """

    def record_outcomes(self, ops: Sequence[Op]) -> None:
        """Durably remember closing operations whose batch failed, for recovery."""

    def recover(self) -> list[Recovered]:
        """Close every open hold: complete recorded outcomes, refund the rest."""

    def balance(self, player: str) -> Balance: ...

    def balances(self, players: list[str]) -> dict[str, Balance]:
        """Each player's balance, from one snapshot."""

    def statement(self, player: str, n: int) -> list[Movement]: ...

    def board(self, board: str, page: int, asker: str, excluded: list[str]) -> Board:
        """A page of one of `top`'s boards and the asker's place (server/ledger/boards.py)."""

    def last_minted(self, prefix: str) -> float | None:
        """When the newest mint with a key starting `prefix` was written, or None."""

    def open_holds(self, player: str) -> dict[str, int]:
        """The chips `player` has held at each table, as committed (every shard's)."""

    def stats(self, player: str, groups: Mapping[str, str] | None = None) -> PlayerStats:
        """The player's rounds and money figures, from the ledger's rows (server.ledger.stats)."""

    def figures(self) -> dict[str, int]:
        """The whole ledger's figures for /metrics (server.ledger.reads.figures)."""

    def fail_next_commits(self, n: int) -> None:
        """Test hook: the next `n` commits fail as a failing disk would."""

    def close(self) -> None: ...


def open_store(db: Database, recent_keys: int = RECENT_KEYS, shard: LedgerShard | None = None) -> Store:
    """The store for `db`: an SQLite file, or a PostgreSQL database (a shard's writer, when
    `shard` is given: only PostgreSQL has several writers)."""
    if db.kind == POSTGRES:
        from server.ledger.postgres_store import PostgresStore
        return PostgresStore(db.url, recent_keys=recent_keys, shard=shard)
    if shard is not None:
        raise LedgerError(f"shard {shard.name!r}: several shards need PostgreSQL; an SQLite file has one writer")
    from server.ledger.sqlite_store import SQLiteStore
    assert db.path is not None
    return SQLiteStore(db.path, recent_keys=recent_keys)

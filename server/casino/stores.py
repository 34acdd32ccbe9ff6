"""Where the casino keeps what outlives a run: chips, accounts, time at the tables."""
from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Iterable

from server import logs
from server.accounts.store import AccountStore
from server.accounts.table_time import TableTimeStore
from server.db.url import Database

if TYPE_CHECKING:
    from server.ledger import Ledger
    from server.ledger.shards import LedgerShard

log = logging.getLogger("casino")


class Stores:
    """The ledger, the account store and the table-time store of one database.

    Opened when the casino starts (the ledger first: it recovers what a crash
    left), closed last when it stops. Asked for before then, each says the
    casino has not started rather than answer None."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self._ledger: Ledger | None = None
        self._accounts: AccountStore | None = None
        self._table_time: TableTimeStore | None = None

    async def open(self, operators: Iterable[str], shard: LedgerShard | None = None) -> None:
        """`operators`: the names an account store made before origins were kept trusts;
        `shard`: this process is that shard's ledger writer (server/casino/hosting.py)."""
        from server.ledger import Ledger
        if self.database.path is not None:
            self.database.path.parent.mkdir(parents=True, exist_ok=True)
        self._ledger = await Ledger.open(self.database, shard=shard)
        for item in getattr(self._ledger, "recovered", []) or []:
            logs.event(log, "recovery", detail=item)
        self._accounts = AccountStore(self.database, operators)
        self._table_time = TableTimeStore(self.database)

    async def close(self) -> None:
        if self._ledger:
            await self._ledger.close()
        if self._accounts:
            self._accounts.close()
        if self._table_time:
            self._table_time.close()

    @property
    def ledger(self) -> Ledger:
        """The chip ledger (open from start() on)."""
        if self._ledger is None:
            raise RuntimeError("the casino has not started: no ledger is open")
        return self._ledger

    @property
    def accounts(self) -> AccountStore:
        """The account store (open from start() on)."""
        if self._accounts is None:
            raise RuntimeError("the casino has not started: no account store is open")
        return self._accounts

    @property
    def table_time(self) -> TableTimeStore:
        """Time at the tables, beside the ledger (open from start() on)."""
        if self._table_time is None:
            raise RuntimeError("the casino has not started: no table-time store is open")
        return self._table_time

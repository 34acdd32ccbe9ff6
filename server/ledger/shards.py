"""What a shard's ledger writer is: its name, and the tables it hosts.

Several shards write one PostgreSQL ledger together (docs/ledger.md, "Shards"):
each has its own house and mint (accounts named by the shard), writes only
the wallets it owns at their epoch, and recovers only the holds of its own
tables. A casino naming no shards has one writer that is all of them.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LedgerShard:
    name: str
    tables: frozenset[str]

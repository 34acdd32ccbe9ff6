"""What one game process hosts of the casino: all of it, or one shard's rooms.

A casino naming no shards is one game process hosting every room and every
table. With `server.shards` each game process is started for one shard
(`casino game --shard NAME`) and hosts that shard's rooms, and the tables in
them; the rest of the world it knows (every room's name and exits, to walk
out of its own), but a walk into a room it does not host is a handoff to the
shard that does (server/casino/handoff.py). Its ledger writes the wallets of
the players here and recovers the holds of its own tables (docs/ledger.md,
"Shards").
"""
from __future__ import annotations

from dataclasses import dataclass

from server.config.model import CasinoConfig
from server.config.shards import rooms_of, shard_of
from server.ledger.shards import LedgerShard


@dataclass(frozen=True)
class Hosting:
    shard: str | None                  # None: every room (no shards named)
    rooms: frozenset[str] | None       # the rooms hosted here; None: every room
    where: dict[str, str]              # each room's shard by name

    @classmethod
    def of(cls, config: CasinoConfig, shard: str | None) -> Hosting:
        settings = config.settings
        if shard is None or not settings.shards:
            return cls(None, None, shard_of(settings, config.rooms))
        return cls(shard, rooms_of(settings, shard), shard_of(settings, config.rooms))

    def hosts(self, room: str) -> bool:
        return self.rooms is None or room in self.rooms

    def tables(self, config: CasinoConfig) -> frozenset[str] | None:
        """The table ids hosted here (a table is where its room is); None: every one."""
        if self.rooms is None:
            return None
        return frozenset(t for room in self.rooms if room in config.rooms for t in config.rooms[room].tables)

    def ledger(self, config: CasinoConfig) -> LedgerShard | None:
        """This shard's ledger writer, or None for the casino's one writer."""
        if self.shard is None:
            return None
        return LedgerShard(self.shard, self.tables(config) or frozenset())

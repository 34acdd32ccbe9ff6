"""The table core (server.tables.core) as tick-driven tests use it: players
are named in lower case and keyed by their name, and what the dealer answers
(phase, seeder, its state) is read through the table.
"""
from __future__ import annotations

from typing import Any

from server.tables.core import TableCore


class PureTable(TableCore):
    def __getattr__(self, name: str) -> Any:
        return getattr(self.dealer, name)

    def seated(self) -> list[str]:
        return self.seating.names()

    def sit(self, player: str, wallet: int) -> list[Any]:          # type: ignore[override]
        return super().sit(player, player.lower(), wallet) + self.finish_leaves()

    def leave(self, player: str, how: str = "leave") -> list[Any]:
        return super().leave(player, how) + self.finish_leaves()

    def disconnect(self, player: str) -> list[Any]:
        return self.gone(player) + self.finish_leaves()

    def act(self, player: str, words: list[str], wallet: int, retiring: bool = False) -> list[Any]:
        return super().act(player, words, wallet, retiring) + self.finish_leaves()

    def advance(self, ticks: int) -> list[Any]:
        return super().advance(ticks) + self.finish_leaves()

    def hold_refused(self, key: str, reason: str) -> list[Any]:
        return super().hold_refused(key, reason) + self.finish_leaves()

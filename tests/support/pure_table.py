"""A table as the host drives it, without the host's I/O: a game's dealer, its
Seating and the Usher, for tick-driven tests of seating and timing.

Events come back as the host would apply them (a SeatRequest is carried out
in place; deferred leaves are finished after every input), but money intents
are only returned, not written.
"""
from __future__ import annotations

from typing import Any

from server.games.catalogue import entry_for
from server.games.seam import SeatRequest
from server.games.seating import Seating
from server.tables.usher import Usher


class PureTable:
    def __init__(self, config: Any, tick_hz: int, dice: Any) -> None:
        self.entry = entry_for(config)
        self.seating = Seating()
        self.dealer = self.entry.make(config, tick_hz, dice, self.seating)
        self.usher = Usher(self.seating, self.dealer, self.entry.word)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.dealer, name)

    def _then(self, events: list[Any]) -> list[Any]:
        out: list[Any] = []
        for e in events:
            out += self.usher.leave(e.player, e.how) if isinstance(e, SeatRequest) else [e]
        return out + self.usher.finish_leaves()

    def seated(self) -> list[str]:
        return self.seating.names()

    def sit(self, player: str, wallet: int) -> list[Any]:
        return self._then(self.usher.sit(player, player.lower(), wallet))

    def leave(self, player: str) -> list[Any]:
        return self._then(self.usher.leave(player))

    def disconnect(self, player: str) -> list[Any]:
        return self._then(self.usher.gone(player))

    def act(self, player: str, words: list[str], wallet: int) -> list[Any]:
        problem = self.usher.refusal(player, words[0], self.entry.opening_words, False)
        if problem:
            from server.games.seam import Note
            return [Note((player,), problem)]
        return self._then(self.dealer.act(player, words, wallet))

    def advance(self, ticks: int) -> list[Any]:
        return self._then(self.dealer.advance(ticks))

    def hold_refused(self, key: str, reason: str) -> list[Any]:
        return self._then(self.dealer.hold_refused(key, reason))

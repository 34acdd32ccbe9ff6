"""The pure core of one table: its game's dealer, its Seating and the usher.

Everything a table decides without I/O is here: who sits and who waits to
leave, what a typed word means (after the table's table verbs), what time
passing does, what a refused hold cancels. Each method returns events in the
order the table must apply them: a game's SeatRequest is carried out in place
(the usher's answer takes its position), and leaves that waited on live bets
are finished after every input (`finish_leaves`). Money intents are only
returned, never written: the table's cashier writes them.

Tests drive this core directly, by ticks, with no server, so the rules of
seating and timing are tested in microseconds against the same code the
table runs.
"""
from __future__ import annotations

from server.config.model import GameOptions, TableConfig
from server.dice.source import TableDraws
from server.games.catalogue import entry_for
from server.games.seam import AnyDealer, Event, GameEntry, Note, SeatRequest
from server.games.seating import Seating
from server.tables.usher import Usher


class TableCore:
    def __init__(self, config: TableConfig[GameOptions], tick_hz: int, dice: TableDraws) -> None:
        self.tick_hz = tick_hz
        self.dice = dice
        self.seating = Seating()
        self.word: str | None = None          # `play <word>` here, when not the game's own word
        self.install(config)

    def install(self, config: TableConfig[GameOptions]) -> None:
        """A dealer for `config` at the same seats with the same draws (the
        commitment players were shown stays): at opening, and when a changed
        config is applied to a table at rest."""
        self.entry: GameEntry = entry_for(config)
        self.dealer: AnyDealer = self.entry.make(config, self.tick_hz, self.dice, self.seating)
        self.usher = Usher(self.seating, self.dealer, self.word or self.entry.word)

    def call(self, word: str) -> None:
        """The word players sit down with here (`play classic_craps` where
        another table in the room already answers to the game's word)."""
        self.word = word
        self.usher.word = word

    def _then(self, events: list[Event]) -> list[Event]:
        """Carry out each SeatRequest where it stands in `events`."""
        if not any(isinstance(e, SeatRequest) for e in events):
            return events
        out: list[Event] = []
        for e in events:
            out += self.usher.leave(e.player, e.how) if isinstance(e, SeatRequest) else [e]
        return out

    # --- people ---------------------------------------------------------------
    def sit(self, player: str, key: str, wallet: int) -> list[Event]:
        return self._then(self.usher.sit(player, key, wallet))

    def leave(self, player: str, how: str = "leave") -> list[Event]:
        return self._then(self.usher.leave(player, how))

    def gone(self, player: str) -> list[Event]:
        return self._then(self.usher.gone(player))

    def finish_leaves(self) -> list[Event]:
        return self._then(self.usher.finish_leaves())

    def watch(self, key: str, name: str) -> bool:
        """Watch the table; False if `key` is seated here."""
        if self.seating.seat_by_key(key) is not None:
            return False
        self.seating.watchers[key] = name
        return True

    def unwatch(self, key: str) -> bool:
        return self.seating.watchers.pop(key, None) is not None

    # --- play -----------------------------------------------------------------
    def refusal(self, player: str, word: str, retiring: bool) -> str | None:
        """Why a word that opens a wager or a game is refused here now, or None."""
        return self.usher.refusal(player, word, self.entry.opening_words, retiring)

    def act(self, player: str, words: list[str], wallet: int, retiring: bool = False) -> list[Event]:
        """A game word typed by a player: refused by the usher, or the dealer's answer."""
        problem = self.refusal(player, words[0], retiring)
        if problem:
            return [Note((player,), problem)]
        if player not in self.seating and self.entry.has_word(words[0]):
            return [Note((player,), f"Sit down first: play {self.usher.word}.")]
        return self._then(self.dealer.act(player, words, wallet))

    def advance(self, ticks: int) -> list[Event]:
        return self._then(self.dealer.advance(ticks))

    def hold_refused(self, key: str, reason: str) -> list[Event]:
        return self._then(self.dealer.hold_refused(key, reason))

    def close(self, why: str) -> list[Event]:
        return self._then(self.dealer.close(why))

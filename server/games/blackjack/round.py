"""One round's state: the bets, the hands, the dealer's cards, insurance, whose turn.

Plain data with the few questions the engine (game.py) and the snapshot
ask of it, so the engine's class holds only transitions.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cards import Card
from .hands import Hand
from .moves import Move


@dataclass
class Pending:
    """A double or a split whose hold is on its way to the ledger: its card
    comes at the next input, once the hold is durable (a refused hold
    cancels it before then, and the hand goes on as it was)."""

    player: str
    hand: int                        # index into the player's hands
    move: Move
    key: str


@dataclass
class Round:
    number: int = 0                                           # 1, 2, ... once dealt
    bets: dict[str, tuple[str, int, str | None]] = field(default_factory=dict)   # player -> handle, chips, note
    hands: dict[str, list[Hand]] = field(default_factory=dict)                    # seat order of the deal
    dealer: list[Card] = field(default_factory=list)
    insurance: dict[str, tuple[str, int]] = field(default_factory=dict)         # player -> handle, chips
    answered: set[str] = field(default_factory=set)                              # insurance asked and answered
    stakes: list[str] = field(default_factory=list)                              # every held key, dealt rounds
    turn: tuple[str, int] | None = None
    pending: Pending | None = None
    away: set[str] = field(default_factory=set)                                  # left or dropped mid-round

    @property
    def up(self) -> Card | None:
        return self.dealer[0] if self.dealer else None

    def hand(self) -> Hand | None:
        """The hand whose turn it is."""
        if self.turn is None:
            return None
        player, i = self.turn
        return self.hands[player][i]

    def next_turn(self) -> tuple[str, int] | None:
        """The first hand in seat order still to be played (hands made by a split follow theirs)."""
        for player, hands in self.hands.items():
            for i, h in enumerate(hands):
                if not h.done:
                    return player, i
        return None

    def live(self) -> bool:
        """Some hand still stands against the dealer's: the dealer draws only then."""
        return any(h.live for hands in self.hands.values() for h in hands)

    def held(self) -> list[tuple[str, str, int]]:
        """Every stake of the round not yet settled, as (player, handle, chips)."""
        out = [(p, handle, chips) for p, (handle, chips, _) in self.bets.items()]
        for p, hands in self.hands.items():
            for h in hands:
                chips = [h.bet] * len(h.stakes)
                out += [(p, k, c) for k, c in zip(h.stakes, chips)]
        out += [(p, handle, chips) for p, (handle, chips) in self.insurance.items()]
        pending = self.pending
        if pending is not None:
            out.append((pending.player, pending.key, self.hands[pending.player][pending.hand].bet))
        return out

    def cancel(self, key: str) -> tuple[str, str] | None:
        """Forget the stake with `key` (its hold was refused): (player, what it was), or None."""
        for player, (handle, _, _) in list(self.bets.items()):
            if handle == key:
                del self.bets[player]
                return player, "bet"
        for player, (handle, _) in list(self.insurance.items()):
            if handle == key:
                del self.insurance[player]
                return player, "insurance"
        if self.pending is not None and self.pending.key == key:
            p, self.pending = self.pending, None
            return p.player, str(p.move)
        return None

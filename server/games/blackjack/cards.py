"""Cards as blackjack reads them: rank, suit, value, and their names.

A card is a number 0..51 of one 52-card deck (suit = n // 13, rank = n % 13
+ 1), so a shoe is a list of small integers that `casino verify` prints in
the same order the table dealt them. Values: 2-10 as marked, J Q K 10, an
ace 1 (a hand counts one ace as 11 where that does not bust it: hands.py).
"""
from __future__ import annotations

from dataclasses import dataclass

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = (("s", "♠", "black"), ("h", "♥", "red"), ("d", "♦", "red"), ("c", "♣", "black"))
DECK = 52


@dataclass(frozen=True, slots=True)
class Card:
    """One card: `rank` 1 (ace) .. 13 (king), `suit` 0..3 (spades, hearts, diamonds, clubs)."""

    rank: int
    suit: int

    @classmethod
    def of(cls, n: int) -> Card:
        """Card number `n` of a deck (0..51): spades ace to king, then hearts, diamonds, clubs."""
        return cls(n % DECK % 13 + 1, n % DECK // 13)

    @property
    def value(self) -> int:
        """What the card counts: an ace 1 here, a face card 10."""
        return min(self.rank, 10)

    @property
    def ten(self) -> bool:
        return self.value == 10

    @property
    def ace(self) -> bool:
        return self.rank == 1

    @property
    def name(self) -> str:
        """Plain ASCII: "A-s", "10-h", as the diceless table names its cards."""
        return f"{RANKS[self.rank - 1]}-{SUITS[self.suit][0]}"

    def shown(self, unicode: bool) -> str:
        """"A♠" in Unicode, "A-s" in ASCII."""
        return f"{RANKS[self.rank - 1]}{SUITS[self.suit][1]}" if unicode else self.name

    @property
    def red(self) -> bool:
        return SUITS[self.suit][2] == "red"


def cards(*names: str) -> tuple[Card, ...]:
    """Cards by rank name, for tests and examples: cards("A", "10") (suits cycle)."""
    return tuple(Card(RANKS.index(n.upper()) + 1, i % 4) for i, n in enumerate(names))

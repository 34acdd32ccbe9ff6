"""The shoe: `decks` decks shuffled by a provably fair Fisher-Yates, and its cut card.

docs/play-blackjack.md "The shoe": swap i (from the last card down to the second) is a
fair draw in [0, i + 1) from the table's commit/reveal source, so the whole
shoe follows from the server seed committed before it was shuffled and the
client seed: `casino verify --draw shoe` rebuilds it card for card
(`rebuild`), and a player can check every card they were dealt, the k-th
card out of the shoe being line k. The cut card stands at `penetration`
percent: once it is out the round finishes and the shoe is retired.
"""
from __future__ import annotations

from collections.abc import Callable

from server.dice.derive import Deriver

from .cards import DECK, Card


def shuffled(decks: int, draw: Callable[[int], int]) -> tuple[Card, ...]:
    """A fresh shoe of `decks` decks in order, shuffled with `draw(n)` in [0, n)."""
    order = [Card.of(n) for n in range(decks * DECK)]
    for i in range(len(order) - 1, 0, -1):
        j = draw(i + 1)
        if type(j) is not int or not 0 <= j <= i:
            raise ValueError(f"draw({i + 1}) returned {j!r}")
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def rebuild(server_seed: str, client_seed: str, decks: int, first_nonce: int = 0) -> tuple[Card, ...]:
    """The shoe a table shuffled from a revealed seed: its draws took nonces
    `first_nonce`, +1, +2 ... (0 for a seed's first shoe; a second shoe under
    one seed, after one ran out mid-round, starts where the first ended)."""
    deriver = Deriver(server_seed)
    nonce = iter(range(first_nonce, first_nonce + decks * DECK))
    return shuffled(decks, lambda n: deriver.draw(client_seed, next(nonce), n))


class Shoe:
    """The cards of one shoe, dealt in order, and where the cut card stands."""

    def __init__(self, order: tuple[Card, ...], penetration: int, number: int = 1) -> None:
        self.order = order
        self.dealt = 0                                   # cards out so far
        self.cut = len(order) * penetration // 100       # the cut card comes out after this many
        self.number = number                             # shoes this table has shuffled, this one included

    def deal(self) -> Card:
        if self.dealt >= len(self.order):
            raise RuntimeError("the shoe is empty")      # 8 decks cut at 90% leave 41 cards: never
        card = self.order[self.dealt]
        self.dealt += 1
        return card

    @property
    def cut_out(self) -> bool:
        """The cut card has come out: this round finishes, then the shoe is retired."""
        return self.dealt >= self.cut

    @property
    def left(self) -> int:
        return len(self.order) - self.dealt

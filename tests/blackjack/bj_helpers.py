"""A small ledger model, a seeded draw and event filters for the blackjack engine tests."""
from __future__ import annotations

import random

from server.games.blackjack.game import BlackjackGame
from server.games.blackjack.options import BlackjackOptions
from support.stakes import Ledger as Ledger

HZ = 10


def of(events, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


class Draws:
    """draw(n) from a seeded generator, every value kept (to shuffle the shoe again, independently)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.values: list[tuple[int, int]] = []

    def __call__(self, n: int) -> int:
        v = self.rng.randrange(n)
        self.values.append((n, v))
        return v


def stacked(game, ranks, fill: int = 52) -> None:
    """Put a shoe whose first cards have these ranks (1-13) in the game, then `fill` more cards."""
    from server.games.blackjack.cards import Card
    from server.games.blackjack.shoe import Shoe
    order = tuple(Card(r, i % 4) for i, r in enumerate(ranks)) + tuple(Card.of(n) for n in range(fill))
    game.shoe = Shoe(order, game.options.penetration)


def new(draw=None, order=("ann",), timed=False, **options) -> BlackjackGame:
    seats = list(order)
    return BlackjackGame(BlackjackOptions(**options), draw or Draws(1), HZ, "t",
                         order=lambda: seats, timed=lambda: timed)

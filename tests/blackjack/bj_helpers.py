"""Helpers for the blackjack tests: a small ledger model, a seeded draw and event
filters for the engine; a table's rules and a chart cell for strategy and edge."""
from __future__ import annotations

import random

from server.games.blackjack.game import BlackjackGame
from server.games.blackjack.options import BlackjackOptions
from server.games.blackjack.strategy import Decision, decide
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

UPS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 1)       # a chart's columns, the ace last
LETTER = {Decision.HIT: "H", Decision.STAND: "S", Decision.DOUBLE: "D", Decision.SPLIT: "P",
          Decision.SURRENDER: "R"}


def rules(**changes: object) -> BlackjackOptions:
    return BlackjackOptions(**changes)  # type: ignore[arg-type]


def cell(options: BlackjackOptions, hand: tuple[int, ...], up: int) -> str:
    """A chart's cell: H, S, P, or D / R followed by what to do when that is not allowed
    (Dh, Ds, Rh, Rs, Rp), as the Wizard of Odds' and Wikipedia's charts write them."""
    best = decide(options, hand, up)
    if best in (Decision.DOUBLE, Decision.SURRENDER):
        fallback = decide(options, hand, up, can_double=False, can_surrender=False)
        return LETTER[best] + LETTER[fallback].lower()
    return LETTER[best]

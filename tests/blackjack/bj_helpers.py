"""Helpers for the blackjack strategy and edge tests: a table's rules, a chart cell."""
from __future__ import annotations

from server.games.blackjack.options import BlackjackOptions
from server.games.blackjack.strategy import Decision, decide

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

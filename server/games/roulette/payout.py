"""What a bet returns when the ball drops: exact, in whole chips.

A winning bet returns its stake plus `pays` times it (35, 17, 11, 8, 5, 2, 1
to 1, from the kind table). Zero loses every bet that does not cover it;
with la partage an even-money bet gets half its stake back, rounded down
(docs/play-roulette.md "La partage"), so nothing is ever paid in fractions of a chip.
"""
from __future__ import annotations

from .bets import Bet
from .kinds import KINDS


def settle(bet: Bet, pocket: int, la_partage: bool = False) -> int:
    """Chips returned to the player for `bet` when the ball drops in `pocket` (0 = lost)."""
    info = KINDS[bet.kind]
    if pocket in bet.numbers:
        return bet.amount * (info.pays + 1)
    if la_partage and pocket == 0 and info.even_money:
        return bet.amount // 2
    return 0

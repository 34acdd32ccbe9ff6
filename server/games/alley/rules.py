"""Alley craps' rules as tables and small pure functions (spec 000, docs/play-alley-craps.md).

What a roll decides, and whether an amount a player typed is a valid action or
fade, live here apart from the game's turn and tick bookkeeping.
"""
from __future__ import annotations

from enum import Enum
from types import MappingProxyType


class Decision(Enum):
    """What one roll did to the pass."""

    NATURAL = "natural"        # come-out 7 or 11: the shooter wins
    CRAPS = "craps"            # come-out 2, 3 or 12: the shooter loses
    POINT_SET = "point_set"    # come-out 4, 5, 6, 8, 9, 10: that total is the point
    POINT_MADE = "point_made"  # the point again before a 7: the shooter wins
    SEVEN_OUT = "seven_out"    # a 7 before the point: the shooter loses
    NO_DECISION = "none"       # any other total while a point is on


COME_OUT = MappingProxyType({7: Decision.NATURAL, 11: Decision.NATURAL,
                             2: Decision.CRAPS, 3: Decision.CRAPS, 12: Decision.CRAPS})
SHOOTER_WINS = MappingProxyType({Decision.NATURAL: True, Decision.POINT_MADE: True,
                                 Decision.CRAPS: False, Decision.SEVEN_OUT: False})


def decide(point: int | None, total: int) -> Decision:
    """The decision of a roll of `total`, on the come-out (point None) or with a point on."""
    if point is None:
        return COME_OUT.get(total, Decision.POINT_SET)
    if total == point:
        return Decision.POINT_MADE
    return Decision.SEVEN_OUT if total == 7 else Decision.NO_DECISION


def amount_problem(amount: object, unit: int, maximum: int, limit_name: str) -> str | None:
    """Why `amount` is not a valid action or fade, or None.

    Valid: a whole number of chips, at least one `unit`, a multiple of it, and
    at most `maximum`; `limit_name` says what the maximum is ("your bankroll").
    """
    if isinstance(amount, bool) or not isinstance(amount, int):
        return "the amount must be a whole number of chips"
    if amount <= 0:
        return "the amount must be more than zero"
    if amount < unit:
        return f"the minimum is {unit}"
    if amount % unit:
        return f"bets go in multiples of {unit}"
    if amount > maximum:
        return f"the most you can bet is {maximum} ({limit_name})"
    return None

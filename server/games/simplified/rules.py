"""The rules of simplified craps as tables: outcomes, true odds, units, limits.

The engine and the house-edge calculator (odds.py) both read these, so the
edge `casino odds` reports is the edge of the game as played.
"""
from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from fractions import Fraction
from types import MappingProxyType


class Side(Enum):
    PASS = "pass"
    DONT = "dontpass"


class Outcome(Enum):
    WIN = "win"
    LOSE = "lose"
    PUSH = "push"


POINTS = (4, 5, 6, 8, 9, 10)
SEVEN = 7

# Come-out totals that decide the pass line at once; the rest set a point.
PASS_COME_OUT: Mapping[int, Outcome] = MappingProxyType({2: Outcome.LOSE, 3: Outcome.LOSE, 12: Outcome.LOSE,
                                                          7: Outcome.WIN, 11: Outcome.WIN})
_MIRROR: Mapping[Outcome, Outcome] = MappingProxyType(
    {Outcome.WIN: Outcome.LOSE, Outcome.LOSE: Outcome.WIN, Outcome.PUSH: Outcome.PUSH})

# True odds of the point against the seven, as (pays, per): a do-side odds
# bet of `per` chips wins `pays` chips; a laid (don't) bet of `pays` wins `per`.
TRUE_ODDS: Mapping[int, tuple[int, int]] = MappingProxyType({4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2),
                                                             6: (6, 5), 8: (6, 5)})

# `odds: 0` (3-4-5x): do-side multiple of the flat stake per point; don't side 6x laid.
PASS_ODDS_345: Mapping[int, int] = MappingProxyType({4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5})
DONT_ODDS_345 = 6

# Ways to roll each total with two dice (of 36).
WAYS: Mapping[int, int] = MappingProxyType({t: 6 - abs(t - 7) for t in range(2, 13)})


def come_out(side: Side, total: int, bar: int | None) -> Outcome | None:
    """The flat bet's outcome on the come-out; None means `total` is the point.

    `bar` is the don't pass bar: a come-out of that total pushes don't pass
    (12 by default; None = no bar, so don't pass wins on 2, 3 and 12 as in 001).
    """
    pass_outcome = PASS_COME_OUT.get(total)
    if pass_outcome is None:
        return None
    if side is Side.PASS:
        return pass_outcome
    if bar is not None and total == bar:
        return Outcome.PUSH
    return _MIRROR[pass_outcome]


def point_roll(side: Side, total: int, point: int) -> Outcome | None:
    """The outcome of a roll once `point` is set; None means roll again."""
    if total == point:
        return Outcome.WIN if side is Side.PASS else Outcome.LOSE
    if total == SEVEN:
        return Outcome.LOSE if side is Side.PASS else Outcome.WIN
    return None


def odds_payout(side: Side, point: int) -> Fraction:
    """What one chip of odds wins: 2:1 / 3:2 / 6:5 taken, 1:2 / 2:3 / 5:6 laid."""
    pays, per = TRUE_ODDS[point]
    return Fraction(pays, per) if side is Side.PASS else Fraction(per, pays)


def odds_unit(side: Side, point: int) -> int:
    """The chips an odds amount must be a multiple of so its win is whole chips."""
    return odds_payout(side, point).denominator


def odds_win(side: Side, point: int, amount: int) -> int:
    """The win of an odds bet of `amount` (a multiple of the unit)."""
    win = odds_payout(side, point) * amount
    if win.denominator != 1:
        raise ValueError(f"odds of {amount} on {point} do not win whole chips")
    return int(win)


def odds_limit(side: Side, point: int, flat: int, odds_setting: int) -> int:
    """The most odds allowed behind a flat bet of `flat`, rounded down to the unit.

    `odds_setting` 0 means 3x/4x/5x on 4-10/5-9/6-8 taken and 6x laid; N means
    N times the flat stake on both sides.
    """
    if odds_setting == 0:
        multiple = PASS_ODDS_345[point] if side is Side.PASS else DONT_ODDS_345
    else:
        multiple = odds_setting
    unit = odds_unit(side, point)
    return flat * multiple // unit * unit


def press_allowed(side: Side, press_setting: str) -> bool:
    """Whether the table's `press` option ("pass", "both", "none") lets `side` press."""
    return press_setting == "both" or (press_setting == "pass" and side is Side.PASS)

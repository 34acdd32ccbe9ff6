"""What a bank craps bet is, and the payout facts every other module reads.

A bet is plain frozen data: its kind, the number it is on (if any) and its
stake in whole chips. The numbers a bet can be on, its payout ratios and its
exact payout unit live in tables here, so the outcome function, the validator,
the house-edge calculator and the simulator all read one source of truth.
"""
from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from math import gcd
from types import MappingProxyType


class Kind(enum.StrEnum):
    """A StrEnum: hashing and comparing are C-speed, which the simulator feels."""

    PASS = "pass"
    DONT_PASS = "dontpass"
    COME = "come"
    DONT_COME = "dontcome"
    ODDS = "odds"            # true odds behind pass or come (taken)
    LAY_ODDS = "layodds"     # true odds behind don't pass or don't come (laid)
    PLACE = "place"
    BUY = "buy"
    LAY = "lay"
    HARD = "hard"
    FIELD = "field"
    ANY7 = "any7"
    ANYCRAPS = "anycraps"
    PROP = "prop"            # a single number: 2, 3, 11 or 12
    HORN = "horn"
    HOP = "hop"              # number encodes the unordered pair: 10*a + b, a <= b
    FIRE = "fire"
    SMALL = "small"
    TALL = "tall"
    ALL = "all"
    HIGH = "high"            # High Point's one bet (a contract; `pass` is its alias there)
    FACE = "face"            # Die Rich: the next roll's face, number 1..6


POINTS = (4, 5, 6, 8, 9, 10)

# True odds paid on a point when taking odds (and on buy bets): win = stake * n / d.
TRUE_ODDS = {4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)}
# True odds when laying against a point (laid odds and lay bets).
LAID_ODDS = {n: (d, p) for n, (p, d) in TRUE_ODDS.items()}
PLACE_ODDS = {4: (9, 5), 10: (9, 5), 5: (7, 5), 9: (7, 5), 6: (7, 6), 8: (7, 6)}
# Crapless craps adds four points (docs/play-craps-variants.md "Crapless craps"):
# their true odds and place pays.
CRAPLESS_POINTS = (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)
CRAPLESS_TRUE_ODDS = {**TRUE_ODDS, 2: (6, 1), 12: (6, 1), 3: (3, 1), 11: (3, 1)}
CRAPLESS_PLACE_ODDS = {**PLACE_ODDS, 2: (11, 2), 12: (11, 2), 3: (11, 4), 11: (11, 4)}
HARD_ODDS = {4: (7, 1), 10: (7, 1), 6: (9, 1), 8: (9, 1)}
PROP_ODDS = {2: (30, 1), 12: (30, 1), 3: (15, 1), 11: (15, 1)}
ANY7_ODDS = (4, 1)
ANYCRAPS_ODDS = (7, 1)
HOP_EASY_ODDS = (15, 1)
HOP_PAIR_ODDS = (30, 1)
# Horn is four equal parts on 2, 3, 11, 12: the winning part is paid, the other
# three lose, so the net win on the whole stake is (odds - 3) / 4.
HORN_ODDS = {n: (p - 3, 4) for n, (p, _) in PROP_ODDS.items()}
FIRE_PAYS = {4: 24, 5: 249, 6: 999}          # distinct made points -> odds to 1
ATS_PAYS = {"small": 34, "tall": 34, "all": 175}
# High Point (docs/play-craps-variants.md "High Point craps"): a come-out 4 to 10 is the point, 7 too;
# 11 and 12 win at once, 2 and 3 decide nothing; every decision pays 1:1.
HIGH_POINTS = (4, 5, 6, 7, 8, 9, 10)
HIGH_WINS = (11, 12)
HIGH_NO_DECISION = (2, 3)
HIGH_ODDS = (1, 1)
# Die Rich (docs/play-craps-variants.md "Die Rich"): one die; come-out 6 wins 1:1, 1 loses, 2 to 5
# is the point; the point on the 2nd, 3rd and 4th roll of the hand pays these.
DIE_FACES = (1, 2, 3, 4, 5, 6)
DIE_POINTS = (2, 3, 4, 5)
DIE_NATURAL = 6
DIE_LOSER = 1
DIE_COME_OUT_ODDS = (1, 1)
DIE_POINT_PAYS = ((2, 1), (1, 1), (2, 1))    # by rolls after the come-out: 1st, 2nd, 3rd
FACE_ODDS = (4, 1)
SMALL_NUMBERS = (2, 3, 4, 5, 6)
TALL_NUMBERS = (8, 9, 10, 11, 12)
COMMISSION = Fraction(5, 100)                # buy: of the stake; lay: of the win

# Which numbers each kind takes; None means the kind takes no number.
NUMBERS: dict[Kind, tuple[int, ...] | None] = {
    Kind.PASS: None, Kind.DONT_PASS: None, Kind.COME: None, Kind.DONT_COME: None,
    Kind.ODDS: POINTS, Kind.LAY_ODDS: POINTS,
    Kind.PLACE: POINTS, Kind.BUY: POINTS, Kind.LAY: POINTS,
    Kind.HARD: (4, 6, 8, 10),
    Kind.FIELD: None, Kind.ANY7: None, Kind.ANYCRAPS: None,
    Kind.PROP: (2, 3, 11, 12), Kind.HORN: None,
    Kind.HOP: tuple(10 * a + b for a in range(1, 7) for b in range(a, 7)),
    Kind.FIRE: None, Kind.SMALL: None, Kind.TALL: None, Kind.ALL: None,
}
# The numbers of the kinds only a variant of its own offers (variants.py reads both).
OWN_NUMBERS: dict[Kind, tuple[int, ...] | None] = {Kind.HIGH: None, Kind.FACE: DIE_FACES}
LINE = (Kind.PASS, Kind.DONT_PASS, Kind.COME, Kind.DONT_COME)
BONUS = (Kind.FIRE, Kind.SMALL, Kind.TALL, Kind.ALL)
CONTRACTS = frozenset((Kind.PASS, Kind.COME, Kind.HIGH, *BONUS))


@dataclass(frozen=True, slots=True)
class Bet:
    """One wager's rule-relevant facts.

    `number` is the point for odds/place/buy/lay/hard, the prop number, the hop
    pair (10*a+b), or for line bets the number they travelled to (0 = not yet).
    """

    kind: Kind
    number: int = 0
    amount: int = 0

    def travel(self, number: int) -> Bet:
        return Bet(self.kind, number, self.amount)


def name(bet: Bet) -> str:
    """The short word a player uses for the bet: `place6`, `come8`, `hop12`."""
    k = bet.kind
    if k is Kind.PROP:
        return str(bet.number)
    if k in (Kind.ODDS, Kind.LAY_ODDS):
        return f"odds{bet.number}"
    if bet.number and k is not Kind.PASS and k is not Kind.DONT_PASS and k is not Kind.HIGH:
        return f"{k.value}{bet.number}"
    return k.value


def hop_pair(number: int) -> tuple[int, int]:
    return divmod(number, 10)


def _lcm(a: int, b: int) -> int:
    return a * b // gcd(a, b)


def ratio_unit(num: int, den: int) -> int:
    """Smallest stake whose win stake*num/den is whole chips."""
    return den // gcd(num, den)


def payout_unit(kind: Kind, number: int) -> int:
    """The stake multiple a bet needs so that every win it can have is whole chips."""
    unit = _UNITS.get((kind, number))
    return _payout_unit(kind, number) if unit is None else unit


def _payout_unit(kind: Kind, number: int) -> int:
    if kind in (Kind.ODDS, Kind.BUY):
        return ratio_unit(*CRAPLESS_TRUE_ODDS[number])
    if kind in (Kind.LAY_ODDS, Kind.LAY):
        return ratio_unit(*LAID_ODDS[number])
    if kind is Kind.PLACE:
        return ratio_unit(*CRAPLESS_PLACE_ODDS[number])
    if kind is Kind.HORN:
        unit = 1
        for num, den in HORN_ODDS.values():
            unit = _lcm(unit, ratio_unit(num, den))
        return unit
    return 1


def commission_free_unit(kind: Kind, number: int) -> int:
    """Smallest stake that pays exactly and whose 5% commission needs no rounding.

    `casino odds` quotes buy and lay edges at this stake: below it the rounded-up
    commission makes the edge depend on the stake, not on the rule.
    """
    unit = payout_unit(kind, number)
    if kind is Kind.BUY:
        return _lcm(unit, COMMISSION.denominator // gcd(COMMISSION.numerator, COMMISSION.denominator))
    if kind is Kind.LAY:
        num, den = LAID_ODDS[number]
        stake = unit
        while (Fraction(stake * num, den) * COMMISSION).denominator != 1:
            stake += unit
        return stake
    return unit


def commission(kind: Kind, stake: int, win: int) -> int:
    """Commission on a winning buy (5% of stake) or lay (5% of win), rounded up."""
    if kind is Kind.BUY:
        base = stake
    elif kind is Kind.LAY:
        base = win
    else:
        return 0
    return -((-base * COMMISSION.numerator) // COMMISSION.denominator)


# Every bet's unit, worked out once at import and never changed (a table of
# constants, not a cache that grows): each kind with each number it takes,
# line bets also on the numbers they travel to; crapless craps' extra points too
# (a ratio belongs to its number, whatever the variant: the unit is one fact).
_UNITS: Mapping[tuple[Kind, int], int] = MappingProxyType({
    **{(kind, n): _payout_unit(kind, n)
       for kind in (Kind.ODDS, Kind.PLACE, Kind.BUY, Kind.PASS, Kind.COME) for n in CRAPLESS_POINTS},
    **{(kind, n): _payout_unit(kind, n)
       for kind, numbers in NUMBERS.items()
       for n in (*(numbers or (0,)), *(POINTS if kind in LINE else ()))}})

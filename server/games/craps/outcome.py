"""The one per-bet outcome function, and how the table itself moves on a roll.

`Rulebook.outcome(bet, dice, view)` answers, for one bet and one roll, whether
the bet wins (and how much), loses, pushes, does nothing, or travels to a
number. The live table, `casino odds` and `casino sim` all call it, so a rule
is written once. Most bets are rows of a table indexed by the 36 dice: one row
for the come-out and one for a roll with the point on, built once per table
configuration. Only Fire and Small/Tall/All look at the hand's trackers and are
small functions instead.

`advance(view, dice)` moves the table's own state (point, Fire and the
Small/Tall/All tracker, rolls in the hand) and is pure as well.
"""
from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import NamedTuple

from .bets import (
    ANY7_ODDS,
    ANYCRAPS_ODDS,
    ATS_PAYS,
    DIE_COME_OUT_ODDS,
    DIE_FACES,
    DIE_LOSER,
    DIE_NATURAL,
    DIE_POINT_PAYS,
    FACE_ODDS,
    FIRE_PAYS,
    HARD_ODDS,
    HIGH_NO_DECISION,
    HIGH_ODDS,
    HIGH_WINS,
    HOP_EASY_ODDS,
    HOP_PAIR_ODDS,
    HORN_ODDS,
    LAID_ODDS,
    POINTS,
    PROP_ODDS,
    SMALL_NUMBERS,
    TALL_NUMBERS,
    Bet,
    Kind,
    commission,
    hop_pair,
)
from .variants import BANK, VARIANTS, Scheme, Variant

Dice = tuple[int, ...]        # the faces of one draw: two dice (or cards); Die Rich's one die


class Result(enum.IntEnum):
    NONE = 0      # no action this roll
    WIN = 1       # amount = chips won on top of the returned stake, after commission
    LOSE = 2      # the stake goes to the house
    PUSH = 3      # the stake is returned (bar 12, come odds off on the come-out)
    TRAVEL = 4    # a line bet moves to `number`


class Outcome(NamedTuple):
    result: Result
    amount: int = 0
    number: int = 0
    commission: int = 0       # buy/lay: already taken out of amount


NO_ACTION = Outcome(Result.NONE)
LOST = Outcome(Result.LOSE)
PUSHED = Outcome(Result.PUSH)
TRAVEL_TO = {n: Outcome(Result.TRAVEL, 0, n) for n in range(2, 13)}


class TableView(NamedTuple):
    """What of the table a bet's outcome can depend on.

    point: 0 on the come-out, else the point. fire: bit n set once point n was
    made this hand. hits: bit t set once total t was rolled since the last seven.
    rolls: rolls so far in this shooter hand (bonus bets only before the first).
    step: Die Rich only, rolls since the point was set (0: the next is the hand's second).
    """

    point: int = 0
    fire: int = 0
    hits: int = 0
    rolls: int = 0
    step: int = 0


COME_OUT = TableView()
SMALL_MASK = sum(1 << n for n in SMALL_NUMBERS)
TALL_MASK = sum(1 << n for n in TALL_NUMBERS)
ALL_MASK = SMALL_MASK | TALL_MASK


def advance(view: TableView, dice: Dice, points: tuple[int, ...] = POINTS) -> TableView:
    """The table after this roll: point set/made/seven-out, trackers, hand count
    (`points`: the totals a come-out sets as the point, the variant's)."""
    total = dice[0] + dice[1]
    point = view.point
    if total == 7:
        if point:                       # seven-out: a new shooter hand starts
            return COME_OUT
        return TableView(0, view.fire, 0, view.rolls + 1)   # come-out seven: ATS resets only
    hits = view.hits | (1 << total)
    if point == 0:
        return TableView(total if total in points else 0, view.fire, hits, view.rolls + 1)
    if total == point:
        return TableView(0, view.fire | (1 << total), hits, view.rolls + 1)
    return TableView(point, view.fire, hits, view.rolls + 1)


def advance_high(view: TableView, dice: Dice) -> TableView:
    """High Point's table after a roll: a come-out 4 to 10 sets the point, 2, 3,
    11 and 12 leave the come-out on; with the point on the next roll decides:
    higher keeps the shooter (a new come-out), the point or lower ends the hand."""
    total = dice[0] + dice[1]
    if view.point == 0:
        return TableView(0 if total in HIGH_NO_DECISION or total in HIGH_WINS else total, rolls=view.rolls + 1)
    if total > view.point:
        return TableView(rolls=view.rolls + 1)
    return COME_OUT


def advance_die(view: TableView, dice: Dice) -> TableView:
    """Die Rich's table after a roll of one die: a come-out 2 to 5 sets the
    point; a 6 wins and keeps the shooter; with the point on, the point wins
    (a new come-out, same shooter), a 1 or the third roll after the come-out
    that misses ends the hand; anything else counts one more roll (`step`)."""
    face = dice[0]
    if view.point == 0:
        if face == DIE_LOSER:
            return COME_OUT
        return TableView(0 if face == DIE_NATURAL else face, rolls=view.rolls + 1)
    if face == view.point:
        return TableView(rolls=view.rolls + 1)
    if face == DIE_LOSER or view.step + 1 >= len(DIE_POINT_PAYS):
        return COME_OUT
    return TableView(view.point, rolls=view.rolls + 1, step=view.step + 1)


ONE_DIE: tuple[Dice, ...] = tuple((face,) for face in DIE_FACES)


ALL_DICE: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, 7))

# A row is 36 entries: a prebuilt non-win Outcome, or a (num, den) win ratio.
Entry = Outcome | tuple[int, int]
Row = tuple[Entry, ...]


def _row(fn: Callable[[int, int], Entry]) -> Row:
    return tuple(fn(a, b) for a, b in ALL_DICE)


def _line_rows(kind: Kind, number: int, variant: Variant = BANK) -> tuple[Row, Row]:
    do = kind in (Kind.PASS, Kind.COME)

    def box(a: int, b: int) -> Entry:
        t = a + b
        if t in variant.points:
            return TRAVEL_TO[t]
        if do:
            return (1, 1) if t in variant.naturals else LOST
        if t == 12:
            return PUSHED                       # bar 12
        return (1, 1) if t in (2, 3) else LOST

    def on(a: int, b: int) -> Entry:
        t = a + b
        if t == number:
            return (1, 1) if do else LOST
        if t == 7:
            return LOST if do else (1, 1)
        return NO_ACTION

    row = _row(box if number == 0 else on)
    return row, row


def _high_rows(number: int) -> tuple[Row, Row]:
    """High Point's one bet: on the come-out (number 0) 2 and 3 decide nothing,
    11 and 12 win, 4 to 10 is the point; on the point, a higher total wins."""
    def box(a: int, b: int) -> Entry:
        t = a + b
        if t in HIGH_NO_DECISION:
            return NO_ACTION
        return HIGH_ODDS if t in HIGH_WINS else TRAVEL_TO[t]

    def on(a: int, b: int) -> Entry:
        return HIGH_ODDS if a + b > number else LOST

    row = _row(box if number == 0 else on)
    return row, row


def _number_rows(kind: Kind, n: int, variant: Variant = BANK) -> tuple[Row, Row]:
    """Odds, place, buy, lay, hard: off row for the come-out, on row with a point."""
    if kind in (Kind.LAY_ODDS, Kind.LAY):             # always working
        row = _row(lambda a, b: LAID_ODDS[n] if a + b == 7 else LOST if a + b == n else NO_ACTION)
        return row, row
    if kind is Kind.HARD:
        on = _row(lambda a, b: (HARD_ODDS[n] if a == b else LOST) if a + b == n
                  else LOST if a + b == 7 else NO_ACTION)
    else:
        odds = variant.place_odds[n] if kind is Kind.PLACE else variant.true_odds[n]
        on = _row(lambda a, b: odds if a + b == n else LOST if a + b == 7 else NO_ACTION)
    if kind is Kind.ODDS:       # come odds are off on the come-out: returned if decided
        off = _row(lambda a, b: PUSHED if a + b in (n, 7) else NO_ACTION)
    else:                       # place, buy, hardways are off: nothing happens
        off = _row(lambda a, b: NO_ACTION)
    return off, on


def _one_roll_row(kind: Kind, n: int, field_12: int) -> Row:
    def entry(a: int, b: int) -> Entry:
        t = a + b
        if kind is Kind.FIELD:
            pays = {2: (2, 1), 12: (field_12, 1), 3: (1, 1), 4: (1, 1), 9: (1, 1),
                    10: (1, 1), 11: (1, 1)}
            return pays.get(t, LOST)
        if kind is Kind.ANY7:
            return ANY7_ODDS if t == 7 else LOST
        if kind is Kind.ANYCRAPS:
            return ANYCRAPS_ODDS if t in (2, 3, 12) else LOST
        if kind is Kind.PROP:
            return PROP_ODDS[n] if t == n else LOST
        if kind is Kind.HORN:
            return HORN_ODDS.get(t, LOST)
        lo, hi = hop_pair(n)            # HOP
        if (a, b) in ((lo, hi), (hi, lo)):
            return HOP_PAIR_ODDS if lo == hi else HOP_EASY_ODDS
        return LOST
    return _row(entry)


def _fire(bet: Bet, dice: Dice, view: TableView) -> Outcome:
    if view.point and dice[0] + dice[1] == 7:
        made = view.fire.bit_count()
        if made in FIRE_PAYS:
            return Outcome(Result.WIN, bet.amount * FIRE_PAYS[made])
        return LOST
    return NO_ACTION


def _ats(mask: int, pays: int) -> Callable[[Bet, Dice, TableView], Outcome]:
    def ats(bet: Bet, dice: Dice, view: TableView) -> Outcome:
        total = dice[0] + dice[1]
        if total == 7:
            return LOST
        if view.hits & mask != mask and (view.hits | (1 << total)) & mask == mask:
            return Outcome(Result.WIN, bet.amount * pays)
        return NO_ACTION
    return ats


def _die_pass(bet: Bet, dice: Dice, view: TableView) -> Outcome:
    """Die Rich's pass: come-out 6 wins 1:1, 1 loses, 2 to 5 travels to the
    point; then the point pays 2:1, 1:1, 2:1 on the hand's 2nd, 3rd, 4th roll,
    a 1 loses, and a 4th roll that is neither loses."""
    face = dice[0]
    if not view.point:
        if face == DIE_NATURAL:
            num, den = DIE_COME_OUT_ODDS
            return Outcome(Result.WIN, bet.amount * num // den)
        return LOST if face == DIE_LOSER else TRAVEL_TO[face]
    if face == view.point:
        num, den = DIE_POINT_PAYS[view.step]
        return Outcome(Result.WIN, bet.amount * num // den)
    if face == DIE_LOSER or view.step + 1 >= len(DIE_POINT_PAYS):
        return LOST
    return NO_ACTION


def _face(number: int) -> Callable[[Bet, Dice, TableView], Outcome]:
    """Die Rich's face bet: the next roll shows `number`, 4:1; one roll."""
    num, den = FACE_ODDS

    def face(bet: Bet, dice: Dice, view: TableView) -> Outcome:
        return Outcome(Result.WIN, bet.amount * num // den) if dice[0] == number else LOST
    return face


def _point_and_step(view: TableView) -> TableView:
    return TableView(view.point, step=view.step)


class Rule(NamedTuple):
    off: Row                         # come-out row (empty: special)
    on: Row                          # point-on row (empty: special)
    special: Callable[[Bet, Dice, TableView], Outcome] | None
    commission: bool                 # buy/lay: 5% charged on a win
    totals: frozenset[int]           # totals that can resolve or move the bet


def _totals(rows: tuple[Row, Row]) -> frozenset[int]:
    return frozenset(a + b for row in rows for (a, b), e in zip(ALL_DICE, row) if e is not NO_ACTION)


class Rulebook:
    """Every bet's rule rows for one table configuration: its variant (the bets
    it offers, its points, its line rows and payout tables) and field_12."""

    def __init__(self, field_12: int = 2, variant: Variant = BANK) -> None:
        self.field_12 = field_12
        self.variant = variant
        self.rules: dict[tuple[Kind, int], Rule] = {}
        for kind in Kind:
            if not variant.offers(kind):
                continue
            for n in variant.numbers(kind) or (0,):
                self.rules[kind, n] = self._build(kind, n)
        for kind in (Kind.PASS, Kind.DONT_PASS, Kind.COME, Kind.DONT_COME, Kind.HIGH):
            if variant.offers(kind):
                for n in variant.points:
                    self.rules[kind, n] = self._build(kind, n)
        # every draw, each as likely: 36 pairs of dice (or cards), or one die's six faces
        self.faces: tuple[Dice, ...] = ONE_DIE if variant.draw.count == 1 else ALL_DICE

    def advance(self, view: TableView, dice: Dice) -> TableView:
        """The table after this roll, by this variant's hand and points."""
        scheme = self.variant.scheme
        if scheme is Scheme.POINT:
            return advance(view, dice, self.variant.points)
        if scheme is Scheme.DIE:
            return advance_die(view, dice)
        return advance_high(view, dice)

    def projection(self, kind: Kind) -> Callable[[TableView], TableView] | None:
        """What of the table a bet of `kind` reads beyond its own number (edge.py's
        chain state); None: bank craps' projection for the kind. Die Rich's pass
        reads the point and how many rolls it has had."""
        if self.variant.scheme is Scheme.DIE and kind is Kind.PASS:
            return _point_and_step
        return None

    def _build(self, kind: Kind, n: int) -> Rule:
        if self.variant.scheme is Scheme.DIE:       # one die: every rule reads the face itself
            return Rule((), (), _face(n) if kind is Kind.FACE else _die_pass, False, frozenset(DIE_FACES))
        if kind is Kind.FIRE:
            return Rule((), (), _fire, False, frozenset({7}))
        ats = {Kind.SMALL: SMALL_MASK, Kind.TALL: TALL_MASK, Kind.ALL: ALL_MASK}
        if kind in ats:
            mask = ats[kind]
            totals = frozenset(t for t in range(2, 13) if mask >> t & 1) | {7}
            return Rule((), (), _ats(mask, ATS_PAYS[kind.value]), False, totals)
        if kind is Kind.HIGH:
            rows = _high_rows(n)
        elif kind in (Kind.PASS, Kind.DONT_PASS, Kind.COME, Kind.DONT_COME):
            rows = _line_rows(kind, n, self.variant)
        elif kind in (Kind.ODDS, Kind.LAY_ODDS, Kind.PLACE, Kind.BUY, Kind.LAY, Kind.HARD):
            rows = _number_rows(kind, n, self.variant)
        else:
            row = _one_roll_row(kind, n, self.field_12)
            rows = (row, row)
        vig = kind in (Kind.BUY, Kind.LAY) and not self.variant.charge_on_bet
        return Rule(rows[0], rows[1], None, vig, _totals(rows))

    def rule(self, bet: Bet) -> Rule:
        return self.rules[bet.kind, bet.number]

    def outcome(self, bet: Bet, dice: Dice, view: TableView) -> Outcome:
        """What this roll does to this bet, given the table before the roll."""
        return decide(self.rules[bet.kind, bet.number], bet, dice, view)


def decide(rule: Rule, bet: Bet, dice: Dice, view: TableView) -> Outcome:
    """The outcome function proper, for a caller that already holds the bet's rule
    (the simulator keeps it with each live bet instead of looking it up every roll)."""
    if rule.special is not None:
        return rule.special(bet, dice, view)
    entry = (rule.on if view.point else rule.off)[dice[0] * 6 + dice[1] - 7]
    if isinstance(entry, Outcome):
        return entry
    num, den = entry
    win = bet.amount * num // den
    if rule.commission:
        vig = commission(bet.kind, bet.amount, win)
        return Outcome(Result.WIN, win - vig, 0, vig)
    return Outcome(Result.WIN, win)


# The rulebooks of every variant with each of the two field payouts a table
# may have (options: field_12 2 or 3), built once at import and shared: a
# Rulebook is never changed.
_BOOKS: Mapping[tuple[str, int], Rulebook] = MappingProxyType(
    {(v.key, f): Rulebook(f, v) for v in VARIANTS.values() for f in (2, 3)})


def rulebook(field_12: int = 2, variant: Variant = BANK) -> Rulebook:
    """The shared (immutable) rulebook for a variant and field_12 setting (any other: a new one)."""
    book = _BOOKS.get((variant.key, field_12))
    return Rulebook(field_12, variant) if book is None else book

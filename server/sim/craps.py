"""A fast bank craps simulator that plays strategies with the real rules.

Every bet is decided by the same `Rulebook.outcome` the live table uses; only
the bookkeeping is lighter (no facts, no money intents, no handles). Live bets
are indexed by the totals that can decide them, so a roll costs only the bets
it can touch: a place 6 is not even looked at on a 3.

A strategy is plain Python: any object with some of the methods of `Strategy`
below. It sees the table through a `Seat` and places bets with it; the same
limits the table enforces apply (exact units, min/max, odds limits, timing).

It lives outside server/games because it times itself (rolls per second) and
makes its own dice from a seed: the games package stays pure.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from server.config.model import TableConfig
from server.games.craps.options import CrapsOptions

from server.games.craps.bets import BONUS, CONTRACTS, LINE, Bet, Kind, payout_unit
from server.games.craps.limits import Limits, stake_problem, timing_problem
from server.games.craps.outcome import (
    COME_OUT,
    Outcome,
    Result,
    Rule,
    TableView,
    decide,
    rulebook,
)

TIMED = frozenset((*LINE, *BONUS, Kind.HIGH))      # kinds whose acceptance depends on the hand


class Slot:
    """One live bet in the simulator. `base` is the line bet odds back."""

    __slots__ = ("again", "base", "bet", "keep", "live", "odds", "rule", "totals")

    def __init__(self, bet: Bet, rule: Rule, base: Slot | None,
                 totals: frozenset[int] | None) -> None:
        self.bet = bet
        self.rule = rule
        self.base = base
        self.odds: list[Slot] = []
        self.totals = totals
        self.live = True
        self.again = False
        self.keep = False

    def __repr__(self) -> str:
        return f"Slot({self.bet})"


class Strategy:
    """What a strategy may define. All hooks are optional; the defaults do nothing."""

    def before_roll(self, seat: Seat) -> None:
        """Called before every roll: place or remove bets here."""

    def travelled(self, seat: Seat, slot: Slot) -> None:
        """A pass/come/don't bet just moved to its number (slot.bet.number)."""

    def resolved(self, seat: Seat, slot: Slot, outcome: Outcome) -> None:
        """A bet was decided (won, lost or pushed); it comes off the table when this
        returns, unless the hook calls `seat.again(slot)` to put the same bet back up."""


class Seat:
    """One player's hands on the simulated table: look at it and place bets."""

    def __init__(self, table: TableConfig[CrapsOptions]) -> None:
        self.limits = Limits.of(table)
        self.book = rulebook(self.limits.field_12, self.limits.variant)
        self.view: TableView = COME_OUT
        self.index: list[dict[Slot, None]] = [{} for _ in range(13)]   # by total
        self.always: dict[Slot, None] = {}        # bets every total decides (one-roll, come box)
        self._ok: set[Bet] = set()
        self._max_odds: dict[tuple[Kind, int, int], int] = {}
        self.kinds: dict[Kind, int] = {k: 0 for k in Kind}
        self.keys: dict[tuple[Kind, int], int] = {}
        self.refused: str | None = None
        self.wagered = 0        # stakes of decided bets (pushes included)
        self.net = 0            # chips won minus chips lost

    # -- looking ----------------------------------------------------------
    @property
    def point(self) -> int:
        return self.view.point

    def has(self, kind: Kind, number: int | None = None) -> bool:
        """Whether a live bet of this kind (on this number) is on the table."""
        if kind is Kind.PASS and not self.limits.variant.offers(kind):
            kind = self.limits.variant.line     # High Point: pass is its one bet's alias
        if number is None:
            return self.kinds[kind] > 0
        return self.keys.get((kind, number), 0) > 0

    @property
    def bets(self) -> list[Slot]:
        seen: dict[Slot, None] = dict(self.always)
        for bucket in self.index:
            seen.update(bucket)
        return list(seen)

    def min_stake(self, kind: Kind, number: int = 0) -> int:
        """Smallest stake this table takes on the bet (min_bet rounded up to the unit)."""
        unit = payout_unit(kind, number)
        return -(-self.limits.min_bet // unit) * unit

    # -- betting ----------------------------------------------------------
    def bet(self, kind: Kind, number: int = 0, amount: int | None = None,
            keep: bool = False) -> Slot | None:
        """Place a bet (amount None: the table's smallest). None if refused (see .refused).

        keep=True makes it a standing bet: after each decision the same bet goes
        straight back up (place, buy, lay, hardways, one-roll bets; not line or
        bonus bets, whose acceptance depends on the moment of the hand).
        """
        variant = self.limits.variant
        if kind is Kind.PASS and not variant.offers(kind):
            kind = variant.line                 # High Point: pass is its one bet's alias
        if amount is None:
            amount = self.min_stake(kind, number)
        bet = Bet(kind, number, amount)
        if bet not in self._ok:                 # stake checks depend only on the bet: cache
            problem = stake_problem(self.limits, kind, number, amount)
            if kind in (Kind.ODDS, Kind.LAY_ODDS):
                problem = "odds are placed with seat.odds(base)"
            elif not self.limits.variant.offers(kind):
                problem = self.limits.variant.refusal(kind)
            elif number not in (self.limits.variant.numbers(kind) or (0,)):
                problem = f"{kind.value} does not take {number}"
            if problem:
                self.refused = problem
                return None
            self._ok.add(bet)
        if kind in TIMED:
            if keep:
                self.refused = f"{kind.value} cannot be a standing bet"
                return None
            view = self.view
            problem = timing_problem(kind, view.point, view.rolls)
            if problem:
                self.refused = problem
                return None
        slot = self._add(bet, None)
        slot.keep = keep
        return slot

    def odds(self, base: Slot, amount: int | None = None) -> Slot | None:
        """Odds behind a travelled line bet (amount None: the most the table allows)."""
        b = base.bet
        if not base.live or not b.number or b.kind not in (Kind.PASS, Kind.COME,
                                                             Kind.DONT_PASS, Kind.DONT_COME):
            self.refused = "odds need a line bet with a point"
            return None
        kind = Kind.ODDS if b.kind in (Kind.PASS, Kind.COME) else Kind.LAY_ODDS
        if amount is None and not base.odds:    # the common case: full odds, cached
            key = (kind, b.number, b.amount)
            stake = self._max_odds.get(key)
            if stake is None:
                stake = self._max_odds[key] = self.limits.max_odds_stake(kind, b.number, b.amount)
            if stake:
                slot = self._add(Bet(kind, b.number, stake), base)
                base.odds.append(slot)
                return slot
        taken = sum(o.bet.amount for o in base.odds)
        if amount is None:
            amount = self.limits.max_odds_stake(kind, b.number, b.amount, taken)
        problem = stake_problem(self.limits, kind, b.number, amount, "odds")
        if not problem and taken + amount > self.limits.odds_limit(kind, b.number, b.amount):
            problem = "odds over the limit"
        if problem:
            self.refused = problem
            return None
        slot = self._add(Bet(kind, b.number, amount), base)
        base.odds.append(slot)
        return slot

    def again(self, slot: Slot) -> bool:
        """From `resolved`: put the same bet straight back up (cheaper than a new `bet`)."""
        bet = slot.bet
        if slot.keep:
            return True
        if bet.kind in TIMED:
            view = self.view
            problem = timing_problem(bet.kind, view.point, view.rolls)
            if problem:
                self.refused = problem
                return False
        if bet.kind in (Kind.ODDS, Kind.LAY_ODDS) or bet.kind in CONTRACTS and bet.number:
            self.refused = "only a bet that stands on its own can go straight back up"
            return False
        slot.again = True
        return True

    def remove(self, slot: Slot) -> bool:
        """Take a non-contract bet down (its odds come down with it)."""
        if not slot.live or slot.bet.kind in CONTRACTS:
            return False
        for o in slot.odds:
            self.remove(o)
        self._drop(slot)
        return True

    def _add(self, bet: Bet, base: Slot | None) -> Slot:
        rule = self.book.rules[bet.kind, bet.number]
        totals = rule.totals
        if len(totals) == 11:                   # decided by every roll: one list, not 11
            slot = Slot(bet, rule, base, None)
            self.always[slot] = None
        else:
            slot = Slot(bet, rule, base, totals)
            for t in totals:
                self.index[t][slot] = None
        self.kinds[bet.kind] += 1
        key = (bet.kind, bet.number)
        self.keys[key] = self.keys.get(key, 0) + 1
        return slot

    def _drop(self, slot: Slot) -> None:
        slot.live = False
        totals = slot.totals
        if totals is None:
            del self.always[slot]
        else:
            index = self.index
            for t in totals:
                del index[t][slot]
        bet = slot.bet
        self.kinds[bet.kind] -= 1
        self.keys[bet.kind, bet.number] -= 1


@dataclass(frozen=True)
class SimResult:
    rolls: int
    wagered: int          # stakes of every decided bet
    net: int              # player's chips won minus lost
    seconds: float
    open_bets: int        # still undecided when the rolls ran out (not counted)

    @property
    def edge(self) -> Fraction:
        """Measured house edge: the player's loss over the chips wagered."""
        return Fraction(-self.net, self.wagered) if self.wagered else Fraction(0)

    @property
    def rolls_per_second(self) -> float:
        return self.rolls / self.seconds if self.seconds > 0 else float("inf")


def _hook(strategy: object, name: str) -> Callable[..., None] | None:
    """The strategy's hook, or None when it has none (or only Strategy's empty one)."""
    fn = getattr(strategy, name, None)
    if not callable(fn) or getattr(type(strategy), name, None) is getattr(Strategy, name):
        return None
    hook: Callable[..., None] = fn     # a strategy's own method, called for what it does
    return hook


def run(table: TableConfig[CrapsOptions], strategy: object, rolls: int, seed: int) -> SimResult:
    """Play `rolls` rolls of one seat with `strategy`, dice from random.Random(seed)."""
    seat = Seat(table)
    index = seat.index
    always = seat.always
    drop = seat._drop
    rnd = random.Random(seed).random
    before, travelled, resolved = (_hook(strategy, name)
                                   for name in ("before_roll", "travelled", "resolved"))
    add = seat._add
    WIN, LOSE, TRAVEL = Result.WIN, Result.LOSE, Result.TRAVEL
    wagered = net = 0
    view = COME_OUT
    faces = seat.book.faces                     # two dice' 36, or Die Rich's one die's 6
    totals = [sum(d) for d in faces]
    n = len(faces)
    started = time.perf_counter()
    for _ in range(rolls):
        if before is not None:
            before(seat)
        i = int(rnd() * n)
        dice = faces[i]
        seat.view = after = seat.book.advance(view, dice)   # hooks below see the table after the roll
        bucket = index[totals[i]]
        if bucket or always:
            for slot in [*always, *bucket]:
                o = decide(slot.rule, slot.bet, dice, view)
                r = o[0]
                if not r:
                    continue
                if r is TRAVEL:
                    drop(slot)
                    moved = add(slot.bet.travel(o[2]), None)
                    if travelled is not None:
                        travelled(seat, moved)
                    continue
                stake = slot.bet.amount
                wagered += stake
                if r is WIN:
                    net += o[1]
                elif r is LOSE:
                    net -= stake
                if slot.keep:                   # a standing bet: straight back up
                    if resolved is not None:
                        resolved(seat, slot, o)
                    continue
                if resolved is not None:
                    resolved(seat, slot, o)
                    if slot.again:              # the strategy put it straight back up
                        slot.again = False
                        continue
                drop(slot)
        view = after
    seconds = time.perf_counter() - started
    seat.wagered, seat.net = wagered, net
    return SimResult(rolls, wagered, net, seconds, len(seat.bets))

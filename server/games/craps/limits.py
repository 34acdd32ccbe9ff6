"""Which stakes a table accepts: min/max, exact payout units, odds limits.

Every check returns a one-line reason (or None) so the table, the simulator and
`casino odds` refuse or size wagers the same way.
"""
from __future__ import annotations

from dataclasses import dataclass

from server.config.model import TableConfig
from server.games.craps.options import CrapsOptions, variant_of

from .bets import BONUS, Kind, payout_unit
from .variants import BANK, Variant

# `odds: 0`: 3x on 4/10, 4x on 5/9, 5x on 6/8 taken (the variant's `take`:
# crapless adds 3x on 2, 3, 11, 12); 6x the flat bet laid.
DEFAULT_LAY = 6


@dataclass(frozen=True)
class Limits:
    """The numbers a craps table's checks need, taken from its TableConfig."""

    min_bet: int = 1
    max_bet: int = 10_000
    odds: int = 0
    field_12: int = 2
    variant: Variant = BANK

    @classmethod
    def of(cls, table: TableConfig[CrapsOptions]) -> Limits:
        opts = table.options
        return cls(table.min_bet, table.max_bet, opts.odds, opts.field_12, variant_of(opts))

    def odds_limit(self, kind: Kind, number: int, flat: int) -> int:
        """Most odds (stake, in chips) a flat bet of `flat` on `number` may carry."""
        if self.odds:
            return self.odds * flat
        if kind is Kind.ODDS:
            return self.variant.take[number] * flat
        return DEFAULT_LAY * flat

    def max_odds_stake(self, kind: Kind, number: int, flat: int, already: int = 0) -> int:
        """Largest acceptable odds stake (exact unit, within max_bet), or 0."""
        unit = payout_unit(kind, number)
        room = min(self.odds_limit(kind, number, flat) - already, self.max_bet)
        stake = room // unit * unit
        return stake if stake >= self.min_bet else 0


def stake_problem(limits: Limits, kind: Kind, number: int, amount: int,
                  label: str | None = None) -> str | None:
    """Why this stake cannot be taken on this bet, or None."""
    if amount <= 0:
        return "a wager must be at least 1 chip"
    if amount < limits.min_bet:
        return f"the table minimum is {limits.min_bet}"
    if amount > limits.max_bet:
        return f"the table maximum is {limits.max_bet}"
    unit = payout_unit(kind, number)
    if amount % unit:
        what = label or (f"{kind.value} {number}" if number else kind.value)
        return f"{what} pays exactly only in multiples of {unit}: {amount} is not one"
    return None


def timing_problem(kind: Kind, point: int, hand_rolls: int, variant: Variant = BANK) -> str | None:
    """Why this kind cannot be bet at this moment of the hand, or None."""
    if kind in BONUS and hand_rolls:
        return f"{kind.value} is taken only before the first roll of a shooter hand"
    if kind in (Kind.PASS, Kind.DONT_PASS, Kind.HIGH) and point:
        instead = " or ".join(k.value for k in (Kind.COME, Kind.DONT_COME) if variant.offers(k))
        return (f"{kind.value} is bet on the come-out; with a point on, bet {instead}" if instead
                else f"{kind.value} is bet on the come-out; the point is {point}")
    if kind in (Kind.COME, Kind.DONT_COME) and not point:
        return f"{kind.value} waits for a point; on the come-out bet pass or dontpass"
    return None

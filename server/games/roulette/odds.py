"""Exact house edges, computed by settling every bet on all 37 pockets.

Nothing here is a quoted number: each edge is 1 - (chips returned over the 37
equally likely pockets) / (37 x stake), as a Fraction, for every pocket set
the kind table allows. So a wrong payout or a wrong set shows up here (and
in `casino odds`) instead of being papered over: docs/play-roulette.md says 1/37 for every
bet, and 1/74 for the even-money bets with la partage on an even stake.
"""
from __future__ import annotations

from fractions import Fraction

from .bets import Bet
from .kinds import KINDS, Kind
from .layout import POCKETS
from .payout import settle

QUOTE_STAKE = 2      # even, so la partage's half stake is whole chips (docs/play-roulette.md)


def edge(bet: Bet, la_partage: bool = False) -> Fraction:
    """The house's expected take per chip staked on `bet`, exactly."""
    back = sum(settle(bet, pocket, la_partage) for pocket in POCKETS)
    return 1 - Fraction(back, len(POCKETS) * bet.amount)


def kind_edge(kind: Kind, la_partage: bool = False, stake: int = QUOTE_STAKE) -> Fraction:
    """The edge of a kind; every pocket set it may cover must give the same one."""
    edges = {edge(Bet(kind, group, stake), la_partage) for group in KINDS[kind].groups}
    if len(edges) != 1:
        raise ValueError(f"{kind.value}: the layout gives different edges {sorted(edges)}")
    return edges.pop()


def house_edges(la_partage: bool = False, stake: int = QUOTE_STAKE) -> list[tuple[str, Fraction]]:
    """(bet name, exact edge) for every kind, in the kind table's order (like craps' house_edges)."""
    return [(kind.value, kind_edge(kind, la_partage, stake)) for kind in KINDS]


def odds_rows(table: str, la_partage: bool = False) -> list[dict[str, object]]:
    """Rows for `casino odds --json`: table, bet, house_edge (float) and the exact fraction."""
    return [{"table": table, "bet": name, "house_edge": float(e), "exact": f"{e.numerator}/{e.denominator}"}
            for name, e in house_edges(la_partage)]

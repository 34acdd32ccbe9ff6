"""`casino sim` at a blackjack table: basic strategy through the pure shoe simulator.

The rounds are played by server.games.blackjack.simulate (seeded, deterministic,
the same play `casino odds` estimates the shoe's edge with); this wrapper only
adds what the games package may not have: a clock, for rounds per second. Basic
strategy is the one strategy: it is what the house edge is quoted for.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from server.config.model import TableConfig
from server.games.blackjack.edge import infinite_shoe_edge
from server.games.blackjack.options import BlackjackOptions
from server.games.blackjack.simulate import Estimate, simulate

STRATEGIES = ("basic",)


@dataclass(frozen=True)
class BlackjackSimResult:
    estimate: Estimate
    exact: float          # the infinite-shoe edge of the same rules, to compare
    seconds: float

    @property
    def rounds_per_second(self) -> float:
        return self.estimate.rounds / self.seconds if self.seconds > 0 else float("inf")

    def lines(self) -> list[str]:
        e = self.estimate
        return [f"rounds           {e.rounds}",
                f"shuffles         {e.shuffles}",
                f"measured edge    {e.edge * 100:.3f}% (95% interval {e.low * 100:.3f}% to {e.high * 100:.3f}%)",
                f"infinite shoe    {self.exact * 100:.3f}% (exact)",
                f"rounds per second {self.rounds_per_second:,.0f}"]


def run(table: TableConfig[BlackjackOptions], strategy: str, rounds: int, seed: int) -> BlackjackSimResult:
    """Play `rounds` rounds of `strategy` (only "basic") at this table's shoe."""
    if strategy not in STRATEGIES:
        raise ValueError(f"blackjack plays {' or '.join(STRATEGIES)} strategy, not {strategy!r}")
    started = time.perf_counter()
    estimate = simulate(table.options, rounds, seed)
    seconds = time.perf_counter() - started
    return BlackjackSimResult(estimate, float(infinite_shoe_edge(table.options)), seconds)

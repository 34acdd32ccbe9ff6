"""Bank craps simulator speed against crapssim 0.4.1, side by side in one run.

Two scenarios, one player each: a 10-chip pass line with 3-4-5x odds, and the
`many` set (pass + max odds, a come bet every roll with max odds, all six place
bets, the field and the four hardways, renewed as they resolve). Each side runs
the same number of rolls several times, alternating so both see the same machine
load; the figure is the median rolls per second, and the ratio ours / crapssim.
"""
from __future__ import annotations

import statistics
import time

from server.config.model import TableConfig
from server.games.craps.options import CrapsOptions
from server.sim import craps as sim
from server.sim import strategies

RUNS = 5
SCENARIOS = (("pass+odds", "pass-odds", 40_000, 5.0), ("many", "many", 8_000, 20.0))
TABLE = TableConfig("bench", "craps", 1, 10, 1_000_000, CrapsOptions(odds=0))
MULTIPLIER = {4: 3, 5: 4, 6: 5, 8: 5, 9: 4, 10: 3}


def crapssim_strategy(name: str):
    from crapssim.strategy import (
        AggregateStrategy,
        BetPassLine,
        BetPlace,
        ComeOddsMultiplier,
        PassLineOddsMultiplier,
    )
    from crapssim.strategy.single_bet import BetCome, BetField, BetHardWay, StrategyMode

    line = [BetPassLine(10), PassLineOddsMultiplier(MULTIPLIER)]
    if name == "pass-odds":
        return AggregateStrategy(*line)
    return AggregateStrategy(
        *line, BetCome(10), ComeOddsMultiplier(MULTIPLIER),
        BetPlace({4: 10, 5: 10, 6: 12, 8: 12, 9: 10, 10: 10}, mode=StrategyMode.ADD_IF_NOT_BET,
                 skip_point=False),
        BetField(10), *[BetHardWay(n, 10) for n in (4, 6, 8, 10)])


def crapssim_rate(name: str, rolls: int, seed: int) -> float:
    from crapssim.table import Table

    table = Table(seed=seed)
    table.add_player(bankroll=10**12, strategy=crapssim_strategy(name))
    started = time.perf_counter()
    table.run(max_rolls=rolls, verbose=False)
    return rolls / (time.perf_counter() - started)


def our_rate(name: str, rolls: int, seed: int) -> float:
    return sim.run(TABLE, strategies.load(name), rolls, seed).rolls_per_second


def measure() -> list[tuple[str, float, float, float]]:
    rows = []
    for label, name, rolls, target in SCENARIOS:
        ours, theirs = [], []
        for seed in range(RUNS):
            ours.append(our_rate(name, rolls, seed))
            theirs.append(crapssim_rate(name, rolls, seed))
        rows.append((label, statistics.median(ours), statistics.median(theirs), target))
    return rows


def main() -> None:
    try:
        import crapssim  # noqa: F401
    except ImportError:
        print("crapssim is not installed (pip install -e '.[bench]'); nothing to compare")
        return
    print(f"rolls per second, median of {RUNS} runs each, one player")
    print(f"{'scenario':<10} {'casino sim':>12} {'crapssim 0.4.1':>15} {'ratio':>8} {'target':>7}")
    for label, ours, theirs, target in measure():
        ratio = ours / theirs
        verdict = "ok" if ratio >= target else "BELOW TARGET"
        print(f"{label:<10} {ours:>12,.0f} {theirs:>15,.0f} {ratio:>7.1f}x {target:>6.0f}x  {verdict}")


if __name__ == "__main__":
    main()

"""The full-table roll bench (bench/bench_roll.py), run with tiny numbers so it cannot rot."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import bench_roll  # noqa: E402
from server.config.model import TableConfig  # noqa: E402
from server.games.craps.options import CrapsOptions  # noqa: E402
from server.games.craps.state import CrapsState  # noqa: E402
from server.games.intents import Hold, Refund, Settle  # noqa: E402


async def test_both_modes_settle_the_same_rolls_one_transaction_against_one_per_wager():
    result = await bench_roll.run(rolls=2, players=2)    # raises if chips or ledger checks differ
    one, split = result["one"], result["per-wager"]
    assert len(one.seconds) == len(split.seconds) == 2
    assert one.decided == split.decided and min(one.decided) > 2
    assert one.commits == [1, 1]
    assert split.commits == split.decided               # every decided wager its own commit
    assert all(s > 0 for s in one.seconds + split.seconds)


def test_the_per_wager_switch_rebuilds_the_old_intents_with_the_same_money():
    t = CrapsState(TableConfig("t", "craps", 12, 1, 100, CrapsOptions(field_12=2)))

    def accept(player: str, words: str) -> str:
        return next(e.key for e in t.bet(player, words) if isinstance(e, Hold))

    dp = accept("ann", "dp 10")             # push
    field = accept("ann", "field 10")       # wins 20 (field_12: 2)
    pas = accept("bob", "pass 10")          # lost
    events = t.roll((6, 6))
    [settle] = [e for e in events if isinstance(e, Settle)]
    money = [e for e in bench_roll.per_wager(events) if isinstance(e, (Settle, Refund))]
    assert sorted(money, key=str) == sorted([
        Refund(f"{settle.key}.{dp.split(':')[-1]}", dp),
        Settle(f"{settle.key}.{field.split(':')[-1]}", (field,), (("ann", 30),)),
        Settle(f"{settle.key}.{pas.split(':')[-1]}", (pas,), ()),
    ], key=str)


def test_quantiles_are_nearest_rank():
    s = bench_roll.Samples(seconds=[i / 1000 for i in range(1, 31)])
    assert (s.p(0.5), s.p(0.99)) == (15.0, 30.0)


async def test_watchers_see_the_roll_at_a_third_table_with_the_same_dice():
    result = await bench_roll.run(rolls=2, players=2, watchers=3)   # raises if the tables' chips differ
    w, one = result["watchers"], result["one"]
    assert len(w.watched) == len(w.seconds) == 2 and all(s > 0 for s in w.watched)
    assert w.decided == one.decided and w.commits == [1, 1]
    assert not one.watched                                           # no watchers there

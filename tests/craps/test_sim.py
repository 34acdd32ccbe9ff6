"""The simulator: same rules as the table, deterministic, indexed by total."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from craps_helpers import config

from server.sim import craps as sim
from server.sim import strategies
from server.games.craps.bets import Kind
from server.games.craps.events import BetAccepted, Travelled
from server.games.craps.outcome import ALL_DICE, rulebook
from server.games.craps.state import CrapsState
from server.games.intents import Hold, Settle

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["pass", "pass-odds", "many"])
def test_same_seed_same_result(name):
    a = sim.run(config(min_bet=5), strategies.load(name), 3000, seed=11)
    b = sim.run(config(min_bet=5), strategies.load(name), 3000, seed=11)
    assert (a.wagered, a.net, a.open_bets) == (b.wagered, b.net, b.open_bets)
    assert a.wagered > 0 and a.rolls == 3000


def test_many_renewing_and_rescanning_agree():
    """Standing bets and the plain before_roll strategy place the same bets."""
    a = sim.run(config(), strategies.load("many"), 5000, seed=3)
    b = sim.run(config(), strategies.Many(), 5000, seed=3)
    assert (a.wagered, a.net) == (b.wagered, b.net)


def test_sim_agrees_with_the_live_table_roll_for_roll():
    """pass-odds in the simulator and by hand on CrapsState with the same dice: same money."""
    seed, rolls = 5, 4000
    result = sim.run(config(odds=0), strategies.PassOdds(), rolls, seed)
    rnd = random.Random(seed).random
    t = CrapsState(config(odds=0))
    held: dict[str, int] = {}
    net = 0
    for _ in range(rolls):
        if t.point == 0 and not t.bets_of("p"):
            held.update({e.key: e.amount for e in t.bet("p", "pass 1") if isinstance(e, Hold)})
        for e in t.roll(ALL_DICE[int(rnd() * 36)]):
            if isinstance(e, Travelled):
                most = {4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5}[e.number]
                unit = {4: 1, 10: 1, 5: 2, 9: 2, 6: 5, 8: 5}[e.number]
                stake = most // unit * unit
                if stake:
                    placed = t.bet("p", f"odds pass {stake}")
                    assert isinstance(placed[0], BetAccepted)
                    held[placed[1].key] = stake
            elif isinstance(e, Settle):
                net += sum(p for _, p in e.pays) - sum(held[s] for s in e.stakes)
    assert net == result.net


def test_a_roll_only_looks_at_bets_it_can_decide(monkeypatch):
    book = rulebook(2)
    assert book.rules[Kind.PLACE, 6].totals == {6, 7}
    assert book.rules[Kind.HARD, 4].totals == {4, 7}
    assert book.rules[Kind.FIRE, 0].totals == {7}
    assert book.rules[Kind.SMALL, 0].totals == {2, 3, 4, 5, 6, 7}
    seen: list[tuple[int, Kind]] = []
    real = sim.decide

    def counting(rule, bet, dice, view):
        seen.append((dice[0] + dice[1], bet.kind))
        return real(rule, bet, dice, view)

    class ManyPlaces(sim.Strategy):
        def before_roll(self, seat):
            while sum(1 for s in seat.bets if s.bet.kind is Kind.PLACE) < 40:
                seat.bet(Kind.PLACE, 6, 6)

    monkeypatch.setattr(sim, "decide", counting)
    sim.run(config(), ManyPlaces(), 500, seed=2)
    assert seen and {t for t, k in seen if k is Kind.PLACE} <= {6, 7}


def test_refusals_in_the_sim_use_the_table_rules():
    seat = sim.Seat(config(min_bet=5))
    assert seat.bet(Kind.PLACE, 6, 10) is None and "multiples of 6" in seat.refused
    assert seat.bet(Kind.COME) is None and "point" in seat.refused
    assert seat.bet(Kind.PASS, 6) is None and seat.bet(Kind.PROP, 0) is None
    assert seat.min_stake(Kind.PLACE, 6) == 6 and seat.min_stake(Kind.HORN) == 8
    line = seat.bet(Kind.PASS)
    assert seat.odds(line) is None                     # no point yet


def test_a_user_strategy_from_a_file(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(
        "from server.games.craps.bets import Kind\n"
        "class FieldOnly:\n"
        "    def before_roll(self, seat):\n"
        "        if not seat.has(Kind.FIELD):\n"
        "            seat.bet(Kind.FIELD, 0, 5)\n")
    r = sim.run(config(), strategies.load(f"{path}:FieldOnly"), 1000, seed=1)
    assert r.wagered == 5000                           # a one-roll bet every roll
    with pytest.raises(ValueError):
        strategies.load("nonsense")


def test_sim_cli(capsys):
    from server.cli import main
    code = main(["sim", "--table", "bank_craps", "--strategy", "pass-odds", "--rolls", "2000",
                 "--seed", "9", "--config", str(ROOT / "config"), "--rooms", str(ROOT / "rooms")])
    out = capsys.readouterr().out
    assert code == 0
    for line in ("rolls            2000", "chips wagered", "net", "measured edge", "rolls per second"):
        assert line in out
    assert main(["sim", "--table", "nope", "--strategy", "pass", "--rolls", "5", "--seed", "1",
                 "--config", str(ROOT / "config")]) == 1


@pytest.mark.parametrize("variant", ["crapless", "new_york", "diceless"])
def test_the_sim_plays_each_variant_and_agrees_with_its_exact_edge(variant):
    from server.config.model import TableConfig
    from server.games.craps.edge import house_edges
    from server.games.craps.options import CrapsOptions
    table = TableConfig("v", "craps", 12, 1, 10_000, CrapsOptions(variant=variant))
    exact = float(dict(house_edges(table))["pass"])
    result = sim.run(table, strategies.load("pass"), 200_000, seed=7)
    assert result.wagered > 0 and abs(float(result.edge) - exact) < 0.02, (float(result.edge), exact)


@pytest.mark.parametrize("table", ["crapless_craps", "new_york_craps", "diceless_craps", "high_point_craps",
                                   "die_rich"])
def test_casino_sim_takes_every_shipped_variant_table(table, capsys):
    from server.cli import main
    code = main(["sim", "--table", table, "--strategy", "pass", "--rolls", "3000", "--seed", "4",
                 "--config", str(ROOT / "config"), "--rooms", str(ROOT / "rooms")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert f"table {table}, strategy pass" in out and "measured edge" in out
    assert main(["sim", "--table", "simple_craps", "--strategy", "pass", "--rolls", "5", "--seed", "1",
                 "--config", str(ROOT / "config"), "--rooms", str(ROOT / "rooms")]) == 1

"""High Point craps (docs/play-craps-variants.md): one bet, `high` (`pass` its alias),
a contract. Come-out 2 or 3: no decision; 11 or 12 wins 1:1; 4 to 10 is the
point and the next roll decides: higher wins 1:1, equal or lower loses. Every
one of the 36 outcomes on the come-out and on each point; refusals by name;
the hand's facts; the edge 7/297 from edge.py; the simulator agrees."""
from __future__ import annotations

from fractions import Fraction

import pytest

from server.config.model import TableConfig
from server.games.catalogue import entry_for, find_game
from server.games.craps import events as ev
from server.games.craps.bets import Bet, Kind
from server.games.craps.edge import house_edges
from server.games.craps.options import CrapsOptions
from server.games.craps.outcome import ALL_DICE, COME_OUT, Outcome, Result, TableView, rulebook
from server.games.craps.state import CrapsState
from server.games.craps.variants import HIGH_POINT, VARIANTS
from server.games.intents import Settle

from craps_helpers import accept, refusal, results
from support.sweep import Sweep

BOOK = rulebook(2, HIGH_POINT)
POINTS = (4, 5, 6, 7, 8, 9, 10)


def config(**kw) -> TableConfig:
    return TableConfig("hp", "craps", 12, kw.pop("min_bet", 1), kw.pop("max_bet", 10_000),
                       CrapsOptions(variant="high_point"))


def table() -> CrapsState:
    return CrapsState(config())


def test_the_variant_is_played_and_its_entry_is_in_the_catalogue():
    assert VARIANTS["high_point"] is HIGH_POINT
    entry = entry_for(config())
    assert entry.variant == "high_point" and entry.word == "highpoint"
    assert find_game("highpoint") is entry


def test_every_come_out_outcome():
    sweep = Sweep(dice=ALL_DICE)
    for (dice,) in sweep:
        total = sum(dice)
        if total in (2, 3):
            want = Outcome(Result.NONE)                     # no decision: the bet stays
        elif total in (11, 12):
            want = Outcome(Result.WIN, 10)                  # 1:1
        else:
            want = Outcome(Result.TRAVEL, 0, total)         # the point (4 to 10), 7 included
        sweep.expect(BOOK.outcome(Bet(Kind.HIGH, 0, 10), dice, COME_OUT), want)
    sweep.done()


def test_every_outcome_on_each_point():
    sweep = Sweep(point=POINTS, dice=ALL_DICE)
    for point, dice in sweep:
        want = Outcome(Result.WIN, 10) if sum(dice) > point else Outcome(Result.LOSE)    # equal or lower loses
        sweep.expect(BOOK.outcome(Bet(Kind.HIGH, point, 10), dice, TableView(point)), want)
    sweep.done()


def test_the_table_moves_as_the_rules_say():
    sweep = Sweep(point=(0, *POINTS), dice=ALL_DICE)
    for point, dice in sweep:
        total = sum(dice)
        if point == 0 and 4 <= total <= 10:
            want = TableView(total, rolls=4)
        elif point == 0:
            want = TableView(0, rolls=4)                    # 2, 3, 11, 12: the come-out again
        elif total > point:
            want = TableView(0, rolls=4)                    # a win: the same shooter's hand goes on
        else:
            want = COME_OUT                                 # a loss: a new shooter hand
        sweep.expect(BOOK.advance(TableView(point, rolls=3), dice), want)
    sweep.done()


@pytest.mark.parametrize("word", ["high", "pass", "line", "passline"])
def test_high_is_the_one_bet_and_pass_its_alias(word):
    t = table()
    accept(t, "ann", f"{word} 10")
    [w] = t.bets_of("ann")
    assert w.bet == Bet(Kind.HIGH, 0, 10) and w.name == "high"


@pytest.mark.parametrize("words, name", [
    ("dontpass 10", "don't pass"), ("come 10", "come"), ("dontcome 10", "don't come"),
    ("odds pass 10", "odds"), ("place 6 12", "place"), ("buy 4 20", "buy"), ("lay 4 40", "lay"),
    ("hard 6 10", "hard"), ("field 10", "field"), ("any7 10", "any seven"), ("anycraps 10", "any craps"),
    ("2 10", "single-number bet"), ("horn 8", "horn"), ("hop 2 3 10", "hop"), ("fire 10", "fire"),
    ("small 10", "small"), ("tall 10", "tall"), ("all 10", "all")])
def test_every_other_bet_is_refused_by_name_with_what_the_table_takes(words, name):
    t = table()
    assert refusal(t, "ann", words) == f"High Point craps has no {name}. Bets here: high"
    assert not t.wagers


@pytest.mark.parametrize("words, reason", [
    ("high", "bet needs a kind and an amount, e.g. 'bet pass 10'"),
    ("high 0", "a wager cannot be zero"), ("high -5", "a wager cannot be negative"),
    ("high ten", "'ten' is not a number"), ("high 6 10", "too many words: 'bet high <amount>'"),
    ("face 3 10", "unknown bet 'face' at High Point craps (it is a Die Rich bet). Bets here: high")])
def test_bad_input_is_one_line_and_changes_nothing(words, reason):
    t = table()
    assert refusal(t, "ann", words) == reason and not t.wagers


def test_limits_and_the_wallet():
    t = CrapsState(TableConfig("hp", "craps", 12, 5, 100, CrapsOptions(variant="high_point")))
    assert refusal(t, "ann", "high 4") == "the table minimum is 5"
    assert refusal(t, "ann", "high 101") == "the table maximum is 100"
    [refused] = t.bet("ann", "high 50", 40)
    assert refused.reason == "that wager needs 50 chips and your wallet has 40"


def test_high_is_bet_on_the_come_out_and_is_a_contract():
    t = table()
    accept(t, "ann", "high 10")
    t.roll((2, 4))                                           # point 6
    assert refusal(t, "bob", "high 10") == "high is bet on the come-out; the point is 6"
    [refused] = t.unbet("ann", "high")
    assert refused.reason == "high is a contract bet and stays until it is decided"


def test_a_come_out_two_or_three_leaves_the_bet_and_more_can_join():
    t = table()
    accept(t, "ann", "high 10")
    events = t.roll((1, 2))
    assert results(events) == {} and not [e for e in events if isinstance(e, Settle)]
    assert [type(e) for e in events] == [ev.Rolled]           # no decision, nothing moves
    assert t.point == 0 and [w.bet for w in t.bets_of("ann")] == [Bet(Kind.HIGH, 0, 10)]
    accept(t, "bob", "pass 20")
    events = t.roll((6, 6))
    won = [(e.wager.player, e.amount) for e in events if isinstance(e, ev.BetWon)]
    assert won == [("ann", 10), ("bob", 20)] and ev.HandWon(0, 1, 1) in events
    settle = [e for e in events if isinstance(e, Settle)][0]
    assert dict(settle.pays) == {"ann": 20, "bob": 40} and len(settle.stakes) == 2


def test_a_point_then_higher_wins_and_the_shooter_keeps_the_dice():
    t = table()
    accept(t, "ann", "high 10")
    events = t.roll((3, 4))                                  # 7 is a point here
    assert ev.PointSet(7) in events and t.point == 7 and not results(events)
    events = t.roll((4, 4))
    assert results(events) == {"high": ("won", 10)} and ev.HandWon(7, 2, 1) in events
    assert t.point == 0 and not any(isinstance(e, (ev.SevenOut, ev.HandLost)) for e in events)


@pytest.mark.parametrize("second", [(1, 1), (2, 3), (3, 3)])
def test_a_point_then_equal_or_lower_loses_and_ends_the_hand(second):
    t = table()
    accept(t, "ann", "high 10")
    t.roll((2, 4))                                           # point 6
    events = t.roll(second)
    assert results(events) == {"high": ("lost",)} and ev.HandLost(6, 2) in events
    assert t.view == COME_OUT


def test_the_edge_is_7_in_297_from_the_outcomes():
    edges = house_edges(config())
    assert edges == [("high", Fraction(7, 297))]


def test_the_simulator_agrees_with_the_edge():
    from server.sim import craps as sim
    from server.sim import strategies
    result = sim.run(config(), strategies.load("pass"), 200_000, seed=11)
    assert result.wagered > 50_000
    assert abs(float(result.edge) - 7 / 297) < 0.01, float(result.edge)


def test_casino_odds_prints_the_edge_as_a_fraction_and_a_percentage(tmp_path, capsys):
    from server.cli import main
    from craps_helpers import config_with
    config, rooms = config_with(tmp_path, "high_point_craps", "high_point")
    assert main(["odds", "--config", str(config), "--rooms", str(rooms), "--table", "high_point_craps"]) == 0
    out = capsys.readouterr().out
    assert "high_point_craps: High Point craps, bets 1..10000" in out
    assert "7/297" in out and "2.357%" in out and "odds" not in out.split("\n", 1)[1]
    assert main(["odds", "--config", str(config), "--rooms", str(rooms), "--json",
                 "--table", "high_point_craps"]) == 0
    import json
    rows = json.loads(capsys.readouterr().out)
    assert rows == [{"table": "high_point_craps", "bet": "high", "house_edge": 7 / 297, "exact": "7/297"}]


def test_config_refuses_bank_keys_on_high_point(tmp_path):
    from server.config.load import ConfigInvalid, load_config
    from craps_helpers import config_with
    config, rooms = config_with(tmp_path, "high_point_craps", "high_point")
    path = config / "casino_tables.yaml"
    import re
    path.write_text(re.sub(r"(    variant: high_point[^\n]*\n)", r"\1    odds: 2\n", path.read_text()))
    with pytest.raises(ConfigInvalid) as err:
        load_config(config, rooms)
    assert "odds" in str(err.value) and "not high_point" in str(err.value)


def test_a_point_whose_bets_are_all_forfeit_comes_off_so_the_table_can_go_on():
    t = table()
    accept(t, "ann", "high 10")
    accept(t, "bob", "high 10")
    t.roll((2, 4))                                           # point 6
    t.forfeit("ann")
    assert t.point == 6                                      # bob's bet still rides on it
    t.forfeit("bob")
    assert t.point == 0 and t.view.rolls == 1                # nobody could bet or roll otherwise
    accept(t, "cat", "high 10")

"""Crapless craps (docs/play-craps-variants.md): all 36 outcomes of every bet it
offers, on the come-out and with each of its ten points on; payout units,
odds limits, refusals by name, and the edges edge.py computes."""
from __future__ import annotations

from fractions import Fraction

import pytest

from server.config.model import TableConfig
from server.games.craps.bets import CRAPLESS_POINTS, Bet, Kind
from server.games.craps.edge import house_edges
from server.games.craps.events import PointSet, SevenOut
from server.games.craps.options import CrapsOptions
from server.games.craps.outcome import ALL_DICE, Outcome, Result, TableView, rulebook
from server.games.craps.state import CrapsState
from server.games.craps.variants import BANK, CRAPLESS

from craps_helpers import accept, refusal, results
from support.sweep import Sweep

BOOK = rulebook(2, CRAPLESS)
BANK_BOOK = rulebook(2, BANK)
STATES = (0, *CRAPLESS_POINTS)                  # the come-out, then each point on
TRUE = {2: (6, 1), 12: (6, 1), 3: (3, 1), 11: (3, 1), 4: (2, 1), 10: (2, 1),
        5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)}
PLACE = {2: (11, 2), 12: (11, 2), 3: (11, 4), 11: (11, 4), 4: (9, 5), 10: (9, 5),
         5: (7, 5), 9: (7, 5), 6: (7, 6), 8: (7, 6)}
NONE, LOSE, PUSH = Outcome(Result.NONE), Outcome(Result.LOSE), Outcome(Result.PUSH)


def table(odds: int = 0, min_bet: int = 1, max_bet: int = 10_000) -> CrapsState:
    return CrapsState(TableConfig("t", "craps", 12, min_bet, max_bet,
                                  CrapsOptions(variant="crapless", odds=odds)))


def win(stake: int, ratio: tuple[int, int]) -> Outcome:
    return Outcome(Result.WIN, stake * ratio[0] // ratio[1])


def test_the_points_are_every_total_but_seven():
    assert CRAPLESS.points == (2, 3, 4, 5, 6, 8, 9, 10, 11, 12)


def test_the_box_a_7_wins_everything_else_travels():
    """Pass on the come-out, and a come bet's first roll whatever the point:
    nothing loses, 11 is not a natural."""
    sweep = Sweep(kind_state=[(Kind.PASS, 0)]                     # pass is in the box on the come-out only
                  + [(Kind.COME, s) for s in STATES], dice=ALL_DICE)
    for (kind, state), dice in sweep:
        total = sum(dice)
        sweep.expect(BOOK.outcome(Bet(kind, 0, 10), dice, TableView(point=state)),
                     Outcome(Result.WIN, 10) if total == 7 else Outcome(Result.TRAVEL, 0, total))
    sweep.done()


def test_a_line_bet_on_its_number_wins_on_it_and_loses_on_7():
    sweep = Sweep(kind_number_state=[(Kind.PASS, n, n) for n in CRAPLESS_POINTS]    # a pass bet's number is the point
                  + [(Kind.COME, n, s) for n in CRAPLESS_POINTS for s in STATES], dice=ALL_DICE)
    for (kind, number, state), dice in sweep:
        total = sum(dice)
        sweep.expect(BOOK.outcome(Bet(kind, number, 10), dice, TableView(point=state)),
                     Outcome(Result.WIN, 10) if total == number else LOSE if total == 7 else NONE)
    sweep.done()


def test_odds_pay_true_odds_and_come_odds_are_off_on_the_come_out():
    sweep = Sweep(number=CRAPLESS_POINTS, state=STATES, dice=ALL_DICE)
    for number, state, dice in sweep:
        total = sum(dice)
        if state == 0:
            want = PUSH if total in (number, 7) else NONE
        else:
            want = win(60, TRUE[number]) if total == number else LOSE if total == 7 else NONE
        sweep.expect(BOOK.outcome(Bet(Kind.ODDS, number, 60), dice, TableView(point=state)), want)
    sweep.done()


def test_place_pays_its_table_and_is_off_on_the_come_out():
    sweep = Sweep(number=CRAPLESS_POINTS, state=STATES, dice=ALL_DICE)
    for number, state, dice in sweep:
        total = sum(dice)
        if state == 0:
            want = NONE
        else:
            want = win(60, PLACE[number]) if total == number else LOSE if total == 7 else NONE
        sweep.expect(BOOK.outcome(Bet(Kind.PLACE, number, 60), dice, TableView(point=state)), want)
    sweep.done()


def test_buy_pays_true_odds_less_5_percent_of_the_stake_on_a_win():
    sweep = Sweep(number=CRAPLESS_POINTS, state=STATES, dice=ALL_DICE)
    for number, state, dice in sweep:
        total = sum(dice)
        if state == 0 or total not in (number, 7):
            want = NONE
        elif total == 7:
            want = LOSE
        else:
            paid = 40 * TRUE[number][0] // TRUE[number][1]
            want = Outcome(Result.WIN, paid - 2, 0, 2)
        sweep.expect(BOOK.outcome(Bet(Kind.BUY, number, 40), dice, TableView(point=state)), want)
    sweep.done()


def test_hardways_field_and_one_roll_bets_are_bank_crapss():
    sweep = Sweep(bet=[Bet(Kind.HARD, n, 10) for n in (4, 6, 8, 10)]
                  + [Bet(Kind.FIELD, 0, 10), Bet(Kind.ANY7, 0, 10), Bet(Kind.ANYCRAPS, 0, 10),
                     Bet(Kind.HORN, 0, 8), Bet(Kind.HOP, 12, 10), Bet(Kind.HOP, 33, 10)]
                  + [Bet(Kind.PROP, n, 10) for n in (2, 3, 11, 12)], state=STATES, dice=ALL_DICE)
    for bet, state, dice in sweep:
        # The bank table has no point on 2, 3, 11, 12: its rows read "a point is on" the same way.
        sweep.expect(BOOK.outcome(bet, dice, TableView(point=state)),
                     BANK_BOOK.outcome(bet, dice, TableView(point=state and 4)))
    sweep.done()


def test_a_come_out_2_is_the_point_and_a_seven_out_ends_the_hand():
    t = table()
    accept(t, "ann", "pass 10")
    events = t.roll((1, 1))
    assert PointSet(2) in events and t.point == 2 and not results(events)
    handle = accept(t, "ann", "odds pass 10")
    assert handle
    events = t.roll((3, 4))
    assert SevenOut(2) in events and t.point == 0
    assert results(events) == {"pass": ("lost",), "oddspass": ("lost",)}


def test_a_made_2_pays_the_line_and_6_to_1_odds():
    t = table()
    accept(t, "ann", "pass 10")
    t.roll((1, 1))
    accept(t, "ann", "odds pass 30")
    assert results(t.roll((1, 1))) == {"pass": ("won", 10), "oddspass": ("won", 180)}


def test_come_travels_to_12_and_place_2_pays_11_to_2():
    t = table()
    accept(t, "ann", "pass 10")
    t.roll((2, 2))
    accept(t, "ann", "come 5")
    accept(t, "ann", "place 2 4")
    events = t.roll((6, 6))
    assert [w.name for w in t.bets_of("ann")] == ["pass", "come12", "place2"]
    assert not results(events)
    assert results(t.roll((1, 1))) == {"place2": ("won", 22)}


@pytest.mark.parametrize("words, unit", [("place 2 5", 2), ("place 12 3", 2), ("place 3 6", 4),
                                         ("place 11 10", 4), ("place 6 10", 6), ("buy 3 3", 1)])
def test_payout_units(words, unit):
    t = table()
    accept(t, "ann", "pass 10")
    t.roll((2, 2))
    if unit == 1:
        accept(t, "ann", words)
        return
    assert f"in multiples of {unit}" in refusal(t, "ann", words)
    amount = int(words.split()[-1])
    accept(t, "ann", f"{' '.join(words.split()[:-1])} {amount // unit * unit + unit}")


@pytest.mark.parametrize("point, times", [(2, 3), (3, 3), (4, 3), (5, 4), (6, 5), (8, 5), (9, 4),
                                          (10, 3), (11, 3), (12, 3)])
def test_odds_0_is_3x_4x_5x_over_the_ten_points(point, times):
    t = table()
    accept(t, "ann", "pass 10")
    a = point // 2
    t.roll((a, point - a) if point - a <= 6 else (6, point - 6))
    assert t.point == point
    assert "limited to" in refusal(t, "ann", f"odds pass {10 * times + 10}")
    accept(t, "ann", f"odds pass {10 * times}")


def test_odds_n_is_n_times_on_every_point():
    t = table(odds=2)
    accept(t, "ann", "pass 10")
    t.roll((1, 2))
    assert "limited to 20" in refusal(t, "ann", "odds pass 21")
    accept(t, "ann", "odds pass 20")


@pytest.mark.parametrize("words, name", [("dontpass 10", "don't pass"), ("dp 10", "don't pass"),
                                         ("dontcome 10", "don't come"), ("lay 4 40", "lay"),
                                         ("fire 1", "fire"), ("small 1", "small"), ("tall 1", "tall"),
                                         ("all 1", "all"), ("odds dp 10", "don't pass")])
def test_bets_it_does_not_offer_are_refused_by_name(words, name):
    reason = refusal(table(), "ann", words)
    assert reason.startswith(f"Crapless craps has no {name}. Bets here: pass, come, odds, place, buy")
    listed = reason.split("Bets here: ")[1].split(", ")
    assert not {"dontpass", "dontcome", "lay", "fire", "small", "tall", "all"} & set(listed)


def test_the_edges_are_computed_from_the_outcomes():
    edges = dict(house_edges(TableConfig("t", "craps", 12, 1, 10_000, CrapsOptions(variant="crapless"))))
    assert edges["pass"] == edges["come"] == Fraction(373, 6930)
    assert edges["place 2"] == edges["place 12"] == Fraction(1, 14)
    assert edges["place 3"] == edges["place 11"] == Fraction(1, 16)
    assert edges["place 6"] == Fraction(1, 66) and edges["field"] == Fraction(1, 18)
    assert not {"dontpass", "dontcome", "lay 4", "fire", "small", "tall", "all"} & set(edges)
    assert {f"buy {n}" for n in CRAPLESS_POINTS} <= set(edges)

"""Press (allowed and refused) and true-odds bets, with exact payouts."""
from __future__ import annotations

import pytest
from simplified_helpers import Wallet, game, of

from server.games.intents import Hold, Settle
from server.games.simplified.events import (
    Bet, GameOver, Odds, OddsPlaced, PointSet, Press, Pressed, Refused, Roll)
from server.games.simplified.rules import Outcome, Side, odds_limit, odds_unit


def to_point(g, wallet, side=Side.PASS, amount="10"):
    wallet.apply(g.act(Bet(side, amount), wallet.chips))
    return wallet.apply(g.act(Roll(), wallet.chips))


def test_press_doubles_pass_bet_and_pays_double():
    g, w = game([6, 6]), Wallet(100)
    events = to_point(g, w)
    assert of(events, PointSet)[0].can_press
    events = w.apply(g.act(Press(), w.chips))
    assert of(events, Hold)[0].amount == 10 and of(events, Pressed) == [Pressed(20)]
    assert w.chips == 80
    events = w.apply(g.act(Roll(), w.chips))
    over = of(events, GameOver)[0]
    assert (over.flat, over.net, over.paid) == (20, 20, 40)
    assert len(of(events, Settle)[0].stakes) == 2
    assert w.chips == 120 and not w.held


def test_press_lost_loses_both_stakes():
    g, w = game([6, 7]), Wallet(100)
    to_point(g, w)
    w.apply(g.act(Press(), w.chips))
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]
    assert over.net == -20 and w.chips == 80


def test_press_refused_when_wallet_too_small_changes_nothing():
    g, w = game([6, 6]), Wallet(15)
    events = to_point(g, w)
    assert w.chips == 5
    assert of(events, PointSet)[0].can_press is False    # not offered (001)
    events = g.act(Press(), w.chips)
    assert len(events) == 1 and "needs 10 more and you have 5" in events[0].reason
    assert g.flat == 10 and not g.pressed
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]
    assert over.net == 10


def test_press_on_dont_refused_with_press_pass():
    g, w = game([6, 7], press="pass"), Wallet(100)
    events = to_point(g, w, Side.DONT)
    assert of(events, PointSet)[0].can_press is False
    events = g.act(Press(), w.chips)
    assert of(events, Refused)[0].reason == "At this table only the pass line may press."
    assert g.flat == 10


def test_press_on_dont_allowed_with_press_both():
    g, w = game([6, 7], press="both", bar=None), Wallet(100)
    to_point(g, w, Side.DONT)
    assert of(w.apply(g.act(Press(), w.chips)), Pressed) == [Pressed(20)]
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]
    assert over.outcome is Outcome.WIN and over.net == 20 and w.chips == 120


@pytest.mark.parametrize("side", [Side.PASS, Side.DONT])
def test_press_none_refuses_both_sides(side):
    g, w = game([6], press="none"), Wallet(100)
    to_point(g, w, side)
    assert of(g.act(Press(), w.chips), Refused)[0].reason == "This table does not allow pressing."


def test_press_only_once_and_only_right_after_point_and_not_on_come_out():
    g, w = game([6, 4, 6]), Wallet(100)
    w.apply(g.act(Bet(Side.PASS, "10"), w.chips))
    assert "once a point is set" in of(g.act(Press(), w.chips), Refused)[0].reason
    w.apply(g.act(Roll(), w.chips))
    w.apply(g.act(Press(), w.chips))
    assert "already pressed" in of(g.act(Press(), w.chips), Refused)[0].reason
    g2, w2 = game([6, 4, 6]), Wallet(100)
    to_point(g2, w2)
    w2.apply(g2.act(Roll(), w2.chips))        # a 4: no decision
    assert "right after the point" in of(g2.act(Press(), w2.chips), Refused)[0].reason


def test_press_refused_over_table_maximum():
    g, w = game([6], max_bet=15), Wallet(100)
    to_point(g, w)
    assert "over the table maximum 15" in of(g.act(Press(), w.chips), Refused)[0].reason


def test_fifteen_odds_on_eight_wins_eighteen():
    g, w = game([8, 8]), Wallet(100)
    to_point(g, w, amount="5")
    events = w.apply(g.act(Odds("15"), w.chips))
    assert of(events, OddsPlaced)[0].wins == 18 and of(events, Hold)[0].amount == 15
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]
    # 002: $5 pass plus $5 win plus $15 odds plus $18 odds win = $43.
    assert (over.flat_win, over.odds_win, over.paid, over.net) == (5, 18, 43, 23)
    assert w.chips == 123


@pytest.mark.parametrize("point, odds, wins", [(4, 30, 60), (10, 7, 14), (5, 10, 15),
                                               (9, 20, 30), (6, 25, 30)])
def test_pass_odds_true_payouts(point, odds, wins):
    g, w = game([point, point]), Wallet(1000)
    to_point(g, w)
    assert of(w.apply(g.act(Odds(str(odds)), w.chips)), OddsPlaced)[0].wins == wins
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]
    assert over.odds_win == wins and w.chips == 1000 + 10 + wins


@pytest.mark.parametrize("point, laid, wins", [(4, 60, 30), (5, 60, 40), (6, 60, 50)])
def test_dont_laid_odds_payouts(point, laid, wins):
    g, w = game([point, 7]), Wallet(1000)
    to_point(g, w, Side.DONT)
    assert of(w.apply(g.act(Odds(str(laid)), w.chips)), OddsPlaced)[0].wins == wins
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]
    assert over.odds_win == wins and w.chips == 1000 + 10 + wins


def test_odds_lost_with_the_flat_bet():
    g, w = game([4, 7]), Wallet(100)
    to_point(g, w)
    w.apply(g.act(Odds("20"), w.chips))
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]
    assert over.net == -30 and w.chips == 70


@pytest.mark.parametrize("point, amount, fragment", [
    (5, "15", "multiples of 2"), (8, "12", "multiples of 5"), (4, "35", "at most 30"),
    (4, "3", "minimum bet is 5"), (4, "abc", "not an amount")])
def test_odds_refusals(point, amount, fragment):
    g, w = game([point]), Wallet(1000)
    to_point(g, w)
    events = g.act(Odds(amount), w.chips)
    assert len(events) == 1 and fragment in events[0].reason and g.odds == 0


def test_odds_refusals_outside_point_and_twice_and_over_wallet():
    g, w = game([4]), Wallet(40)
    w.apply(g.act(Bet(Side.PASS, "10"), w.chips))
    assert "once a point is set" in of(g.act(Odds("10"), w.chips), Refused)[0].reason
    w.apply(g.act(Roll(), w.chips))
    assert of(g.act(Odds("30"), 20), Refused)[0].reason == "You have only 20 chips."
    w.apply(g.act(Odds("10"), w.chips))
    assert "already have 10" in of(g.act(Odds("10"), w.chips), Refused)[0].reason


def test_odds_limits_345_and_n_times():
    assert [odds_limit(Side.PASS, p, 10, 0) for p in (4, 5, 6, 8, 9, 10)] == [30, 40, 50, 50, 40, 30]
    assert [odds_limit(Side.DONT, p, 10, 0) for p in (4, 5, 6)] == [60, 60, 60]
    assert odds_limit(Side.PASS, 5, 5, 1) == 4          # 5 rounded down to the unit 2
    assert odds_limit(Side.DONT, 6, 10, 2) == 18         # 20 rounded down to the unit 6
    assert [odds_unit(Side.PASS, p) for p in (4, 5, 6)] == [1, 2, 5]
    assert [odds_unit(Side.DONT, p) for p in (4, 5, 6)] == [2, 3, 6]


def test_odds_limit_follows_pressed_flat():
    g, w = game([6], odds=1), Wallet(1000)
    to_point(g, w)
    assert "at most 10" in of(g.act(Odds("20"), w.chips), Refused)[0].reason
    w.apply(g.act(Press(), w.chips))
    assert of(w.apply(g.act(Odds("20"), w.chips)), OddsPlaced)[0].wins == 24


def test_odds_with_cents_returned():
    g, w = game([10]), Wallet(100)
    to_point(g, w, amount="5")
    placed = of(g.act(Odds("10.36"), w.chips), OddsPlaced)[0]
    assert placed.amount == 10 and placed.note == "0.36 returned, your odds bet is 10"

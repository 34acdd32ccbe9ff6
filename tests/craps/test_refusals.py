"""Every refusal has a one-line reason and changes nothing; exact units; odds limits."""
from __future__ import annotations

import pytest
from craps_helpers import accept, new, refusal

from server.games.craps.events import BetAccepted, BetRefused


def set_point(t, n):
    t.roll({4: (1, 3), 5: (1, 4), 6: (1, 5), 8: (2, 6), 9: (3, 6), 10: (4, 6)}[n])
    assert t.point == n


@pytest.mark.parametrize("words,unit", [
    ("place 6 10", 6), ("place 8 13", 6), ("place 5 7", 5), ("place 4 12", 5),
    ("buy 6 12", 5), ("buy 9 3", 2), ("lay 4 5", 2), ("lay 5 10", 3), ("lay 8 10", 6),
    ("horn 5", 4), ("horn 6", 4),
])
def test_exact_unit_refusals_name_the_unit(words, unit):
    t = new()
    set_point(t, 4)
    reason = refusal(t, "ann", words)
    assert f"multiples of {unit}" in reason and "\n" not in reason
    assert t.bets_of("ann") == []


@pytest.mark.parametrize("n,bad,good,unit", [(5, 15, 16, 2), (6, 12, 15, 5), (9, 7, 8, 2)])
def test_taken_odds_need_exact_units(n, bad, good, unit):
    t = new(odds=10)
    accept(t, "ann", "pass 10")
    set_point(t, n)
    assert f"multiples of {unit}" in refusal(t, "ann", f"odds pass {bad}")
    accept(t, "ann", f"odds pass {good}")


@pytest.mark.parametrize("n,bad,good,unit", [(6, 10, 12, 6), (5, 10, 12, 3), (4, 5, 6, 2)])
def test_laid_odds_need_exact_units(n, bad, good, unit):
    t = new()
    accept(t, "ann", "dp 10")
    set_point(t, n)
    assert f"multiples of {unit}" in refusal(t, "ann", f"odds dp {bad}")
    accept(t, "ann", f"odds dp {good}")


@pytest.mark.parametrize("n,most", [(4, 30), (10, 30), (5, 40), (9, 40), (6, 50), (8, 50)])
def test_odds_zero_is_3_4_5x_taken(n, most):
    t = new(odds=0)
    accept(t, "ann", "pass 10")
    set_point(t, n)
    over = most + (2 if n in (5, 9) else 5 if n in (6, 8) else 1)
    assert "limited to" in refusal(t, "ann", f"odds pass {over}")
    accept(t, "ann", f"odds pass {most}")


@pytest.mark.parametrize("n", [4, 5, 6, 8, 9, 10])
def test_odds_zero_is_6x_laid_on_the_dont_side(n):
    t = new(odds=0)
    accept(t, "ann", "dp 10")
    set_point(t, n)
    assert "limited to 60" in refusal(t, "ann", "odds dp 66")
    accept(t, "ann", "odds dp 60")


@pytest.mark.parametrize("n", [4, 5, 6, 8, 9, 10])
def test_odds_seven_is_7x_the_flat_stake_on_both_sides(n):
    t = new(odds=7)
    accept(t, "ann", "pass 10")
    accept(t, "bob", "dp 12")
    set_point(t, n)
    take_unit = {4: 1, 10: 1, 5: 2, 9: 2, 6: 5, 8: 5}[n]
    lay_unit = {4: 2, 10: 2, 5: 3, 9: 3, 6: 6, 8: 6}[n]
    assert "limited to 70" in refusal(t, "ann", f"odds pass {70 + take_unit}")
    accept(t, "ann", f"odds pass {70 // take_unit * take_unit}")
    assert "limited to 84" in refusal(t, "bob", f"odds dp {84 + lay_unit}")
    accept(t, "bob", f"odds dp {84 // lay_unit * lay_unit}")


def test_odds_limit_counts_odds_already_taken():
    t = new()
    accept(t, "ann", "pass 10")
    set_point(t, 4)
    accept(t, "ann", "odds pass 20")
    accept(t, "ann", "odds pass 10")
    reason = refusal(t, "ann", "odds pass 1")
    assert "limited to 30" in reason and "no more can be taken" in reason


def test_the_odds_still_open_are_counted_in_whole_payout_units():
    t = new(odds=2)
    accept(t, "bob", "dp 10")
    set_point(t, 6)                       # laid odds on 6 in sixes: 20 allowed, 18 the most
    reason = refusal(t, "bob", "odds dp 24")
    assert "limited to 18" in reason and "18 more can be laid" in reason
    accept(t, "bob", "odds dp 12")
    assert "6 more can be laid" in refusal(t, "bob", "odds dp 12")
    accept(t, "bob", "odds dp 6")


def test_a_wager_the_wallet_cannot_cover_is_one_line_before_any_hold():
    t = new()
    events = t.bet("ann", "pass 1001", wallet=990)
    assert len(events) == 1 and isinstance(events[0], BetRefused)
    assert events[0].reason == "that wager needs 1001 chips and your wallet has 990"


def test_odds_without_a_base_bet_or_before_a_point():
    t = new()
    assert "pass bet of yours" in refusal(t, "ann", "odds pass 10")
    accept(t, "ann", "pass 10")
    assert "wait until it has a point" in refusal(t, "ann", "odds pass 10")
    set_point(t, 6)
    assert "come6 bet of yours" in refusal(t, "ann", "odds come 6 10")
    assert "pass bet of yours" in refusal(t, "bob", "odds pass 10")   # someone else's base


def test_min_and_max_apply_to_every_wager_odds_included():
    t = new(min_bet=5, max_bet=100, odds=7)
    assert "minimum is 5" in refusal(t, "ann", "field 4")
    assert "maximum is 100" in refusal(t, "ann", "field 101")
    accept(t, "ann", "pass 100")
    set_point(t, 4)
    assert "maximum is 100" in refusal(t, "ann", "odds pass 200")
    accept(t, "ann", "odds pass 100")


@pytest.mark.parametrize("words,needle", [
    ("roulette 10", "unknown bet"), ("pass ten", "not a number"), ("pass 0", "zero"),
    ("pass -5", "negative"), ("place 7 10", "place needs a number"), ("hop 7 1 5", "two dice"),
    ("pass", "kind and an amount"),
])
def test_parse_refusals(words, needle):
    t = new()
    assert needle in refusal(t, "ann", words)


def test_line_bets_follow_the_puck():
    t = new()
    assert "waits for a point" in refusal(t, "ann", "come 10")
    set_point(t, 5)
    assert "on the come-out" in refusal(t, "ann", "pass 10")
    assert "on the come-out" in refusal(t, "ann", "dp 10")


def test_refusal_changes_nothing():
    t = new()
    before = (dict(t.wagers), t.view)
    events = t.bet("ann", "place 6 7")
    assert len(events) == 1 and isinstance(events[0], BetRefused)
    assert (dict(t.wagers), t.view) == before


def test_cents_are_returned_and_said():
    t = new()
    events = t.bet("ann", "field 10.36")
    assert isinstance(events[0], BetAccepted)
    assert events[0].note == "0.36 returned, your wager is 10"
    assert events[0].wager.bet.amount == 10
    assert events[1].amount == 10

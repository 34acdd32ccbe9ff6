"""A payout example for every bet kind, through the live table state."""
from __future__ import annotations

import pytest
from craps_helpers import accept, new, results

from server.games.craps.events import BetWon
from server.games.intents import Refund, Settle


def point(t, n):
    """Set the point to n with a roll that decides nothing else of interest."""
    a = {4: (1, 3), 5: (1, 4), 6: (1, 5), 8: (2, 6), 9: (3, 6), 10: (4, 6)}[n]
    t.roll(a)
    assert t.point == n


@pytest.mark.parametrize("setup,words,dice,name,won", [
    (None, "pass 10", (3, 4), "pass", 10),
    (None, "dp 10", (1, 1), "dontpass", 10),
    (4, "come 10", (5, 6), "come", 10),
    (4, "dc 10", (1, 2), "dontcome", 10),
    (4, "place 4 10", (1, 3), "place4", 18),
    (4, "place 5 10", (2, 3), "place5", 14),
    (4, "place 6 12", (2, 4), "place6", 14),
    (4, "place 9 5", (4, 5), "place9", 7),
    (4, "buy 10 20", (4, 6), "buy10", 39),       # 40 less 1 commission
    (4, "buy 5 20", (1, 4), "buy5", 29),         # 30 less 1
    (4, "buy 8 20", (2, 6), "buy8", 23),         # 24 less 1
    (4, "lay 4 40", (3, 4), "lay4", 19),         # 20 less 1 (5% of the win)
    (4, "lay 9 30", (3, 4), "lay9", 19),         # 20 less 1
    (4, "lay 6 24", (3, 4), "lay6", 19),         # 20 less 1
    (4, "hard 4 10", (2, 2), "hard4", 70),
    (4, "hard 8 10", (4, 4), "hard8", 90),
    (None, "field 10", (1, 1), "field", 20),
    (None, "field 10", (1, 2), "field", 10),
    (None, "field 10", (6, 6), "field", 20),     # field_12: 2
    (None, "any7 10", (2, 5), "any7", 40),
    (None, "anycraps 10", (1, 2), "anycraps", 70),
    (None, "2 10", (1, 1), "2", 300),
    (None, "3 10", (2, 1), "3", 150),
    (None, "11 10", (5, 6), "11", 150),
    (None, "12 10", (6, 6), "12", 300),
    (None, "horn 4", (1, 1), "horn", 27),        # 1 on 2 at 30:1, the other 3 lose
    (None, "horn 8", (5, 6), "horn", 24),        # 2 on 11 at 15:1, the other 6 lose
    (None, "hop 2 3 10", (3, 2), "hop23", 150),
    (None, "hop 3 2 10", (2, 3), "hop23", 150),
    (None, "hop 3 3 10", (3, 3), "hop33", 300),
])
def test_payout_examples(setup, words, dice, name, won):
    t = new()
    if setup:
        point(t, setup)
    accept(t, "ann", words)
    events = t.roll(dice)
    assert results(events)[name] == ("won", won)
    stake = int(words.split()[-1])
    settle = [e for e in events if isinstance(e, Settle)]
    assert settle[-1].pays == (("ann", stake + won),)


def test_field_12_pays_three_when_configured():
    t = new(field_12=3)
    accept(t, "ann", "field 10")
    assert results(t.roll((6, 6)))["field"] == ("won", 30)


@pytest.mark.parametrize("odds_words,base_words,n,won", [
    ("odds pass 10", "pass 10", 4, 20), ("odds pass 10", "pass 10", 5, 15),
    ("odds pass 10", "pass 10", 6, 12), ("odds pass 10", "pass 10", 10, 20),
])
def test_taken_odds_pay_true_odds(odds_words, base_words, n, won):
    t = new()
    accept(t, "ann", base_words)
    point(t, n)
    accept(t, "ann", odds_words)
    half = {4: (2, 2), 5: (2, 3), 6: (3, 3), 10: (5, 5)}[n]
    got = results(t.roll(half))
    assert got == {"pass": ("won", 10), "oddspass": ("won", won)}


@pytest.mark.parametrize("n,laid,won", [(4, 20, 10), (5, 30, 20), (6, 30, 25), (10, 40, 20)])
def test_laid_odds_pay_true_odds(n, laid, won):
    t = new()
    accept(t, "ann", "dp 10")
    point(t, n)
    accept(t, "ann", f"odds dp {laid}")
    assert results(t.roll((3, 4))) == {"dontpass": ("won", 10), "oddsdontpass": ("won", won)}


def test_losses_and_pushes_move_money_correctly():
    """A push is settled like any decided wager: its stake comes back in the roll's Settle."""
    t = new()
    h = accept(t, "ann", "dp 10")
    events = t.roll((6, 6))
    assert results(events) == {"dontpass": ("pushed",)}
    assert [e for e in events if isinstance(e, (Settle, Refund))] == [Settle("t:2", (h,), (("ann", 10),))]
    h = accept(t, "ann", "any7 5")
    events = t.roll((1, 1))
    assert results(events) == {"any7": ("lost",)}
    assert [e for e in events if isinstance(e, (Settle, Refund))] == [Settle("t:4", (h,), (("ann", 0),))]


def test_buy_commission_rounds_up_and_is_charged_only_on_a_win():
    t = new()
    point(t, 5)
    accept(t, "ann", "buy 4 25")
    events = t.roll((1, 3))
    won = next(e for e in events if isinstance(e, BetWon))
    assert (won.amount + won.commission, won.commission, won.amount) == (50, 2, 48)
    assert next(e for e in events if isinstance(e, Settle)).pays == (("ann", 73),)
    accept(t, "ann", "buy 4 25")
    assert results(t.roll((3, 4))) == {"buy4": ("lost",)}     # a loss costs the stake only


def test_lay_commission_is_five_percent_of_the_win_rounded_up():
    t = new()
    accept(t, "ann", "lay 4 50")                # wins 25, commission 1.25 -> 2
    events = t.roll((3, 4))
    won = next(e for e in events if isinstance(e, BetWon))
    assert (won.amount, won.commission) == (23, 2)


def test_removing_a_buy_bet_costs_no_commission():
    t = new()
    h = accept(t, "ann", "buy 4 25")
    events = t.unbet("ann", "buy4")
    assert [e for e in events if isinstance(e, Refund)] == [Refund(events[1].key, h)]

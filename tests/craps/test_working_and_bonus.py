"""Come-out working rules, Fire, Small/Tall/All and the shooter hand."""
from __future__ import annotations

import pytest
from craps_helpers import accept, new, refusal, results, roll_until

from server.games.craps.events import ComeOutSeven, PointMade, PointSet, SevenOut
from server.games.intents import Refund, Settle

HALF = {4: (1, 3), 5: (1, 4), 6: (1, 5), 8: (2, 6), 9: (3, 6), 10: (4, 6)}


# -- working on the come-out --------------------------------------------------
@pytest.mark.parametrize("words,dice", [
    ("place 6 12", (1, 5)), ("place 6 12", (3, 4)), ("buy 4 20", (1, 3)), ("buy 4 20", (3, 4)),
    ("hard 6 10", (3, 3)), ("hard 6 10", (2, 4)), ("hard 6 10", (3, 4)),
])
def test_place_buy_hard_are_off_on_the_come_out(words, dice):
    t = new()
    h = accept(t, "ann", words)
    assert results(t.roll(dice)) == {}
    assert h in t.wagers            # still up, waiting for a point


def test_place_works_once_the_point_is_on():
    t = new()
    accept(t, "ann", "place 6 12")
    t.roll((2, 2))
    assert results(t.roll((1, 5))) == {"place6": ("won", 14)}


def test_come_odds_are_off_on_the_come_out_and_returned():
    t = new()
    t.roll(HALF[4])                                  # point 4
    accept(t, "ann", "come 10")
    t.roll(HALF[6])                                  # come -> 6
    odds = accept(t, "ann", "odds come 6 10")
    t.roll((2, 2))                                   # point made: come-out next
    assert t.point == 0
    events = t.roll((2, 4))                          # a 6 on the come-out
    assert results(events) == {"come6": ("won", 10), "oddscome6": ("pushed",)}
    [settle] = [e for e in events if isinstance(e, Settle)]
    assert odds in settle.stakes and not [e for e in events if isinstance(e, Refund)]
    assert settle.pays == (("ann", 10 + 10 + 10),)   # come 10 + its win 10, the odds 10 back


def test_come_odds_returned_on_a_come_out_seven_while_the_come_bet_loses():
    t = new()
    t.roll(HALF[4])
    accept(t, "ann", "come 10")
    t.roll(HALF[9])
    accept(t, "ann", "odds come 9 20")
    t.roll((2, 2))
    assert results(t.roll((3, 4))) == {"come9": ("lost",), "oddscome9": ("pushed",)}


def test_dont_side_lay_and_one_roll_bets_work_on_the_come_out():
    t = new()
    t.roll(HALF[8])
    accept(t, "ann", "dc 10")
    t.roll(HALF[5])                                  # dc -> 5
    accept(t, "ann", "odds dc 5 30")
    t.roll((4, 4))                                   # point 8 made
    accept(t, "ann", "lay 10 40")
    accept(t, "ann", "any7 5")
    got = results(t.roll((3, 4)))                    # come-out seven
    assert got == {"dontcome5": ("won", 10), "oddsdontcome5": ("won", 20),
                   "lay10": ("won", 19), "any7": ("won", 20)}


# -- Fire -----------------------------------------------------------------------
def make(t, n):
    """Set point n and make it."""
    t.roll(HALF[n])
    events = t.roll(HALF[n])
    assert any(isinstance(e, PointMade) for e in events)
    return events


@pytest.mark.parametrize("points,pays", [((4, 5, 6, 8), 24), ((4, 5, 6, 8, 9), 249),
                                        ((4, 5, 6, 8, 9, 10), 999)])
def test_fire_pays_at_the_seven_out(points, pays):
    t = new()
    accept(t, "ann", "fire 2")
    for n in points:
        events = make(t, n)
        assert results(events) == {}             # not paid before the seven-out
    t.roll(HALF[4])
    assert results(t.roll((3, 4))) == {"fire": ("won", 2 * pays)}


def test_fire_with_three_points_loses_and_repeats_do_not_count():
    t = new()
    accept(t, "ann", "fire 1")
    for n in (4, 4, 5, 5, 6, 6, 4):
        events = make(t, n)
    made = next(e for e in events if isinstance(e, PointMade))
    assert made.fire == (4, 5, 6)
    t.roll(HALF[8])
    assert results(t.roll((3, 4))) == {"fire": ("lost",)}


def test_a_come_out_seven_does_not_end_fire():
    t = new()
    accept(t, "ann", "fire 1")
    make(t, 4)
    make(t, 5)
    events = t.roll((3, 4))
    assert any(isinstance(e, ComeOutSeven) for e in events) and results(events) == {}
    make(t, 6)
    make(t, 8)
    t.roll(HALF[9])
    assert results(t.roll((2, 5))) == {"fire": ("won", 24)}


def test_seven_out_starts_a_new_hand_for_fire():
    t = new()
    accept(t, "ann", "fire 1")
    make(t, 4)
    t.roll(HALF[5])
    events = t.roll((3, 4))
    assert any(isinstance(e, SevenOut) for e in events)
    assert t.view.fire == 0 and t.view.rolls == 0
    accept(t, "ann", "fire 1")                   # a new hand: bonus bets open again


# -- Small / Tall / All ------------------------------------------------------------
def test_small_pays_as_soon_as_complete():
    t = new()
    accept(t, "ann", "small 10")
    accept(t, "ann", "all 1")
    got = roll_until(t, (1, 1), (1, 2), (1, 3), (2, 3))
    assert results(got) == {}
    assert results(t.roll((3, 3))) == {"small": ("won", 340)}


def test_tall_and_all_complete():
    t = new()
    accept(t, "ann", "tall 1")
    accept(t, "ann", "all 2")
    roll_until(t, (1, 1), (1, 2), (1, 3), (2, 3), (3, 3), (4, 4), (4, 5), (5, 5), (5, 6))
    assert results(t.roll((6, 6))) == {"tall": ("won", 34), "all": ("won", 350)}


def test_any_seven_loses_unresolved_ats_and_resets_the_tracker():
    t = new()
    accept(t, "ann", "small 1")
    accept(t, "ann", "tall 1")
    t.roll((1, 1))
    events = t.roll((3, 4))                          # come-out seven
    assert results(events) == {"small": ("lost",), "tall": ("lost",)}
    assert t.view.hits == 0


def test_a_point_seven_also_loses_ats():
    t = new()
    accept(t, "ann", "all 1")
    t.roll(HALF[6])
    assert results(t.roll((3, 4))) == {"all": ("lost",)}


@pytest.mark.parametrize("kind", ["fire", "small", "tall", "all"])
def test_no_bonus_bet_after_the_first_roll_not_even_after_a_come_out_seven(kind):
    t = new()
    t.roll((1, 2))                                   # craps: still the same hand
    assert "before the first roll" in refusal(t, "ann", f"{kind} 1")
    t.roll((3, 4))                                   # come-out seven: still the same hand
    assert "before the first roll" in refusal(t, "ann", f"{kind} 1")


@pytest.mark.parametrize("kind", ["fire", "small"])
def test_bonus_bets_are_contracts(kind):
    t = new()
    accept(t, "ann", f"{kind} 1")
    assert "contract" in t.unbet("ann", kind)[0].reason


# -- the hand belongs to the table, not to the shooter ------------------------------
def test_a_departing_shooters_hand_keeps_point_and_bonus_progress():
    t = new()
    accept(t, "bob", "fire 1")
    accept(t, "bob", "small 1")
    accept(t, "ann", "pass 5")                       # ann shoots
    for n in (4, 5, 9):
        make(t, n)
    t.roll((1, 1))
    t.roll(HALF[8])                                  # point 8 is on when ann leaves
    t.refund_all(["ann"])                            # ann walks away with her stakes
    assert t.bets_of("ann") == [] and t.point == 8
    assert (t.view.fire, t.view.rolls > 0) == ((1 << 4) | (1 << 5) | (1 << 9), True)
    # bob now shoots the same hand: the point, Fire and Small progress carry on
    assert "before the first roll" in refusal(t, "bob", "fire 1")
    events = t.roll((4, 4))                          # point 8 made by the new shooter
    assert next(e for e in events if isinstance(e, PointMade)).fire == (4, 5, 8, 9)
    assert results(t.roll((2, 1))) == {}
    assert results(t.roll((1, 5))) == {"small": ("won", 34)}      # 2,4,5 before, 3 and 6 after
    assert results(t.roll((3, 4))) == {"fire": ("won", 24)}


def test_puck_facts():
    t = new()
    assert any(isinstance(e, PointSet) and e.number == 9 for e in t.roll((4, 5)))
    assert any(isinstance(e, PointMade) and e.number == 9 for e in t.roll((3, 6)))
    t.roll(HALF[10])
    assert any(isinstance(e, SevenOut) and e.point == 10 for e in t.roll((1, 6)))

"""The Sweep (tests/support/sweep.py) that checks the craps outcome tables
whole: a wrong case is named, and a loop that skips any case fails."""
from __future__ import annotations

import pytest

from server.games.craps.outcome import ALL_DICE
from support.sweep import Sweep


def test_the_36_outcomes_are_every_pair_of_faces():
    assert sorted(ALL_DICE) == [(a, b) for a in range(1, 7) for b in range(1, 7)]


def test_a_whole_sweep_passes_and_counts_the_product_of_its_dimensions():
    sweep = Sweep(number=(4, 5, 6), dice=ALL_DICE)
    for number, dice in sweep:
        sweep.expect(sum(dice) == number, number in (sum(dice),))
    sweep.done()
    assert sweep.size == len(sweep.checked) == 3 * 36


def test_a_wrong_case_is_named_with_what_was_got_and_wanted():
    sweep = Sweep(point=(0, 4), dice=ALL_DICE)
    for point, dice in sweep:
        sweep.expect(sum(dice), 7 if (point, dice) == (4, (3, 3)) else sum(dice))
    with pytest.raises(AssertionError) as failed:
        sweep.done()
    assert str(failed.value) == "1 of the 72 combinations failed:\n  point=4, dice=(3, 3): got 6, want 7"


def test_a_loop_that_stops_early_fails():
    sweep = Sweep(point=(0, 4), dice=ALL_DICE)
    for point, dice in sweep:
        if point == 4:
            break
        sweep.expect(dice, dice)
    with pytest.raises(AssertionError, match=r"only 36 of the 72 combinations \(2 x 36\) were checked; "
                                             r"first missed: point=4, dice=\(1, 1\)"):
        sweep.done()


def test_a_loop_that_skips_cases_fails():
    sweep = Sweep(dice=ALL_DICE)
    for (dice,) in sweep:
        if sum(dice) != 7:
            sweep.expect(dice, dice)
    with pytest.raises(AssertionError, match="only 30 of the 36"):
        sweep.done()


def test_many_failures_are_counted_past_the_ones_listed():
    sweep = Sweep(dice=ALL_DICE)
    for (dice,) in sweep:
        sweep.expect(dice, None)
    with pytest.raises(AssertionError) as failed:
        sweep.done()
    lines = str(failed.value).splitlines()
    assert lines[0] == "36 of the 36 combinations failed:" and lines[-1] == "  ... and 6 more"


def test_expect_outside_the_loop_and_empty_dimensions_are_errors():
    with pytest.raises(RuntimeError):
        Sweep(dice=ALL_DICE).expect(1, 1)
    with pytest.raises(ValueError):
        Sweep(dice=())
    with pytest.raises(ValueError, match=r"the sweep's dice lists \(1, 2\) twice"):
        Sweep(dice=[*ALL_DICE, (1, 2)])

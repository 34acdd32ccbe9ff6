"""Pig's pure rules: roll outcomes and the computer's 003 strategy at every boundary."""
import pytest

from server.games.pig.rules import RollOutcome, computer_continues, roll_outcome


@pytest.mark.parametrize("dice,outcome", [
    ((2, 4), RollOutcome.ADDED), ((6, 6), RollOutcome.ADDED),
    ((1, 5), RollOutcome.ONE), ((6, 1), RollOutcome.ONE),
    ((1, 1), RollOutcome.SNAKE_EYES),
])
def test_roll_outcome(dice, outcome):
    assert roll_outcome(dice) is outcome


@pytest.mark.parametrize("score,round_score,expected", [
    (0, 0, False),      # round score 0: the round is dead, stop
    (0, 18, True),      # below 19: roll again
    (0, 19, False),     # 19: hold
    (0, 20, False),
    (82, 17, True),     # 99 < 100: keep going
    (82, 18, False),    # score plus round at the target: hold
    (90, 10, False),    # exactly at the target
    (95, 4, True),
])
def test_computer_strategy_boundaries(score, round_score, expected):
    assert computer_continues(score, round_score, 100) is expected


def test_computer_strategy_uses_the_configured_target():
    assert computer_continues(40, 9, 50) is True
    assert computer_continues(40, 10, 50) is False

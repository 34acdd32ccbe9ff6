"""Pig's rules as small pure functions: what a roll does, when the computer stops.

Kept apart from the game's turn/tick bookkeeping so each rule can be read and
tested on its own (spec 003, docs/play-pig.md "The rules").
"""
from __future__ import annotations

from enum import Enum

from server.dice.source import Dice

COMPUTER_HOLDS_AT = 19   # 003: the computer keeps rolling while its round score is below 19


class RollOutcome(Enum):
    """What one roll did to the round (and perhaps the whole score)."""

    ADDED = "added"          # no 1: the total is added to the round score
    ONE = "one"              # a single 1: the round score is lost, the turn ends
    SNAKE_EYES = "snake_eyes"  # double 1s: the round score and the whole score are lost


def roll_outcome(dice: Dice) -> RollOutcome:
    """Classify a roll: double 1s, a single 1, or points added."""
    ones = dice.count(1)
    return (RollOutcome.ADDED, RollOutcome.ONE, RollOutcome.SNAKE_EYES)[ones]


def computer_continues(score: int, round_score: int, target: int) -> bool:
    """003's `autoPlayContinues`: roll again while the round is alive, the target
    is not yet reachable by holding, and the round score is below 19."""
    return round_score != 0 and score + round_score < target and round_score < COMPUTER_HOLDS_AT

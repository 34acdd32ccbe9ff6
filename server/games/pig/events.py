"""Pig's events: facts for people, and why a command was refused.

Money intents (Hold, Settle, Refund) come from server.games.intents and travel
in the same event lists. Facts carry numbers, never text: the renderer turns
them into lines like the spec's sample ("Amanda: 0", "2, 4 Current Round
Score: 6", "Amanda wins!", "10 rounds").
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from server.games.events import GameFact
from server.dice.source import Dice
from server.games.pig.rules import RollOutcome


class TurnEnd(Enum):
    """Why a turn ended."""

    HOLD = "hold"              # the player typed `hold`
    TIMEOUT = "timeout"        # the turn deadline passed: the player holds
    ONE = "one"                # a single 1 lost the round
    SNAKE_EYES = "snake_eyes"  # double 1s lost the round and the whole score


class GameEnd(Enum):
    TARGET = "target"          # a player held at or above the target
    WALKOVER = "walkover"      # everyone else left
    ABANDONED = "abandoned"    # the only person left a game against the computer
    CANCELLED = "cancelled"    # an ante could not be held and too few players remain


@dataclass(frozen=True)
class GameStarted(GameFact):
    players: tuple[str, ...]   # turn order; the computer is last in a solo game
    target: int
    stake: int                 # each player's ante; 0 for no stake
    pot: int
    vs_computer: bool


@dataclass(frozen=True)
class TurnStarted(GameFact):
    """`Amanda: 75` at the start of a turn; `round_no` counts turns (003 "round")."""

    player: str
    score: int
    round_no: int
    computer: bool


@dataclass(frozen=True)
class Rolled(GameFact):
    """`2, 4 Current Round Score: 6`."""

    player: str
    dice: Dice
    round_score: int
    outcome: RollOutcome


@dataclass(frozen=True)
class TurnEnded(GameFact):
    """`Amanda: 19` after the turn: `score` is the player's score now."""

    player: str
    score: int
    banked: int                # round score added by this turn (0 if lost)
    reason: TurnEnd


@dataclass(frozen=True)
class PlayerLeft(GameFact):
    player: str


@dataclass(frozen=True)
class AnteRefused(GameFact):
    """The ledger refused this player's ante: they are out without a stake."""

    player: str


@dataclass(frozen=True)
class GameOver(GameFact):
    """`Amanda wins!` and `10 rounds`; `winner` is None when nobody won."""

    winner: str | None
    score: int
    rounds: int
    pot: int                   # chips paid to the winner (0 for no stake)
    reason: GameEnd


@dataclass(frozen=True)
class GameClosed(GameFact):
    """The table shut down mid-game; every ante was refunded."""

    reason: str


@dataclass(frozen=True)
class Refused(GameFact):
    """A command that changed nothing, with a one-line reason for the player."""

    player: str
    reason: str


Fact = (GameStarted | TurnStarted | Rolled | TurnEnded | PlayerLeft | AnteRefused
        | GameOver | GameClosed | Refused)

"""The alley craps game's phases and records (and the view of them), and the start check.

Split from game.py so the state machine there reads as the flow of a pass.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Sequence

from server.games.alley.options import AlleyOptions
from server.games.alley import events as ev


class Phase(Enum):
    READY = "ready"          # built; start() not called
    BETTING = "betting"      # the shooter sets the action
    FADING = "fading"        # an opponent is asked to fade
    ROLLING = "rolling"      # bets closed; waiting for the shooter's roll
    CHOOSING = "choosing"    # between passes: roll again or pass the bones
    OVER = "over"
    CLOSED = "closed"


WAITING = MappingProxyType({Phase.BETTING: ev.Waiting.BET, Phase.FADING: ev.Waiting.FADE,
                            Phase.ROLLING: ev.Waiting.ROLL, Phase.CHOOSING: ev.Waiting.CHOICE})


def start_problem(players: Sequence[str], options: AlleyOptions, max_players: int = 6) -> str | None:
    """Why these players cannot start a game, or None: for the table's `start`."""
    least = max(2, options.min_players)
    if len(players) < least:
        return f"alley craps needs at least {least} players"
    if len(players) > max_players:
        return f"at most {max_players} players can play alley craps at this table"
    if len(set(players)) != len(players):
        return "a player is seated twice"
    if options.bet_unit <= 0 or options.buy_in < options.bet_unit or options.buy_in % options.bet_unit:
        return "this table's buy-in must be a whole number of bet units"
    return None


def seconds_to_ticks(seconds: float, ticks_per_second: int) -> int:
    return max(1, round(seconds * ticks_per_second))


@dataclass
class PassState:
    """The pass being bet or rolled."""

    shooter: str
    action: int
    queue: list[str]                                   # opponents still to ask, in seat order
    fades: dict[str, int] = field(default_factory=dict)
    point: int | None = None

    @property
    def covered(self) -> int:
        return sum(self.fades.values())


@dataclass(frozen=True)
class AlleyView:
    """What `table` shows: a snapshot for the renderer."""

    phase: Phase
    shooter: str | None
    action: int
    fades: tuple[tuple[str, int], ...]
    point: int | None
    waiting_for: str | None
    ticks_left: int
    bankrolls: tuple[tuple[str, int], ...]

    @classmethod
    def of(cls, phase: Phase, shooter: str | None, play: PassState | None, clock: int,
           bankrolls: tuple[tuple[str, int], ...]) -> AlleyView:
        """The game at this moment. Someone is awaited, with a clock running, only
        while a window is open: the opponent being asked to fade, else the shooter."""
        waiting = {Phase.FADING: play.queue[0] if play and play.queue else None}.get(phase, shooter)
        live = phase in WAITING
        return cls(phase, shooter, play.action if play else 0, tuple(play.fades.items()) if play else (),
                   play.point if play else None, waiting if live else None, clock if live else 0, bankrolls)

"""The round's phases and its one clock, counted in ticks.

Time exists only as ticks handed in (docs/architecture.md "Time is ticks"): the betting
window with its last call, and each decision's `decision_seconds`, are
counts of ticks here, set from seconds once. Nothing keeps a timer.
"""
from __future__ import annotations

import enum
import math


class Phase(enum.Enum):
    IDLE = "idle"                   # no bets: the table waits, no clock
    BETTING = "betting"             # bets down: the window runs (or, alone, the deal comes at once)
    INSURANCE = "insurance"         # an ace up: each player may insure before the peek
    PLAYING = "playing"             # decisions, seat by seat, hand by hand
    DEALER = "dealer"               # every hand is done: the dealer plays and the round settles
    CLOSED = "closed"               # shut down; every input is refused


def to_ticks(seconds: float, tick_hz: int) -> int:
    return max(1, round(seconds * tick_hz))


class Countdown:
    """Ticks left on whatever the table is waiting for, and its one last call."""

    def __init__(self, tick_hz: int) -> None:
        self.hz = tick_hz
        self.left: int | None = None          # None: no clock running
        self.call_at = 0                      # ticks left when the last call is due (0: none)
        self.called = False

    def start(self, seconds: float, last_call: float = 0) -> None:
        self.left, self.called = to_ticks(seconds, self.hz), False
        self.call_at = round(last_call * self.hz) if last_call else 0

    def stop(self) -> None:
        self.left = None

    @property
    def running(self) -> bool:
        return self.left is not None

    @property
    def seconds_left(self) -> int | None:
        return None if self.left is None else math.ceil(self.left / self.hz)

    def run(self, ticks: int) -> tuple[bool, bool]:
        """Count `ticks` down: (the last call is due now, the count has ended)."""
        if self.left is None:
            return False, False
        self.left = max(0, self.left - ticks)
        call = bool(self.call_at) and not self.called and self.left <= self.call_at
        self.called = self.called or call
        return call, self.left == 0

    def tick(self, timed: bool, ticks: int, seconds: float) -> bool:
        """A decision's clock: started where the table is timed (stopped where it
        is not: a player alone is never hurried); whether it ran out."""
        if not timed:
            self.stop()
            return False
        if not self.running:
            self.start(seconds)
            return False
        return self.run(ticks)[1]

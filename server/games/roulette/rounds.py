"""The round clock: which phase a wheel is in and how many ticks it has left.

Time exists only as ticks handed in (docs/architecture.md "Time is ticks"); durations are
configured in seconds and turned into ticks here, once. The clock counts and
announces (BetsOpen, LastCall exactly once per window, NoMoreBets); the wheel
decides when a window may start or must stop, and drops the ball.
"""
from __future__ import annotations

import enum
import math

from .events import BetsOpen, Event, LastCall, NoMoreBets
from .options import RouletteOptions, to_ticks


class Phase(enum.Enum):
    IDLE = "idle"             # bets open, no clock running (no bets yet, or a solo player)
    BETTING = "betting"       # the betting window counts down
    SPINNING = "spinning"     # no more bets: the ball drops when the count ends
    CLOSED = "closed"         # shut down; every input is refused


class RoundClock:
    """Phase and ticks left; `spin` arguments number the spin being announced."""

    def __init__(self, options: RouletteOptions, tick_hz: int) -> None:
        self._options, self._hz = options, tick_hz
        self._window = max(1, to_ticks(options.bet_window, tick_hz))
        self._last_call = to_ticks(options.last_call, tick_hz)
        self._spin = to_ticks(options.spin_seconds, tick_hz)
        self.phase = Phase.IDLE
        self.left = 0                 # ticks left in BETTING or SPINNING
        self._called = False          # the last call of this window was made

    @property
    def seconds_left(self) -> int | None:
        """Whole seconds until no more bets (BETTING) or the ball drops (SPINNING)."""
        if self.phase in (Phase.BETTING, Phase.SPINNING):
            return math.ceil(self.left / self._hz)
        return None

    def open(self, spin: int) -> list[Event]:
        """Start a betting window."""
        self.phase, self.left, self._called = Phase.BETTING, self._window, False
        return [BetsOpen(spin, self._options.bet_window), *self._last_call_due(spin)]

    def no_more_bets(self, spin: int) -> list[Event]:
        """Close betting now; the ball drops `spin_seconds` later (left == 0: at once)."""
        self.phase, self.left = Phase.SPINNING, self._spin
        return [NoMoreBets(spin, self._options.spin_seconds)]

    def run(self, ticks: int, spin: int) -> tuple[int, list[Event], bool]:
        """Count down: (ticks not used, announcements, whether this phase's count ended)."""
        step = min(ticks, self.left)
        self.left -= step
        events = self._last_call_due(spin) if self.phase is Phase.BETTING else []
        return ticks - step, events, self.left == 0

    def idle(self) -> None:
        self.phase, self.left = Phase.IDLE, 0

    def close(self) -> None:
        self.phase, self.left = Phase.CLOSED, 0

    def _last_call_due(self, spin: int) -> list[Event]:
        if self._called or not self._last_call or self.left > self._last_call:
            return []
        self._called = True
        return [LastCall(spin, self._options.last_call)]

"""The one clock: everything that waits counts manager ticks.

The manager runs at a configured cadence and calls `tick_elapsed(n)` with the
ticks that really passed since the last call, computed from the start time, so
a slow tick is caught up and the clock never drifts. Tests do not run the loop:
they call `tick_elapsed` themselves, which makes time a number, not a wait.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Callable, Protocol

from server.metrics import COUNTS

log = logging.getLogger("casino.clock")


class Tickable(Protocol):
    def advance(self, ticks: int) -> None: ...


class Manager:
    def __init__(self, tick_hz: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.tick_hz = tick_hz
        self.ticks = 0
        self._clock = clock
        self._subscribers: list[Tickable] = []
        self._ran = 0                     # ticks run() has delivered since it started

    def seconds(self, seconds: float) -> int:
        """A duration in seconds as whole ticks (at least one for a positive duration)."""
        if seconds <= 0:
            return 0
        return max(1, round(seconds * self.tick_hz))

    def subscribe(self, tickable: Tickable) -> None:
        self._subscribers.append(tickable)

    def unsubscribe(self, tickable: Tickable) -> None:
        if tickable in self._subscribers:
            self._subscribers.remove(tickable)

    def tick_elapsed(self, n: int) -> None:
        """Advance every subscriber by `n` ticks; the only way time passes."""
        if n <= 0:
            return
        self.ticks += n
        for tickable in list(self._subscribers):
            try:
                tickable.advance(n)
            except Exception:
                log.exception("event=tick_error subscriber=%r", tickable)

    def catch_up(self, start: float, now: float) -> float:
        """Tick for every whole tick between `start` and `now` not yet ticked;
        returns when the next tick is due. Counting from the start, not from
        the last wake-up, is what keeps the clock from drifting."""
        due = int((now - start) * self.tick_hz + 1e-9) - self._ran   # 1e-9: 0.1 * 10 is 0.999...
        if due > 0:
            self._ran += due
            self.tick_elapsed(due)
        return start + (self._ran + 1) / self.tick_hz

    async def run(self) -> None:
        """Tick in real time until cancelled, catching up after a slow turn."""
        start = self._clock()
        self._ran = 0
        while True:
            next_at = self.catch_up(start, self._clock())
            await asyncio.sleep(max(0.0, next_at - self._clock()))
            COUNTS.loop_lag.observe(max(0.0, self._clock() - next_at))   # how late the loop woke us

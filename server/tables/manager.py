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

log = logging.getLogger("casino.clock")


class Tickable(Protocol):
    def advance(self, ticks: int) -> None: ...


class Manager:
    def __init__(self, tick_hz: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.tick_hz = tick_hz
        self.ticks = 0
        self._clock = clock
        self._subscribers: list[Tickable] = []

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

    async def run(self) -> None:
        """Tick in real time until cancelled, catching up after a slow turn."""
        start = self._clock()
        done = 0
        period = 1.0 / self.tick_hz
        while True:
            due = int((self._clock() - start) * self.tick_hz)
            if due > done:
                self.tick_elapsed(due - done)
                done = due
            next_at = start + (done + 1) * period
            await asyncio.sleep(max(0.0, next_at - self._clock()))

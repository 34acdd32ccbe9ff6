"""When the event loop learned that input had come: the start of a reply's time.

`casino_reply_seconds` runs from a line's arrival to its prompt written. Taken
when the command starts, it would miss what a busy loop makes a line wait: the
selector returns many ready sockets at once, each is read, and each command then
waits for the ones before it. A player waits that long too (the crowd bench's
clients measure it), so the reply's clock starts at the selector's estimate of
when the input came: as it returned, if it had to wait for input; else (the
input was there when the loop looked) the middle of the busy time since its
last look, which is when such input came on average. Two clock reads a loop
turn, not one per line. docs/operating.md says what the metric still misses.
"""
from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from time import perf_counter
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

woke_at = 0.0         # when the input this loop turn reads came, as StampedSelector estimates (0.0: never)
_returned = 0.0       # perf_counter() when the selector last returned
WAITED = 0.00005      # a select() this long or longer waited for its input (50 µs)


class StampedSelector(selectors.DefaultSelector):
    """The platform's selector, estimating when the input it reports came."""

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        global woke_at, _returned
        called = perf_counter()
        ready = super().select(timeout)
        returned = perf_counter()
        # It waited: the first input came as it returned. It did not: the input came
        # while the loop was busy since its last look, so the middle of that time
        # (a busy turn's lines waited half of it on average, unseen until now).
        woke_at = returned if returned - called > WAITED or not _returned else (_returned + called) / 2
        _returned = returned
        return ready


def heard_now() -> float:
    """When input read in this loop turn came (StampedSelector's estimate), or
    now if this process's loop is not a StampedSelector's."""
    return woke_at or perf_counter()


class Arriving(Protocol):
    arrived: float          # when its unread input came; 0.0 while there is none


def stamp(holder: Arriving | None) -> None:
    """Input came for `holder` (a Session): its reply's time starts now, unless
    earlier input it has not read yet started it already."""
    if holder is not None and not holder.arrived:
        holder.arrived = heard_now()


def run(main: Coroutine[Any, Any, T]) -> T:
    """asyncio.run(main) on a loop whose selector stamps each return."""
    with asyncio.Runner(loop_factory=lambda: asyncio.SelectorEventLoop(StampedSelector())) as runner:
        return runner.run(main)

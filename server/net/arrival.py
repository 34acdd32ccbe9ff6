"""When the event loop learned that input had come: the start of a reply's time.

`casino_reply_seconds` runs from a line's arrival to its prompt written. Taken
when the command starts, it would miss what a busy loop makes a line wait: the
selector returns many ready sockets at once, each is read, and each command then
waits for the ones before it. A player waits that long too (the crowd bench's
clients measure it), so the reply's clock starts when the selector returned
with the line's socket ready: one clock read a loop turn, not one per line.
What waited in the kernel while the loop was busy before it looked is still not
counted; docs/operating.md says so beside the metric.
"""
from __future__ import annotations

import asyncio
import selectors
from collections.abc import Coroutine
from time import perf_counter
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

woke_at = 0.0         # perf_counter() when this process's selector last returned (0.0: never)


class StampedSelector(selectors.DefaultSelector):
    """The platform's selector, noting when each select() returned."""

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready = super().select(timeout)
        global woke_at
        woke_at = perf_counter()
        return ready


def heard_now() -> float:
    """When input read now was known to be there: the selector's last return
    (this loop turn's), or now if this process's loop is not a StampedSelector's."""
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

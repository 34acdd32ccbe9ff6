"""Telling a line to a crowd a slice at a time.

One `say` in a lobby of 5,000 is 5,000 lines, each a socket write. Told in one
go that holds the event loop for tens of milliseconds, and every command that
arrives meanwhile waits behind it: the crowd's slowest replies were speech
(docs/performance.md, "The crowd"). The crier tells SLICE listeners, then
leaves the loop to everyone else for PACE seconds before the next slice, so
a command arriving during a crowd's speech waits for at most one slice, and
the output leaves as a steady trickle rather than a burst of thousands of
packets at once. A slice is small because each line told is a socket write
that also wakes its reader (~0.1 ms each in a full house here): 50 a slice
held the loop for 3-5 ms at a time, which showed in every command's p99. The
pace is the crowded rooms' speech budget (rooms.HEARD_PER_SECOND), spread
evenly, so the queue never grows past about a second's worth of lines (the
last of 1,000 listeners hears a line about a second after the first).
Lines are told in the order they were cried, so every listener hears a
room's speech in the order it was spoken; a line for a room that is not
crowded, with nothing of its own waiting, is told at once, as before.
"""
from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from server.world.rooms import CROWD, HEARD_PER_SECOND

log = logging.getLogger("casino.world")

SLICE = 2                          # listeners told in one turn of the event loop
PACE = SLICE / HEARD_PER_SECOND    # seconds between slices: the crowded rooms' whole budget, evenly


class Listener(Protocol):
    """Someone a line is cried to (a server.net.session.Session)."""

    def tell(self, *lines: str) -> None: ...    # with their next prompt: a room that is not crowded

    def hear(self, line: str) -> None: ...      # written now: a slice of a crowd


@dataclass(slots=True)
class _Cry:
    """One line queued for a crowd, and how far through its listeners it is."""

    room: str
    text: str
    listeners: Sequence[Listener]
    next: int = 0                   # the first listener not told yet


def _told(tell: Callable[[str], None], text: str) -> None:
    """Tell one listener; a listener whose connection fails is its own
    trouble (Session drops it), never the rest of the room's."""
    try:
        tell(text)
    except Exception:
        log.exception("event=crier_error")


class Crier:
    def __init__(self) -> None:
        self._queue: deque[_Cry] = deque()
        self._waiting: Counter[str] = Counter()      # lines queued, by room
        self._scheduled = False
        self._idle = asyncio.Event()
        self._idle.set()

    def cry(self, room: str, text: str, listeners: Sequence[Listener]) -> None:
        """Tell `text` to each of `listeners` (Sessions, the room's people), now
        or soon: at once to a room that is not crowded and has nothing queued,
        so a table's parlour never waits behind the lobby's speech."""
        if len(listeners) <= CROWD and not self._waiting[room]:
            for listener in listeners:
                _told(listener.tell, text)
            return
        self._queue.append(_Cry(room, text, listeners))
        self._waiting[room] += 1
        self._idle.clear()
        self._schedule(at_once=True)

    def _schedule(self, at_once: bool = False) -> None:
        if not self._scheduled:
            self._scheduled = True
            loop = asyncio.get_running_loop()
            if at_once:
                loop.call_soon(self._tell_slice)
            else:
                loop.call_later(PACE, self._tell_slice)

    def _tell_slice(self) -> None:
        self._scheduled = False
        left = SLICE
        while self._queue and left:
            item = self._queue[0]
            listeners, start = item.listeners, item.next
            end = min(len(listeners), start + left)
            for listener in listeners[start:end]:
                _told(listener.hear, item.text)
            left -= end - start
            if end == len(listeners):
                self._queue.popleft()
                self._waiting[item.room] -= 1
                if not self._waiting[item.room]:
                    del self._waiting[item.room]
            else:
                item.next = end
        if self._queue:
            self._schedule()
        else:
            self._idle.set()

    @property
    def busy(self) -> bool:
        return bool(self._queue)

    async def idle(self) -> None:
        """Until every line cried so far has been told."""
        await self._idle.wait()

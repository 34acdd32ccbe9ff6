"""Keeping the garbage collector's full passes off a crowd's replies.

CPython's cyclic collector now and then walks every object it tracks in its
oldest generation, with the event loop stopped. A connection is about 160
such objects (telnetlib3 alone keeps some 70 bound methods for each), so with
5,000 players a full pass walks some 850,000 objects: 250-550 ms here, and
one came every 15-40 s as objects aged into that generation. Every reply in
flight waited for it (docs/performance.md, "The crowd").

Nearly all of those objects live long: rooms, config, and connections that
stay for hours. So the casino collects once and freezes what survives
(gc.freeze): later full passes walk only what was made since. When the number
of people online has grown by a quarter, it collects the young generations
and freezes what is there (a walk of the new objects alone); when it has
shrunk by a quarter, and every REFREEZE_SECONDS regardless, it unfreezes,
collects everything and freezes again (one full pass). Garbage among frozen
objects (connections closed since) waits for that next full pass, which
bounds what it can hold. A crowd that stays costs one pause every ten
minutes instead of one every half a minute; a crowd arriving costs no full
pass at all (with a full pass at each quarter, the login storm's other
players waited up to ~40 ms at its p99).
"""
from __future__ import annotations

import gc
from typing import Callable

CHANGE = 1.25             # people online grown (or shrunk) by this factor: refreeze
FLOOR = 100               # below this many people the heap is small: only the timer
REFREEZE_SECONDS = 600


class Heap:
    """A Tickable (subscribed to the casino's one clock) that refreezes the heap."""

    def __init__(self, tick_hz: int, population: Callable[[], int]) -> None:
        self.tick_hz = tick_hz
        self.population = population
        self.refreezes = 0        # full passes
        self.freezes = 0          # young generations only, as a crowd grew
        self._ticks = 0
        self._people = FLOOR

    def advance(self, n: int) -> None:
        self._ticks += n
        people = max(self.population(), FLOOR)
        if people * CHANGE <= self._people or self._ticks >= REFREEZE_SECONDS * self.tick_hz:
            self.refreeze(people)
        elif people >= self._people * CHANGE:
            self.freeze_new(people)

    def freeze_new(self, people: int) -> None:
        """Collect the young generations and freeze what is left, frozen
        objects untouched: what a growing crowd adds."""
        gc.collect(1)
        gc.freeze()
        self.freezes += 1
        self._people = people

    def refreeze(self, people: int | None = None) -> None:
        """Collect everything once and freeze what is left."""
        gc.unfreeze()
        gc.collect()
        gc.freeze()
        self.refreezes += 1
        self._ticks = 0
        self._people = max(self.population() if people is None else people, FLOOR)

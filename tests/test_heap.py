"""The heap's new objects are frozen when the crowd grows by a quarter; it is
refrozen whole (one full pass) when the crowd shrinks by a quarter, and on a
timer; what is frozen is what full collections no longer walk (server.heap)."""
from __future__ import annotations

import gc

from server.heap import CHANGE, FLOOR, REFREEZE_SECONDS, Heap


def test_refreezes_on_growth_shrinkage_and_time_and_freezes_what_lives():
    people = [0]
    heap = Heap(10, lambda: people[0])
    try:
        heap.refreeze()
        assert gc.get_freeze_count() > 0 and heap.refreezes == 1
        heap.advance(1)
        people[0] = int(FLOOR * CHANGE) - 1            # not a quarter more than the floor
        heap.advance(1)
        assert heap.refreezes == 1
        frozen = gc.get_freeze_count()
        born = [[i] for i in range(1000)]              # objects a crowd brings
        people[0] = 1000                               # a crowd arrives
        heap.advance(1)
        assert (heap.refreezes, heap.freezes) == (1, 1)    # no full pass
        assert gc.get_freeze_count() >= frozen + len(born)
        people[0] = 1200
        heap.advance(1)
        assert (heap.refreezes, heap.freezes) == (1, 1)
        people[0] = 700                                # most of it leaves
        heap.advance(1)
        assert (heap.refreezes, heap.freezes) == (2, 1)
        heap.advance(REFREEZE_SECONDS * 10 - 1)
        assert heap.refreezes == 2
        heap.advance(1)                                # ten minutes on the clock
        assert heap.refreezes == 3
    finally:
        gc.unfreeze()

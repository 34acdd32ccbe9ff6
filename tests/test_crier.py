"""Room-wide lines reach a crowd a slice at a time, in the order spoken, and
the speech budget lets a full budget speak in any room (issue 16)."""
from __future__ import annotations

import asyncio

from server.world.crier import SLICE, Crier
from server.world.rooms import CROWD, HEARD_PER_SECOND, World


class Ear:
    def __init__(self) -> None:
        self.heard: list[str] = []

    def tell(self, *lines: str) -> None:
        self.heard.extend(lines)


async def test_a_small_room_hears_at_once():
    crier, ears = Crier(), [Ear() for _ in range(SLICE)]
    crier.cry("hello", ears)
    assert all(e.heard == ["hello"] for e in ears) and not crier.busy


async def test_a_crowd_hears_a_slice_a_turn_and_every_line_in_order():
    crier, ears = Crier(), [Ear() for _ in range(5 * SLICE + 7)]
    crier.cry("first", ears)
    crier.cry("second", ears[:3])          # queued behind the first, though small
    assert sum(bool(e.heard) for e in ears) == 0
    await asyncio.sleep(0)                 # one turn of the loop: one slice
    assert sum(bool(e.heard) for e in ears) == SLICE
    await crier.idle()
    assert all(e.heard == ["first", "second"] for e in ears[:3])
    assert all(e.heard == ["first"] for e in ears[3:])
    assert not crier.busy


def test_a_full_budget_lets_one_speak_in_a_room_larger_than_the_budget():
    world = World({})
    room = "hall"
    for i in range(HEARD_PER_SECOND + 500):
        world._occupants[room][Ear()] = None
    assert world.heard(room, now=0.0)                    # nothing said yet: heard
    assert not world.heard(room, now=0.5)                # the budget is spent
    assert world.heard(room, now=0.0 + (HEARD_PER_SECOND + 500) / HEARD_PER_SECOND + 0.01)


def test_a_room_that_is_not_crowded_is_never_limited():
    world = World({})
    for _ in range(CROWD):
        world._occupants["den"][Ear()] = None
    assert all(world.heard("den", now=0.0) for _ in range(1000))

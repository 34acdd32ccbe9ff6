"""Room-wide lines reach a crowd a slice at a time, in the order spoken, a
room that is not crowded hears at once, and the crowded rooms share one
speech budget, which when full lets anyone speak (issue 16)."""
from __future__ import annotations

import asyncio

from server.world.crier import SLICE, Crier
from server.world.rooms import CROWD, HEARD_PER_SECOND, World


class Ear:
    def __init__(self) -> None:
        self.heard: list[str] = []

    def tell(self, *lines: str) -> None:
        self.heard.extend(lines)

    def hear(self, line: str) -> None:
        self.heard.append(line)


async def test_a_small_room_hears_at_once():
    crier, ears = Crier(), [Ear() for _ in range(CROWD)]
    crier.cry("den", "hello", ears)
    assert all(e.heard == ["hello"] for e in ears) and not crier.busy


async def test_a_small_room_hears_at_once_while_a_crowd_is_being_told():
    crier, crowd, den = Crier(), [Ear() for _ in range(CROWD + 1)], [Ear() for _ in range(3)]
    crier.cry("lobby", "big news", crowd)
    assert crier.busy
    crier.cry("den", "hello", den)
    assert all(e.heard == ["hello"] for e in den)      # not behind the lobby's line
    await crier.idle()
    assert all(e.heard == ["big news"] for e in crowd)


async def test_a_crowd_hears_a_slice_a_turn_and_every_line_in_order():
    crier, ears = Crier(), [Ear() for _ in range(CROWD + 5 * SLICE + 7)]
    crier.cry("lobby", "first", ears)
    crier.cry("lobby", "second", ears[:3])   # queued behind the first, though small
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


def test_crowded_rooms_share_one_budget():
    world = World({})
    for room in ("hall", "lobby"):
        for _ in range(HEARD_PER_SECOND // 2 + 1):
            world._occupants[room][Ear()] = None
    assert world.heard("hall", now=0.0)
    assert not world.heard("lobby", now=0.0)             # the other crowd spent it
    assert world.heard("lobby", now=1.01)


def test_a_room_that_is_not_crowded_is_never_limited():
    world = World({})
    for _ in range(CROWD):
        world._occupants["den"][Ear()] = None
    assert all(world.heard("den", now=0.0) for _ in range(1000))

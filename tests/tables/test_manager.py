"""The clock: ticks really passed, caught up after a slow turn, never drifting."""
from __future__ import annotations

from server.tables.manager import Manager


class Counter:
    def __init__(self):
        self.calls: list[int] = []

    def advance(self, ticks: int) -> None:
        self.calls.append(ticks)


def test_catch_up_delivers_the_ticks_that_really_passed():
    m = Manager(tick_hz=10)
    c = Counter()
    m.subscribe(c)
    next_at = m.catch_up(start=100.0, now=100.05)     # not a whole tick yet
    assert c.calls == [] and abs(next_at - 100.1) < 1e-9
    m.catch_up(100.0, 100.1)
    m.catch_up(100.0, 100.73)                          # a slow turn: 6 ticks at once
    assert c.calls == [1, 6] and m.ticks == 7
    m.catch_up(100.0, 100.79)                          # still inside tick 7
    assert c.calls == [1, 6]


def test_no_drift_over_many_irregular_wakeups():
    m = Manager(tick_hz=20)
    c = Counter()
    m.subscribe(c)
    now = 0.0
    for i in range(1000):
        now += 0.037 + (i % 7) * 0.003                 # jittery wake-ups
        m.catch_up(0.0, now)
    assert sum(c.calls) == int(now * 20) == m.ticks


def test_seconds_to_ticks_and_a_failing_subscriber_does_not_stop_the_clock():
    m = Manager(tick_hz=10)
    assert m.seconds(0) == 0 and m.seconds(0.01) == 1 and m.seconds(3) == 30

    class Broken:
        def advance(self, ticks):
            raise RuntimeError("boom")

    c = Counter()
    m.subscribe(Broken())
    m.subscribe(c)
    m.tick_elapsed(4)
    assert c.calls == [4]

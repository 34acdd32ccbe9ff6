"""A reply's time starts when the loop learned its input had come (server/net/arrival.py):
input ready in the same loop turn shares that moment, however long the input read
before it took to handle, so casino_reply_seconds counts what a busy loop makes a
player wait."""
from __future__ import annotations

import asyncio
import socket
import time

from server.net import arrival


class Holder:
    arrived = 0.0


def test_input_ready_in_one_turn_is_stamped_when_the_selector_returned():
    async def main() -> list[tuple[float, float]]:
        loop = asyncio.get_running_loop()
        pairs = [socket.socketpair() for _ in range(2)]
        seen: list[tuple[float, float]] = []
        done = loop.create_future()

        def readable(sock: socket.socket) -> None:
            sock.recv(16)
            loop.remove_reader(sock)
            seen.append((arrival.heard_now(), time.perf_counter()))
            busy_until = time.perf_counter() + 0.02     # this input's command takes 20 ms of CPU
            while time.perf_counter() < busy_until:
                pass
            if len(seen) == 2:
                done.set_result(None)

        for mine, theirs in pairs:
            theirs.send(b"look\r\n")                    # both ready before the loop looks
        for mine, _ in pairs:
            loop.add_reader(mine, readable, mine)
        await done
        for pair in pairs:
            for sock in pair:
                sock.close()
        return seen

    (first_heard, first_read), (second_heard, second_read) = arrival.run(main())
    assert first_heard == second_heard                   # one selector return for both
    assert second_read - second_heard >= 0.02            # the second waited for the first, and it counts
    assert first_read - first_heard < 0.02


def test_a_stamp_is_kept_until_the_input_is_read():
    holder = Holder()
    arrival.stamp(holder)
    first = holder.arrived
    assert first > 0
    arrival.stamp(holder)                                 # more input before the first was read
    assert holder.arrived == first
    arrival.stamp(None)                                   # no session yet: nothing to stamp

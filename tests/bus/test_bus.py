"""The bus on a real NATS broker (server/bus/bus.py): words cross, and a broker that is
away costs a one-line reason and nothing else.

Each test starts its own `nats-server` (tests/support/nats.py). Waiting for the bus
to come back waits on its `up` event (set by the reconnect), never for a fixed time.
"""
from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from support.nats import Broker, binary  # noqa: E402

from server.bus.bus import Bus, BusUnavailable, Message  # noqa: E402

pytestmark = pytest.mark.skipif(binary() is None, reason="nats-server is not installed")


@pytest.fixture
def broker():
    b = Broker().start()
    yield b
    b.remove()


async def two_shards(url: str) -> tuple[Bus, Bus]:
    floor, back = Bus(url, "floor"), Bus(url, "back")
    for bus in (floor, back):
        await bus.start()
    await asyncio.wait_for(asyncio.gather(floor.up.wait(), back.up.wait()), 10)
    return floor, back


async def test_a_word_and_its_answer_cross_between_shards(broker):
    floor, back = await two_shards(broker.url)
    told: list[Message] = []
    try:
        async def who(_: Message) -> Message:
            return {"shard": "back", "players": ["bob", "carol"]}

        arrived = asyncio.Event()

        async def tell(message: Message) -> None:
            told.append(message)
            arrived.set()
            return None

        await back.serve("casino.who", who)
        await back.serve("casino.tell.bob", tell)
        assert await floor.ask("casino.who", {}, timeout=10) == {"shard": "back", "players": ["bob", "carol"]}
        await floor.publish("casino.tell.bob", {"from": "alice", "text": "nice roll"})
        await asyncio.wait_for(arrived.wait(), 10)
        assert told == [{"from": "alice", "text": "nice roll"}]
        with pytest.raises(BusUnavailable, match="nobody answers there right now"):
            await floor.ask("casino.who.nobody", {})
    finally:
        await floor.close()
        await back.close()


async def test_a_broker_away_is_one_line_and_back_it_serves_again(broker):
    floor, back = await two_shards(broker.url)
    try:
        async def who(_: Message) -> Message:
            return {"players": ["bob"]}

        await back.serve("casino.who", who)
        broker.stop()
        await asyncio.wait_for(asyncio.gather(floor.down.wait(), back.down.wait()), 10)
        with pytest.raises(BusUnavailable, match="message bus is down"):
            await floor.ask("casino.who", {})
        with pytest.raises(BusUnavailable, match="message bus is down"):
            await floor.publish("casino.tell.bob", {"text": "hi"})
        broker.start()                           # the same port
        await asyncio.wait_for(asyncio.gather(floor.up.wait(), back.up.wait()), 10)
        assert await floor.ask("casino.who", {}, timeout=10) == {"players": ["bob"]}     # subscription made again
    finally:
        await floor.close()
        await back.close()


async def test_a_shard_starts_while_the_broker_is_away(broker):
    broker.stop()
    floor = Bus(broker.url, "floor")
    await floor.start()                          # returns at once
    try:
        async def who(_: Message) -> Message:
            return {"players": []}

        await floor.serve("casino.who", who)     # kept until the broker is there
        with pytest.raises(BusUnavailable):
            await floor.ask("casino.who", {})
        broker.start()
        await asyncio.wait_for(floor.up.wait(), 10)
        assert await floor.ask("casino.who", {}, timeout=10) == {"players": []}
    finally:
        await floor.close()

"""A table's queue (server/tables/queue.py): one job at a time, in order; a
closing table refuses new jobs, and once closed refuses what was queued behind
its closing job."""
from __future__ import annotations

import asyncio

import pytest

from server.tables.queue import TableClosed, TableQueue


async def test_jobs_run_one_at_a_time_in_the_order_they_came():
    queue, ran = TableQueue("t"), []
    worker = asyncio.create_task(queue.serve(lambda: asyncio.sleep(0), lambda: None))

    async def job(n: int) -> int:
        ran.append(("start", n))
        await asyncio.sleep(0)
        ran.append(("end", n))
        return n
    assert await asyncio.gather(queue.run(lambda: job(1)), queue.run(lambda: job(2))) == [1, 2]
    assert ran == [("start", 1), ("end", 1), ("start", 2), ("end", 2)]
    worker.cancel()


async def test_a_closing_table_refuses_new_jobs_and_a_closed_one_what_was_left():
    queue, ran = TableQueue("t"), []
    gate = asyncio.Event()

    async def held() -> None:
        await gate.wait()
        ran.append("held")
    first = queue.submit(held)
    last = queue.close_with(lambda: asyncio.sleep(0))
    with pytest.raises(TableClosed):
        queue.submit(lambda: asyncio.sleep(0))          # closing: nothing new is taken
    assert queue.close_with(lambda: asyncio.sleep(0)) is last   # the same closing job, however often asked
    worker = asyncio.create_task(queue.serve(lambda: asyncio.sleep(0), lambda: None))
    gate.set()
    await first                                          # queued before the close: it runs
    await last
    assert ran == ["held"] and queue.closed
    await asyncio.wait_for(worker, 5)                    # the worker ends once the table has closed

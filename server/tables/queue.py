"""A table's inputs, one at a time, in the order they came.

Every input to a table (a word, a sit, a tick, a reload's change, the closing
job) is a job on its queue: the table's worker runs one to its end, with what
follows it (leaves that waited, delivery), before it starts the next, so the
game never sees two inputs at once and every player sees them in one order.
A closing table refuses new jobs, and once it has closed refuses whatever was
still queued behind the closing job (a wager after the refunds would stay held).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Awaitable, Callable, TypeVar

log = logging.getLogger("casino.tables")

T = TypeVar("T")
Job = Callable[[], Awaitable[object]]


class TableClosed(Exception):
    """The table is closing or closed: it takes no new input."""


class TableQueue:
    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self._jobs: asyncio.Queue[tuple[Job, asyncio.Future[object] | None]] = asyncio.Queue()
        self.closing = False                      # close begun: nothing more is taken
        self.closed = False                       # the closing job ran: nothing more runs
        self._last: asyncio.Future[object] | None = None   # the closing job's future

    async def serve(self, after: Callable[[], Awaitable[None]], failed: Callable[[], None]) -> None:
        """The table's worker: run each job to its end, then `after` (what
        follows every input), before the next; a job that fails is logged and
        `failed` is called (the table still tells what it can). Once a job
        has closed the table, everything still queued is refused."""
        while True:
            job, fut = await self._jobs.get()
            try:
                result = await job()
                await after()
                if fut is not None and not fut.done():
                    fut.set_result(result)
            except Exception as err:
                log.exception("event=table_error table=%s", self.table_id)
                failed()
                if fut is not None and not fut.done():
                    fut.set_exception(err)
            finally:
                self._jobs.task_done()
            if self.closed:
                self.refuse_all()
                return

    def put(self, job: Job) -> asyncio.Future[object]:
        """Queue `job` after everything before it, even on a closing table (its
        closing job); the future gives its result."""
        fut: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self._jobs.put_nowait((job, fut))
        return fut

    def submit(self, job: Job) -> asyncio.Future[object]:
        """Queue `job` now; a closing or closed table refuses with TableClosed."""
        if self.closing or self.closed:
            raise TableClosed(self.table_id)
        return self.put(job)

    async def run(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run `job` after everything queued before it, and give its result."""
        result: list[T] = []

        async def keep() -> None:
            result.append(await job())
        await self.submit(keep)
        return result[0]

    def close_with(self, job: Job) -> asyncio.Future[object]:
        """Take no new job; run `job` after everything queued, as the last job
        the table runs (the same future however often it is asked)."""
        if self._last is None:
            if self.closed:                       # closed by itself (a removed table)
                self._last = asyncio.get_running_loop().create_future()
                self._last.set_result(None)
            else:
                self.closing = True

                async def last() -> None:
                    try:
                        await job()
                    finally:
                        self.closed = True
                self._last = self.put(last)
        return self._last

    def tick(self, job: Job) -> None:
        """Queue a job nobody waits for (the clock's ticks); none once closing."""
        if not (self.closing or self.closed):
            self._jobs.put_nowait((job, None))

    def refuse_all(self) -> None:
        """The table has closed: fail every job still queued with TableClosed."""
        while not self._jobs.empty():
            _, fut = self._jobs.get_nowait()
            if fut is not None and not fut.done():
                fut.set_exception(TableClosed(self.table_id))
            self._jobs.task_done()

    async def idle(self) -> None:
        """Wait until every queued job has been handled (tests use this)."""
        await self._jobs.join()

"""Group commit: one writer thread turns many concurrent calls into one durable commit.

Callers on the event loop enqueue an item and await a future; they never touch
the disk. The writer thread takes everything queued, hands it to the store as
ONE batch (one synchronous=FULL transaction), and only after the commit has
returned resolves the futures, with one `call_soon_threadsafe` per batch. While
it waits on fsync (the GIL is released) the loop keeps queueing the next batch,
so the cost of a commit is shared by everyone who arrived during the last one.

If the commit fails, every caller in the batch gets `LedgerUnavailable`, and
the closing operations among them are recorded as pending outcomes in a second
transaction (if that too fails, recovery will refund instead of complete).
"""
from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Sequence

from server.ledger.errors import LedgerClosed, LedgerUnavailable
from server.ledger.ops import CLOSING, Op, TakeNotices
from server.ledger.store import Store

log = logging.getLogger("casino.ledger")

_STOP = object()
MAX_BATCH = 2048

Request = tuple[Op | TakeNotices, asyncio.Future, asyncio.AbstractEventLoop]


def _resolve(pairs: list[tuple[asyncio.Future, object]]) -> None:
    for fut, result in pairs:
        if fut.done():                       # the caller was cancelled; the write stands
            continue
        if isinstance(result, BaseException):
            fut.set_exception(result)
        else:
            fut.set_result(result)


class GroupCommitWriter:
    def __init__(self, store: Store) -> None:
        self._store = store
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="casino-ledger-writer", daemon=True)
        self._thread.start()

    def submit(self, item: Op | TakeNotices) -> asyncio.Future:
        """Queue an item; the returned future resolves once it is durable (or refused/failed)."""
        if self._closed:
            raise LedgerClosed("the ledger is closed")
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self._queue.put((item, fut, loop))
        return fut

    async def close(self) -> None:
        """Finish everything already queued, then stop the thread."""
        if not self._closed:
            self._closed = True
            self._queue.put(_STOP)
        await asyncio.to_thread(self._thread.join)

    def _run(self) -> None:
        stopping = False
        while not stopping:
            first = self._queue.get()
            if first is _STOP:
                break
            batch: list[Request] = [first]
            while len(batch) < MAX_BATCH:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is _STOP:
                    stopping = True
                    break
                batch.append(nxt)
            results = self._commit([item for item, _, _ in batch])
            by_loop: dict[asyncio.AbstractEventLoop, list] = {}
            for (_, fut, loop), result in zip(batch, results):
                by_loop.setdefault(loop, []).append((fut, result))
            for loop, pairs in by_loop.items():
                try:
                    loop.call_soon_threadsafe(_resolve, pairs)
                except RuntimeError:         # that loop is closed; nobody is waiting
                    log.warning("ledger results dropped: event loop closed count=%d", len(pairs))

    def _commit(self, items: Sequence[Op | TakeNotices]) -> list[object]:
        try:
            return self._store.apply_batch(items)
        except Exception as exc:  # noqa: BLE001 - any failure: the writer must live on
            log.error("ledger commit failed batch=%d error=%r", len(items), exc)
            closing = [i for i in items if isinstance(i, Op) and i.kind in CLOSING]
            if closing:
                try:
                    self._store.record_outcomes(closing)
                    log.warning("ledger recorded pending outcomes count=%d", len(closing))
                except Exception as exc2:  # noqa: BLE001 - logged; recovery will refund
                    log.error("ledger could not record pending outcomes count=%d error=%r",
                              len(closing), exc2)
            return [LedgerUnavailable(f"ledger write failed: {exc}") for _ in items]

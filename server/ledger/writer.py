"""Group commit: one writer thread turns many concurrent calls into one durable commit.

Callers on the event loop enqueue an item and await a future; they never touch
the disk. The writer thread takes everything queued, hands it to the store as
ONE batch (one synchronous=FULL transaction), and only after the commit has
returned resolves the futures, with one `call_soon_threadsafe` per batch.

Two batches in flight. Python code on the event loop and in the writer share
one GIL, but a COMMIT (writing the WAL frames, fsync) runs without it. So when
callers are already queued for a next batch, the writer keeps the results of
the batch it just committed until that next batch is judged and written, and
hands them back just before its COMMIT: the event loop turns them into the
callers' next calls while that COMMIT is on the disk, instead of the two
taking turns. No caller hears its result before its own batch's COMMIT has
returned; it may hear it one batch's judging later. With nothing queued the
results are handed back at once. When many callers wait and nothing is in
flight (a burst, or the start), the writer takes half of them, so that two
groups alternate from then on.

With each batch's results go the new balances of the players it changed
(`moved`, from the store), given to `on_moved` on the event loop just before
the batch's futures resolve: the ledger's view of balances on the loop is
never behind a write its caller has heard returned.

If the commit fails, every caller in the batch gets `LedgerUnavailable`, and
the closing operations among them are recorded as pending outcomes in a second
transaction (if that too fails, recovery will refund instead of complete).
"""
from __future__ import annotations

import asyncio
import logging
import queue
import threading
import time
from collections.abc import Callable, Sequence

from server.ledger.errors import LedgerClosed, LedgerUnavailable
from server.ledger.ops import CLOSING, Balance, Item, Op
from server.ledger.store import Store
from server.metrics import COUNTS

log = logging.getLogger("casino.ledger")

MAX_BATCH = 2048
SPLIT_AT = 32        # this many waiting and nothing in flight: take half, start two groups

Request = tuple[Item, "asyncio.Future[object]", asyncio.AbstractEventLoop]
_STOP = None             # queued after the last request: the thread finishes and ends
Moved = dict[str, Balance]
Done = tuple[list[Request], list[object], Moved]  # a committed batch, its results, balances it changed


def _resolve(pairs: list[tuple[asyncio.Future[object], object]], moved: Moved,
             on_moved: Callable[[Moved], None] | None) -> None:
    if moved and on_moved is not None:
        on_moved(moved)
    for fut, result in pairs:
        if fut.done():                       # the caller was cancelled; the write stands
            continue
        if isinstance(result, BaseException):
            fut.set_exception(result)
        else:
            fut.set_result(result)


def _hand_back(done: Done, on_moved: Callable[[Moved], None] | None) -> None:
    """Resolve a committed batch's futures: one call_soon_threadsafe per event loop
    (`on_moved` is told on each of them; a ledger is used from one)."""
    batch, results, moved = done
    by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[object], object]]] = {}
    for (_, fut, loop), result in zip(batch, results):
        by_loop.setdefault(loop, []).append((fut, result))
    for loop, pairs in by_loop.items():
        try:
            loop.call_soon_threadsafe(_resolve, pairs, moved, on_moved)
        except RuntimeError:         # that loop is closed; nobody is waiting
            log.warning("ledger results dropped: event loop closed count=%d", len(pairs))


class GroupCommitWriter:
    def __init__(self, store: Store, on_moved: Callable[[Moved], None] | None = None) -> None:
        self._store = store
        self._on_moved = on_moved
        self._queue: queue.SimpleQueue[Request | None] = queue.SimpleQueue()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="casino-ledger-writer", daemon=True)
        self._thread.start()

    def submit(self, item: Item) -> asyncio.Future[object]:
        """Queue an item; the returned future resolves once it is durable (or refused/failed),
        with the store's result for it (see Store.apply_batch)."""
        if self._closed:
            raise LedgerClosed("the ledger is closed")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[object] = loop.create_future()
        self._queue.put((item, fut, loop))
        return fut

    async def close(self) -> None:
        """Finish everything already queued, then stop the thread."""
        if not self._closed:
            self._closed = True
            self._queue.put(_STOP)
        await asyncio.to_thread(self._thread.join)

    def _run(self) -> None:
        held: Done | None = None          # committed, results not handed back yet
        stopping = False
        while not stopping:
            if held is None:
                first = self._queue.get()
                limit = MAX_BATCH
                waiting = self._queue.qsize() + 1
                if waiting >= SPLIT_AT:
                    limit = (waiting + 1) // 2
            else:
                try:
                    first = self._queue.get_nowait()
                except queue.Empty:       # nobody to overlap with: hand back now, then wait
                    _hand_back(held, self._on_moved)
                    held = None
                    continue
                limit = MAX_BATCH
            if first is _STOP:
                break
            batch: list[Request] = [first]
            while len(batch) < limit:
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is _STOP:
                    stopping = True
                    break
                batch.append(nxt)
            earlier, held = held, None

            def hand_back_earlier() -> None:
                nonlocal earlier
                if earlier is not None:
                    _hand_back(earlier, self._on_moved)
                    earlier = None

            moved: Moved = {}
            results = self._commit([item for item, _, _ in batch], hand_back_earlier, moved)
            hand_back_earlier()            # the store failed before its COMMIT: hand back now
            held = (batch, results, moved)
        if held is not None:
            _hand_back(held, self._on_moved)

    def _commit(self, items: Sequence[Item], before_commit: Callable[[], None],
                moved: Moved) -> list[object]:
        began = time.perf_counter()
        try:
            results = self._store.apply_batch(items, before_commit, moved)
        except Exception as exc:  # noqa: BLE001 - any failure: the writer must live on
            COUNTS.ledger_failed_batches += 1
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
        COUNTS.ledger_commit.observe(time.perf_counter() - began)   # counted on this thread alone
        COUNTS.ledger_batch.observe(len(items))
        COUNTS.ledger_batches += 1
        COUNTS.ledger_items += len(items)
        return results

"""The group-commit writer with two batches in flight (server/ledger/writer.py).

The writer may hold a committed batch's results until the next batch is
written, so the event loop works during the next COMMIT. These tests pin the
promise that makes this safe: a caller hears its result only after its own
batch's COMMIT returned, every caller hears exactly once, and a failing batch
next to a succeeding one tells each caller the truth. On both stores.
"""
from __future__ import annotations

import asyncio

import pytest

from server.db.url import Database
from server.ledger import Balance, Ledger, LedgerUnavailable, check
from server.ledger.store import Store, open_store

pytestmark = pytest.mark.both_stores

N = 64


class WatchedStore:
    """The real store (either kind), noting which operations are durable and each batch's size."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.durable: set[tuple[str, str]] = set()
        self.sizes: list[int] = []

    def apply_batch(self, items, before_commit=None, moved=None):
        self.sizes.append(len(items))
        results = self.store.apply_batch(items, before_commit, moved)
        self.durable.update((op.scope, op.key) for op in items)    # COMMIT has returned
        return results

    def __getattr__(self, name):
        return getattr(self.store, name)


async def open_watched(database) -> tuple[Ledger, WatchedStore]:
    store = WatchedStore(await asyncio.to_thread(open_store, Database.parse(database)))
    await asyncio.to_thread(store.recover)
    return Ledger(store, []), store


async def test_each_caller_hears_only_after_its_own_commit(database):
    ledger, store = await open_watched(database)
    players = [f"p{i}" for i in range(N)]
    heard_early: list[str] = []

    async def rounds(p: str) -> None:
        await ledger.mint(f"m-{p}", p, 1000, "start")
        for j in range(10):
            await ledger.hold(f"h-{p}-{j}", p, "t", 10)
            if ("table:t", f"h-{p}-{j}") not in store.durable:
                heard_early.append(f"h-{p}-{j}")
            await ledger.settle(f"s-{p}-{j}", "t", [f"h-{p}-{j}"], {p: 20})
            if ("table:t", f"s-{p}-{j}") not in store.durable:
                heard_early.append(f"s-{p}-{j}")

    try:
        await asyncio.gather(*(rounds(p) for p in players))
        assert heard_early == []
        assert sum(store.sizes) == N * 21
        assert store.sizes[0] <= N // 2              # 64 at once: split, two groups from then on
        for p in players:
            assert await ledger.balance(p) == Balance(1100, {})
    finally:
        await ledger.close()
    report = check(database)
    assert report.ok and report.open_holds == 0 and report.house == -N * 100


async def test_a_failed_batch_next_to_a_good_one_tells_each_caller_the_truth(database):
    ledger = await Ledger.open(database)
    players = [f"p{i}" for i in range(N)]
    try:
        await asyncio.gather(*(ledger.mint(f"m-{p}", p, 100, "start") for p in players))
        await asyncio.gather(*(ledger.hold(f"h-{p}", p, "t", 10) for p in players))
        ledger.fail_next_commits(1)
        results = await asyncio.gather(*(ledger.settle(f"s-{p}", "t", [f"h-{p}"], {p: 30}) for p in players),
                                       return_exceptions=True)
        failed = [p for p, r in zip(players, results) if isinstance(r, LedgerUnavailable)]
        paid = [p for p, r in zip(players, results) if r is None]
        assert len(failed) + len(paid) == N and failed and paid
        for p in failed:                                 # "pending recovery": stake still held
            assert await ledger.balance(p) == Balance(90, {"t": 10})
        for p in paid:
            assert await ledger.balance(p) == Balance(120, {})
        report = check(database)
        assert report.ok and report.pending_outcomes == len(failed) and report.open_holds == len(failed)
    finally:
        await ledger.close()
    again = await Ledger.open(database)                   # recovery completes the recorded outcomes
    try:
        assert sorted(r.stake for r in again.recovered) == sorted(f"h-{p}" for p in failed)
        for p in players:
            assert await again.balance(p) == Balance(120, {})
    finally:
        await again.close()
    assert check(database).ok

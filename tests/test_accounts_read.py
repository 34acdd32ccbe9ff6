"""AccountStore.get reads the names asked for together: a restart logs a full
house in again at once, and one query a name would queue them on the lock."""
from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from server.accounts.store import READ_CHUNK, AccountStore


@pytest.fixture
def store(tmp_path: Path) -> AccountStore:
    s = AccountStore(tmp_path / "casino.db")
    yield s
    s.close()


async def test_names_asked_together_are_read_in_one_query_a_chunk(store: AccountStore) -> None:
    names = [f"p{i}" for i in range(READ_CHUNK + 200)]
    for name in names:
        await store.create(name, f"hash-{name}")
    reads: list[int] = []
    real = store._rows

    def counted(keys: list[str]):
        reads.append(len(keys))
        return real(keys)
    store._rows = counted      # type: ignore[method-assign]
    asked = [*names, "P7", "nobody", "p3"]          # a name twice (another case), one unknown
    found = await asyncio.gather(*(store.get(n) for n in asked))
    assert [a.name if a else None for a in found] == [*names, "p7", None, "p3"]
    assert all(a.pwhash == f"hash-{a.name}" for a in found if a)
    assert found[3] is not found[-1]                  # each asker its own Account (prefs are mutable)
    # every name asked before the read began went in that one read (chunked inside it)
    assert reads == [len(set(n.lower() for n in asked))]


async def test_a_name_asked_during_a_read_waits_for_the_next_one(store: AccountStore) -> None:
    await store.create("alice", "h")
    await store.create("bob", "h")
    reads: list[list[str]] = []
    started, release = threading.Event(), threading.Event()
    real = store._rows

    def held(keys: list[str]):
        reads.append(sorted(keys))
        started.set()
        release.wait(5)
        return real(keys)
    store._rows = held         # type: ignore[method-assign]
    first = asyncio.ensure_future(store.get("alice"))
    await asyncio.to_thread(started.wait, 5)           # the first read is on the worker thread
    second = asyncio.ensure_future(store.get("bob"))
    await asyncio.sleep(0)                              # let it queue (a loop turn, not time)
    release.set()
    a, b = await asyncio.gather(first, second)
    assert a is not None and a.name == "alice" and b is not None and b.name == "bob"
    assert reads == [["alice"], ["bob"]]


async def test_a_failed_read_fails_its_askers_and_the_next_read_works(store: AccountStore) -> None:
    await store.create("alice", "h")
    real = store._rows

    def broken(keys: list[str]):
        raise OSError("disk gone")
    store._rows = broken       # type: ignore[method-assign]
    results = await asyncio.gather(store.get("alice"), store.get("bob"), return_exceptions=True)
    assert all(isinstance(r, OSError) for r in results)
    store._rows = real         # type: ignore[method-assign]
    account = await store.get("Alice")
    assert account is not None and account.name == "alice"

"""A bounded mirror of keys (server/ledger/mirror.py `RECENT_KEYS`): idempotency kept.

The writer keeps only the most recent keys in memory, so the database, not
the cache, decides whether a key was applied (on both stores; "the file"
below is either). These tests use a bound of 3 and
check both ways an evicted key comes back: the judging refuses the retry
(its stakes are closed, its chips spent) and the file is asked; or the
judging accepts it and the file's UNIQUE (scope, key) refuses the row, the
batch is rolled back, its keys looked up and the batch judged once more.
Either way a retry succeeds and moves nothing, a reused key is a KeyConflict,
and the rest of the batch stands.
"""
from __future__ import annotations

import itertools
import logging

import pytest

from server.ledger import (
    Balance,
    InsufficientFunds,
    KeyConflict,
    Ledger,
    LedgerUnavailable,
    UnknownStake,
    check,
)
from server.db.url import Database
from server.ledger.mirror import RECENT_KEYS, Mirror
from server.ledger.ops import Op
from server.ledger.store import open_store

from .conftest import raw

pytestmark = pytest.mark.both_stores

BOUND = 3
RECALLED = "ledger keys recalled from the database"     # the store's conflict path ran
_fresh = itertools.count()


def file_ops(database) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """Every applied key with its (kind, args), oldest first."""
    with raw(database) as conn:
        return [((s, k), (kind, a)) for s, k, kind, a in
                conn.execute("SELECT scope, key, kind, args FROM operations ORDER BY id")]


def conflict_path_ran(caplog) -> int:
    return sum(RECALLED in r.getMessage() for r in caplog.records if r.name == "casino.ledger")


async def push_out(led: Ledger, n: int = BOUND) -> None:
    """Apply `n` unrelated operations, evicting every older key from a mirror of BOUND."""
    for _ in range(n):
        await led.mint(f"grant:zoe:{next(_fresh)}", "zoe", 1, "grant")


@pytest.fixture
async def small(database):
    led = await Ledger.open(database, recent_keys=BOUND)
    yield led
    await led.close()


async def test_the_mirror_keeps_only_the_newest_keys(small, database):
    await small.mint("start:alice", "alice", 100, "start")
    await small.hold("h1", "alice", "t", 30)
    await push_out(small, 5)
    mirror = small.store.mirror
    assert list(mirror.ops.items()) == file_ops(database)[-BOUND:]
    assert list(mirror.order) == list(mirror.ops)
    assert mirror.holds.keys() == {("t", "h1")}          # open holds are never evicted
    assert len(file_ops(database)) == 7


async def test_retries_of_evicted_keys_succeed_and_change_nothing(small, database, caplog):
    await small.mint("start:alice", "alice", 100, "start")
    await small.hold("h1", "alice", "t", 30)
    await small.settle("s1", "t", ["h1"], {"alice": 60})         # alice 130
    await small.hold("h2", "alice", "t", 10)                     # open: alice 120, 10 held
    await small.hold("big", "alice", "t", 120)                   # alice 0, 130 held
    await small.refund("r-big", "t", "big")                      # alice 120, 10 held
    await push_out(small)
    mirror = small.store.mirror
    assert not {("mint", "start:alice"), ("table:t", "h1"), ("table:t", "s1")} & mirror.ops.keys()
    before, ops_before = await small.balance("alice"), check(database).operations
    assert before == Balance(120, {"t": 10})
    with caplog.at_level(logging.INFO, logger="casino.ledger"):
        await small.settle("s1", "t", ["h1"], {"alice": 60})     # refused afresh (h1 closed): file asked
        await small.refund("r-big", "t", "big")
        assert conflict_path_ran(caplog) == 0
        await small.mint("start:alice", "alice", 100, "start")   # accepted afresh: the file's UNIQUE
        assert conflict_path_ran(caplog) == 1
        await small.hold("h1", "alice", "t", 30)                 # funds enough: accepted afresh
        assert conflict_path_ran(caplog) == 2
        await small.hold("big", "alice", "t", 120)               # funds enough again (120)
        await small.hold("h2", "alice", "t", 10)                 # still open, key evicted
        await push_out(small)
        await small.mint("grant:x", "alice", 500, "grant")
        await small.hold("h3", "alice", "t", 620)                # alice 0
        await push_out(small)
        await small.hold("big", "alice", "t", 120)               # refused afresh (no funds): file asked
    assert await small.balance("alice") == Balance(0, {"t": 630})
    report = check(database)
    assert report.ok and report.operations == ops_before + 2 * BOUND + 2
    assert report.minted == 100 + 3 + 2 * BOUND + 500


async def test_an_evicted_key_reused_is_a_key_conflict_and_the_rest_of_the_batch_commits(database):
    store = open_store(Database.parse(database), BOUND)
    try:
        store.apply_batch([Op.mint("start:alice", "alice", 100, "start")])
        store.apply_batch([Op.hold("h1", "alice", "t", 30), Op.hold("h2", "alice", "t", 20)])
        store.apply_batch([Op.settle("s1", "t", ["h1"], {"alice": 60})])      # alice 110, 20 held
        store.apply_batch([Op.mint(f"grant:{i}", "zoe", 1, "grant") for i in range(BOUND)])
        results = store.apply_batch([
            Op.mint("start:alice", "alice", 999, "start"),      # reused mint key: UNIQUE path
            Op.hold("h3", "alice", "t", 5),                     # new: goes through
            Op.settle("s1", "t", ["h2"], {"alice": 40}),        # reused key on an open stake: UNIQUE path
            Op.settle("s1", "t", ["h1"], {"alice": 60}),        # the same key's true retry: no-op
            Op.hold("h1", "alice", "t", 31),                    # reused hold key, other amount
            Op.refund("r9", "t", "h1"),                         # new key, closed stake: refused
            Op.mint("start:carol", "carol", 10, "start"),       # new: goes through
        ])
        kinds = [type(r) if isinstance(r, Exception) else r for r in results]
        assert kinds == [KeyConflict, None, KeyConflict, None, KeyConflict, UnknownStake, None]
        assert store.balance("alice") == Balance(105, {"t": 25})
        assert store.balance("carol") == Balance(10, {})
        # a reused key whose retry the judging refuses is told apart by the file too
        [late] = store.apply_batch([Op.settle("s1", "t", ["h1"], {"alice": 61})])
        assert isinstance(late, KeyConflict)
        report = check(database)
        assert report.ok and report.open_holds == 2 and report.operations == 4 + BOUND + 2
        assert len(store.mirror.ops) <= BOUND
        assert set(store.mirror.ops.items()) <= set(file_ops(database))
    finally:
        store.close()


async def test_a_reopened_file_loads_only_the_newest_keys_and_older_retries_are_recognised(database):
    led = await Ledger.open(database)
    await led.mint("start:alice", "alice", 100, "start")
    await led.hold("h1", "alice", "t", 30)
    await led.settle("s1", "t", ["h1"], {"alice": 60})
    await push_out(led, 4)
    assert len(led.store.mirror.ops) == 7                # the default bound holds them all
    await led.close()
    assert RECENT_KEYS == 200_000

    led = await Ledger.open(database, recent_keys=BOUND)
    try:
        assert led.recovered == []
        assert list(led.store.mirror.ops.items()) == file_ops(database)[-BOUND:]
        await led.settle("s1", "t", ["h1"], {"alice": 60})
        await led.hold("h1", "alice", "t", 30)
        await led.mint("start:alice", "alice", 100, "start")
        with pytest.raises(KeyConflict):
            await led.hold("h1", "alice", "t", 29)
        with pytest.raises(InsufficientFunds):            # a new key is still judged afresh
            await led.hold("h9", "alice", "t", 131)
        assert await led.balance("alice") == Balance(130, {})
        assert check(database).operations == 7
        assert len(led.store.mirror.ops) <= BOUND
    finally:
        await led.close()


async def test_a_recorded_retry_of_an_evicted_key_is_recognised_at_restart(database):
    led = await Ledger.open(database, recent_keys=BOUND)
    await led.mint("start:alice", "alice", 100, "start")
    await led.hold("h1", "alice", "t", 30)
    await led.settle("s1", "t", ["h1"], {"alice": 60})
    led.fail_next_commits(1)
    with pytest.raises(LedgerUnavailable):                  # the retry's batch fails: recorded
        await led.settle("s1", "t", ["h1"], {"alice": 60})
    await push_out(led)
    await led.close()
    assert check(database).pending_outcomes == 1
    led = await Ledger.open(database, recent_keys=BOUND)     # s1 is not among the keys loaded
    try:
        assert led.recovered == []                           # applied already: nothing to do or tell
        assert await led.take_notices("alice") == []
        assert await led.balance("alice") == Balance(130, {})
    finally:
        await led.close()
    report = check(database)
    assert report.ok and report.pending_outcomes == 0 and report.operations == 3 + BOUND


async def test_a_failed_commit_after_a_recall_keeps_the_mirror_true_to_the_file(database):
    store = open_store(Database.parse(database), BOUND)
    try:
        store.apply_batch([Op.mint("start:alice", "alice", 100, "start")])
        store.apply_batch([Op.mint(f"grant:{i}", "zoe", 1, "grant") for i in range(BOUND)])
        batch = [Op.mint("start:alice", "alice", 100, "start"), Op.mint("start:bob", "bob", 5, "start")]
        store.fail_next_commits(1)
        with pytest.raises(store.dialect.operational_error):
            store.apply_batch(batch)
        assert len(store.mirror.ops) <= BOUND
        assert set(store.mirror.ops.items()) <= set(file_ops(database))
        assert list(store.mirror.order) == list(store.mirror.ops)
        assert store.apply_batch(batch) == [None, None]
        assert store.balance("alice") == Balance(100, {}) and store.balance("bob") == Balance(5, {})
        assert check(database).ok and check(database).operations == 1 + BOUND + 1
    finally:
        store.close()


def test_a_bound_below_one_is_refused(database):
    with raw(database) as conn, pytest.raises(ValueError):
        Mirror(conn, 0)

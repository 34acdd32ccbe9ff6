"""Failed writes and start-up recovery: "pending recovery", never "paid" twice (both stores)."""
from __future__ import annotations

import asyncio
import logging

import pytest

from server.ledger import Balance, Ledger, LedgerUnavailable, Recovered, check

pytestmark = pytest.mark.both_stores


async def seeded(path) -> Ledger:
    led = await Ledger.open(path)
    await led.mint("m-alice", "alice", 100, "start")
    await led.mint("m-bob", "bob", 100, "start")
    await led.hold("a1", "alice", "craps", 10)
    return led


async def test_failed_settlement_raises_keeps_stake_held_and_retry_pays_once(database):
    led = await seeded(database)
    led.fail_next_commits(1)
    with pytest.raises(LedgerUnavailable):
        await led.settle("win1", "craps", ["a1"], {"alice": 20})
    assert await led.balance("alice") == Balance(90, {"craps": 10})
    report = check(database)
    assert report.ok and report.open_holds == 1 and report.pending_outcomes == 1
    await led.settle("win1", "craps", ["a1"], {"alice": 20})      # the retry, same key
    await led.settle("win1", "craps", ["a1"], {"alice": 20})
    assert await led.balance("alice") == Balance(110, {})
    await led.close()
    led = await Ledger.open(database)                               # nothing left to recover
    assert led.recovered == []
    assert await led.balance("alice") == Balance(110, {})
    await led.close()
    report = check(database)
    assert report.ok and report.pending_outcomes == 0 and report.house == -10


async def test_recorded_outcome_is_completed_at_next_start(database, caplog):
    led = await seeded(database)
    led.fail_next_commits(1)
    with pytest.raises(LedgerUnavailable):
        await led.settle("win1", "craps", ["a1"], {"alice": 20})
    await led.close()
    with caplog.at_level(logging.INFO, logger="casino.ledger"):
        led = await Ledger.open(database)
    assert led.recovered == [Recovered("settled", "craps", "a1", "alice", 10, "win1")]
    assert any("action=settled" in r.getMessage() and "stake=a1" in r.getMessage()
               for r in caplog.records if r.name == "casino.ledger")
    assert await led.balance("alice") == Balance(110, {})
    notices = await led.take_notices("alice")
    assert len(notices) == 1 and "completed" in notices[0] and "20" in notices[0]
    assert await led.take_notices("alice") == []
    await led.settle("win1", "craps", ["a1"], {"alice": 20})      # a late retry changes nothing
    assert await led.balance("alice") == Balance(110, {})
    await led.close()
    assert check(database).ok


async def test_unrecorded_outcome_is_refunded_at_next_start(database, caplog):
    led = await seeded(database)
    led.fail_next_commits(2)                   # the batch AND the pending-outcome record fail
    with pytest.raises(LedgerUnavailable):
        await led.settle("win1", "craps", ["a1"], {"alice": 20})
    assert check(database).pending_outcomes == 0
    await led.close()
    with caplog.at_level(logging.INFO, logger="casino.ledger"):
        led = await Ledger.open(database)
    assert [(r.action, r.stake, r.amount) for r in led.recovered] == [("refunded", "a1", 10)]
    assert any(m.startswith("recovery ") and "action=refunded" in m and "player=alice" in m
               for m in (r.getMessage() for r in caplog.records))
    assert await led.balance("alice") == Balance(100, {})
    notices = await led.take_notices("alice")
    assert len(notices) == 1 and "refunded" in notices[0]
    await led.close()
    report = check(database)
    assert report.ok and report.open_holds == 0 and report.house == 0


async def test_open_holds_at_start_are_refunded_and_players_told(database):
    led = await seeded(database)
    await led.hold("b1", "bob", "pig", 30)
    await led.hold("b2", "bob", "craps", 5)
    await led.close()
    led = await Ledger.open(database)
    assert sorted((r.table, r.stake, r.action) for r in led.recovered) == [
        ("craps", "a1", "refunded"), ("craps", "b2", "refunded"), ("pig", "b1", "refunded")]
    assert await led.balance("bob") == Balance(100, {})
    assert len(await led.take_notices("bob")) == 2
    moves = await led.statement("bob", 2)
    assert all(m.kind == "refund" and m.memo.startswith("recovery:") for m in moves)
    await led.close()
    report = check(database)
    assert report.ok and report.open_holds == 0


async def test_failed_hold_moves_nothing_and_can_be_retried(database):
    led = await seeded(database)
    led.fail_next_commits(1)
    with pytest.raises(LedgerUnavailable):
        await led.hold("b1", "bob", "craps", 30)
    assert await led.balance("bob") == Balance(100, {})
    await led.hold("b1", "bob", "craps", 30)
    assert await led.balance("bob") == Balance(70, {"craps": 30})
    await led.close()


async def test_whole_batch_fails_together_and_only_closings_are_recorded(database):
    led = await seeded(database)
    await led.hold("b1", "bob", "craps", 10)
    led.fail_next_commits(1)
    results = await asyncio.gather(
        led.settle("s-a", "craps", ["a1"], {"alice": 20}),
        led.forfeit("f-b", "craps", "b1"),
        led.hold("b2", "bob", "craps", 10),
        return_exceptions=True)
    assert all(isinstance(r, LedgerUnavailable) for r in results)
    assert check(database).pending_outcomes == 2
    await led.close()
    led = await Ledger.open(database)
    assert sorted((r.action, r.stake) for r in led.recovered) == [("forfeited", "b1"), ("settled", "a1")]
    assert await led.balance("alice") == Balance(110, {})
    assert await led.balance("bob") == Balance(90, {})
    await led.close()
    assert check(database).ok


async def test_stale_recorded_outcome_is_discarded_not_paid(database):
    led = await seeded(database)
    led.fail_next_commits(1)
    with pytest.raises(LedgerUnavailable):
        await led.settle("win1", "craps", ["a1"], {"alice": 20})
    await led.refund("shutdown", "craps", "a1")      # the stake ended another way
    await led.close()
    led = await Ledger.open(database)
    assert [(r.action, r.key) for r in led.recovered] == [("discarded", "win1")]
    assert await led.balance("alice") == Balance(100, {})
    await led.close()
    report = check(database)
    assert report.ok and report.pending_outcomes == 0


async def test_a_second_process_cannot_open_a_ledger_in_use(database):
    """SQLite: the file's flock; PostgreSQL: the writer connection's advisory lock."""
    from server.ledger import LedgerError
    led = await seeded(database)
    try:
        with pytest.raises(LedgerError, match="another process"):
            await Ledger.open(database)          # its recovery would refund our live stake
        assert await led.balance("alice") == Balance(90, {"craps": 10})
    finally:
        await led.close()
    again = await Ledger.open(database)          # released on close (and on kill -9: test_crash)
    await again.close()

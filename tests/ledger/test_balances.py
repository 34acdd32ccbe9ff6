"""Balances are answered on the event loop once known, and never older than a
write that returned before they were asked (issue 16: a crowd's `balance`
commands). A write hands the loop the new balance of every player it changed;
players no write has told of since start are read from the database, those asked
together in one snapshot and one trip to the reader thread. On both stores."""
from __future__ import annotations

import asyncio
import threading

import pytest

from server.ledger import Ledger, check, reads
from server.ledger.errors import LedgerClosed

from .conftest import dialect, raw

pytestmark = pytest.mark.both_stores


def counting_reads(ledger: Ledger) -> list[list[str]]:
    """The players of each balance read the ledger sends to its reader thread."""
    seen: list[list[str]] = []
    real = ledger.store.balances
    ledger.store.balances = lambda who: seen.append(list(who)) or real(who)
    return seen


def stored_balances(database, players: list[str]):
    """The balances as the database holds them, read on a connection of our own."""
    with raw(database) as conn:
        return reads.balances(conn, dialect(database), players)


async def test_a_write_tells_the_loop_the_balances_it_changed(ledger, database):
    await ledger.mint("start:ann", "ann", 500, "starting chips")
    await ledger.mint("start:bob", "bob", 300, "starting chips")
    await ledger.hold("h1", "ann", "craps", 30)
    await ledger.hold("h2", "ann", "craps", 20)
    await ledger.hold("h3", "ann", "pig", 5)
    await ledger.hold("h4", "bob", "craps", 100)
    await ledger.settle("s1", "craps", ["h1", "h4"], {"ann": 60})     # bob's 100 lost, ann paid 60
    seen = counting_reads(ledger)
    ann, bob = await ledger.balance("ann"), await ledger.balance("bob")
    assert seen == []                                          # no trip to the reader thread
    assert (ann.wallet, ann.held) == (500 - 55 + 60, {"craps": 20, "pig": 5})
    assert (bob.wallet, bob.held) == (200, {})
    assert stored_balances(database, ["ann", "bob"]) == {"ann": ann, "bob": bob}
    ann.held["craps"] = 0                                      # an answer is the asker's own copy
    assert (await ledger.balance("ann")).held == {"craps": 20, "pig": 5}
    assert check(database).ok


async def test_unknown_balances_asked_at_once_are_one_read_and_then_known(ledger, database):
    players = [f"p{i}" for i in range(40)]
    for i, p in enumerate(players):
        await ledger.mint(f"start:{p}", p, 100 + i, "starting chips")
    await ledger.close()
    fresh = await Ledger.open(database)                         # knows nobody yet
    try:
        seen = counting_reads(fresh)
        answers = await asyncio.gather(*(fresh.balance(p) for p in players + ["p3", "nobody"]))
        assert len(seen) <= 2                                  # the first alone, the rest together
        assert [a.wallet for a in answers[:40]] == [100 + i for i in range(40)]
        assert answers[3].held == {} and answers[40] == answers[3]
        assert answers[41].wallet == 0 and answers[41].held == {}
        before = len(seen)
        again = await asyncio.gather(*(fresh.balance(p) for p in players))
        assert len(seen) == before and again == answers[:40]   # known now: no read
    finally:
        await fresh.close()
    assert check(database).ok


async def test_a_read_that_raced_a_write_does_not_hide_it(ledger, database):
    await ledger.mint("start:ann", "ann", 500, "starting chips")
    await ledger.close()
    led = await Ledger.open(database)
    try:
        read_done, release = threading.Event(), threading.Event()
        real = led.store.balances

        def slow(who):                   # reads the database before the wager, answers after it
            out = real(who)
            read_done.set()
            release.wait(10)
            return out

        led.store.balances = slow
        first = asyncio.ensure_future(led.balance("ann"))
        await asyncio.to_thread(read_done.wait, 10)
        await led.hold("h1", "ann", "roulette", 200)           # durable while the old read is out
        release.set()
        assert (await first).wallet == 500                     # what the database said when it was read
        after = await led.balance("ann")
        assert after.wallet == 300 and after.held == {"roulette": 200}
    finally:
        await led.close()
    assert check(database).ok


async def test_a_balance_after_close_is_refused(database):
    led = await Ledger.open(database)
    await led.close()
    with pytest.raises(LedgerClosed):
        await led.balance("ann")

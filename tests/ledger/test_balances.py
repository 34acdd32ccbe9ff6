"""Balances asked for together are read together: one snapshot, one trip to
the reader thread, each player's own answer, and never older than a write that
returned before it was asked (issue 16: a crowd's `balance` commands)."""
from __future__ import annotations

import asyncio

import pytest

from server.ledger import check
from server.ledger.errors import LedgerClosed


async def test_many_balances_at_once_are_one_read_and_each_is_right(ledger, db_path):
    players = [f"p{i}" for i in range(40)]
    for i, p in enumerate(players):
        await ledger.mint(f"start:{p}", p, 100 + i, "starting chips")
    await ledger.hold("h1", "p3", "craps", 30)
    reads = []
    balances = ledger.store.balances
    ledger.store.balances = lambda who: reads.append(list(who)) or balances(who)
    answers = await asyncio.gather(*(ledger.balance(p) for p in players + ["p3", "nobody"]))
    assert len(reads) <= 2                                  # the first alone, the rest together
    assert [a.wallet for a in answers[:40]] == [100 + i - (30 if i == 3 else 0) for i in range(40)]
    assert answers[3].held == {"craps": 30} and answers[40] == answers[3]
    assert answers[41].wallet == 0 and answers[41].held == {}
    assert check(db_path).ok


async def test_a_balance_asked_after_a_write_sees_it_even_while_a_read_is_running(ledger, db_path):
    await ledger.mint("start:ann", "ann", 500, "starting chips")
    first = asyncio.ensure_future(ledger.balance("ann"))    # a read on the reader thread
    await asyncio.sleep(0)
    await ledger.hold("h1", "ann", "roulette", 200)          # durable before the next is asked
    after = await ledger.balance("ann")
    assert (await first).wallet in (500, 300)
    assert after.wallet == 300 and after.held == {"roulette": 200}
    assert check(db_path).ok


async def test_a_balance_after_close_is_refused(db_path):
    from server.ledger import Ledger
    led = await Ledger.open(db_path)
    await led.close()
    with pytest.raises(LedgerClosed):
        await led.balance("ann")

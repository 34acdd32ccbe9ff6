"""`Ledger.last_minted`: when a player last had relief, read from the mints
themselves, and the relief key's promise: a retry of one period's mint (a
crash between the mint and the reply, two sessions at once) mints nothing.
The same on SQLite and on PostgreSQL."""
from __future__ import annotations

import asyncio
import time

import pytest

from server.ledger import Balance, check

pytestmark = pytest.mark.both_stores


async def test_no_relief_yet_is_none(ledger):
    await ledger.mint("start:ann", "ann", 100, "starting chips")
    assert await ledger.last_minted("relief:ann:") is None


async def test_the_newest_mint_with_the_prefix_is_found_and_only_it(ledger):
    before = time.time()
    await ledger.mint("relief:a_b:24h:1", "a_b", 100, "relief")
    first = await ledger.last_minted("relief:a_b:")
    assert first is not None and before - 1 <= first <= time.time() + 1
    await ledger.mint("relief:a_b:24h:2", "a_b", 100, "relief")
    second = await ledger.last_minted("relief:a_b:")
    assert second is not None and second >= first
    # `_` is no wildcard and case counts: neither `axb` nor `A_B` is `a_b`
    await ledger.mint("relief:axb:24h:1", "axb", 100, "relief")
    assert await ledger.last_minted("relief:A_B:") is None
    assert await ledger.last_minted("relief:a_") is not None      # a real prefix still matches
    assert await ledger.last_minted("relief:a_bc:") is None


async def test_a_retried_relief_key_mints_once(ledger, database):
    await ledger.mint("relief:ann:24h:20000", "ann", 100, "relief")
    await ledger.mint("relief:ann:24h:20000", "ann", 100, "relief")     # the retry after a crash
    await asyncio.gather(*(ledger.mint("relief:ann:24h:20000", "ann", 100, "relief") for _ in range(5)))
    assert await ledger.balance("ann") == Balance(100, {})
    report = check(database)
    assert report.ok and report.minted == 100 and report.operations == 1

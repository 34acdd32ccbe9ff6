"""`statement` over telnet: newest first as it says, in a player's words."""
from __future__ import annotations

import re

import pytest
from support.telnet import Client, login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL


async def test_statement_is_newest_first_without_stake_ids(casino_factory):
    app = await casino_factory(seed=5)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "stan")
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    await c.cmd_expect("bet field 5", "Your bets")
    await c.cmd_expect("roll", "Settlement")
    out = plain(await c.cmd("statement"))
    rows = [line for line in out.splitlines() if line.startswith("  ")]
    assert out.startswith("Your last 3 chip movements, newest first:")
    assert "starting chips" in rows[-1]                 # the oldest is last
    assert "wager placed" in rows[1]
    assert re.search(r"(won|lost): staked 5, paid back \d+", rows[0])
    assert app.run_id not in out and not re.search(r"bank_craps:\d", out)
    one = plain(await c.cmd("statement 1"))
    assert one.startswith("Your last 1 chip movement, newest first:")
    await c.close()

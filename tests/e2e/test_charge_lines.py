"""New York's 5% charge in `statement`, `stats` and `top` (issue 38 item 5): a charge
is its own kind of line, "charge 2 on a bet of 40", never "wager placed -2" and
"lost: staked 2"; `stats` counts its chips as lost but not as a round or a wager,
and `top wagered` leaves it out too (`top net` counts it: chips lost)."""
from __future__ import annotations

import re

import pytest
from support.telnet import Client, login, plain

from server.ledger import check
from tests.e2e.test_stats import stats_rows
from tests.e2e.test_top import board, top

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL


async def test_a_charge_is_its_own_line_and_not_a_round(casino_factory):
    app = await casino_factory(seed=7)
    c = await Client.open(app.port, ttype="dumb", cols=80)
    await login(c, "nyla")
    await c.cmd("north")
    await c.cmd("west")
    await c.cmd_expect("play newyork", "joins the table")
    await c.cmd_expect("bet buy 6 40", "Your bets")
    await app.tables["new_york_craps"].idle()
    out = plain(await c.cmd_expect("statement", "chip movement"))
    rows = [line for line in out.replace("\r", "").split("\n") if line.startswith("  ")]
    assert len(rows) == 3, rows                          # the grant, the wager, the charge
    assert re.search(r"-2\s+new_york_craps: charge 2 on a bet of 40$", rows[0]), rows
    assert re.search(r"-40\s+new_york_craps: wager placed$", rows[1]), rows
    assert "staked 2" not in out and "lost" not in out
    line = stats_rows(await c.cmd_expect("stats", "Total"))["New York craps"]
    assert (line["rounds"], line["wagered"], line["lost"], line["net"]) == ("0", "0", "2", "-2"), line
    assert [r[2:] for r in board(await top(c, "top wagered"))] == [("nyla", 0)]
    assert [r[2:] for r in board(await top(c, "top net"))] == [("nyla", -2)]
    await c.close()
    assert check(app.database).ok

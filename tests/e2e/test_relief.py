"""`relief` over telnet (issue 31): a player who lost everything asks the
house for chips, gets exactly `relief.amount`, once per `relief.every_hours`,
never twice for one period however the claim is repeated, and never while
chips are still held at a table. The wait is wall time: tests move
`app.wall_clock` instead of sleeping."""
from __future__ import annotations

import asyncio
import logging
import re
import time

import pytest
from support.telnet import Client, login, plain

from server.commands.dispatch import dispatch
from server.commands.relief import relief_key, relief_period
from server.config.model import Relief
from server.ledger import Balance, check

DAY = 24 * 3600


def relief_events(caplog) -> list[dict]:
    return [r.fields for r in caplog.records if getattr(r, "fields", {}).get("event") == "relief"]


async def broke_after_a_field_bet(app, name: str) -> Client:
    """A player of `starting_chips` 5 who bets all 5 on the field at bank craps
    and loses them (seed 1's first roll is a 5, 6, 7 or 8)."""
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    await c.cmd_expect("bet field 5", "Your bets")
    await c.cmd_expect("roll", "Settlement")
    assert await app.ledger.balance(name) == Balance(0, {})
    return c


@pytest.mark.both_stores
async def test_a_player_who_lost_everything_gets_relief_once_a_day(casino_factory, caplog):
    app = await casino_factory(seed=1, starting_chips=5)
    c = await broke_after_a_field_bet(app, "stan")
    with caplog.at_level(logging.INFO):
        out = plain(await c.cmd("relief"))
    assert "The house gives you 100 chips of relief. Next relief: in 24 hours at the soonest." in out
    assert await app.ledger.balance("stan") == Balance(100, {})
    [event] = relief_events(caplog)
    assert event["name"] == "stan" and event["amount"] == 100
    assert event["period"] == relief_period(24, app.wall_clock())
    assert "relief" in plain(await c.cmd("statement 1"))

    again = plain(await c.cmd("relief"))
    line = next(x for x in again.splitlines() if "Relief" in x)
    assert re.fullmatch(r"Relief was claimed less than a minute ago; the next is yours in 24h"
                        r" \(at \d{4}-\d\d-\d\d \d\d:\d\d UTC\)\.", line), line
    assert await app.ledger.balance("stan") == Balance(100, {})
    await c.close()


async def test_the_wait_is_rolling_and_a_day_later_a_broke_player_is_paid_again(casino_factory):
    app = await casino_factory(seed=1, starting_chips=0)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "rae")
    assert "gives you 100 chips" in plain(await c.cmd("relief"))
    # lose the relief at bank craps (seed 1's first roll loses the field)
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    await c.cmd_expect("bet field 100", "Your bets")
    await c.cmd_expect("roll", "Settlement")
    assert await app.ledger.balance("rae") == Balance(0, {})

    start = time.time()
    app.wall_clock = lambda: start + 3 * 3600 + 10 * 60
    out = plain(await c.cmd("relief"))
    assert re.search(r"Relief was claimed 3h 1\dm ago; the next is yours in 20h [45]\dm \(at ", out), out
    app.wall_clock = lambda: start + DAY - 60
    assert "the next is yours in 1m (at " in plain(await c.cmd("relief"))   # a wait rounds up
    assert await app.ledger.balance("rae") == Balance(0, {})
    app.wall_clock = lambda: start + DAY + 1
    assert "The house gives you 100 chips of relief." in plain(await c.cmd("relief"))
    assert await app.ledger.balance("rae") == Balance(100, {})
    await c.close()


async def test_chips_held_at_a_table_count_and_the_refusal_says_so(casino_factory):
    app = await casino_factory(seed=1, starting_chips=5)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "hal")
    assert ("You still have 5 chips in your wallet: relief is for players below 1 chip, the smallest bet here."
            in plain(await c.cmd("relief")))
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    await c.cmd_expect("bet pass 5", "Your bets")           # wallet 0, 5 riding on the pass line
    out = plain(await c.cmd("relief"))
    assert ("You still have 5 chips (0 in your wallet, 5 at tables): relief is for players below 1 chip,"
            " the smallest bet here.") in out
    assert await app.ledger.balance("hal") == Balance(0, {"bank_craps": 5})
    assert "takes nothing after it" in plain(await c.cmd("relief please"))
    await c.close()


async def test_two_claims_at_once_pay_once_and_the_second_is_told(casino_factory):
    app = await casino_factory(starting_chips=0)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "twin")
    session = app.online["twin"]
    await asyncio.gather(dispatch(app, session, "relief"), dispatch(app, session, "relief"),
                         dispatch(app, session, "relief"))
    out = plain(await c.cmd_expect("balance", "Wallet:"))
    assert out.count("The house gives you 100 chips of relief.") == 1
    assert out.count("Relief was claimed less than a minute ago") == 2
    assert "Wallet: 100 chips." in out
    report = check(app.database)
    assert report.ok and report.minted == 100
    await c.close()


async def test_a_claim_whose_reply_was_lost_is_not_paid_again(casino_factory):
    """The mint committed, then the server fell over before answering: the
    retry finds it in the ledger, and the same key could not mint again."""
    app = await casino_factory(starting_chips=0)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "lost")
    now = app.wall_clock()
    key = relief_key("lost", 24, relief_period(24, now))
    await app.ledger.mint(key, "lost", 100, "relief")        # the first claim's mint
    out = plain(await c.cmd("relief"))
    assert "Relief was claimed less than a minute ago" in out
    await app.ledger.mint(key, "lost", 100, "relief")        # a retry of that very mint
    assert await app.ledger.balance("lost") == Balance(100, {})
    await c.close()


async def test_the_operator_chooses_amount_and_wait(casino_factory):
    app = await casino_factory(starting_chips=0, relief=Relief(amount=250, every_hours=1))
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "opt")
    assert ("The house gives you 250 chips of relief. Next relief: in 1 hour at the soonest."
            in plain(await c.cmd("relief")))
    assert "the next is yours in 1h (at " in plain(await c.cmd("relief"))
    assert await app.ledger.balance("opt") == Balance(250, {})
    await c.close()


async def test_help_lists_relief(casino_factory):
    app = await casino_factory()
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "helga")
    assert "relief" in plain(await c.cmd("help"))
    detail = plain(await c.cmd("help relief"))
    assert "smallest bet" in detail and "once a day" in detail
    await c.close()


async def test_a_gmcp_client_sees_its_wallet_after_relief(casino_factory):
    import telnetlib3

    class Scripting(telnetlib3.TelnetClient):
        def __init__(self, *args, **kwargs):
            kwargs.setdefault("gmcp_modules", ["Char 1"])
            super().__init__(*args, **kwargs)
            self.statuses: list[object] = []

        def on_gmcp(self, package, data):
            super().on_gmcp(package, data)
            if package == "Char.Status":
                self.statuses.append(data)

    async def until(reader, text: str) -> None:
        seen = ""
        while text not in seen:
            chunk = await asyncio.wait_for(reader.read(65536), 10)
            assert chunk, "closed"
            seen += chunk

    app = await casino_factory(starting_chips=0)
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", app.port, client_factory=Scripting, connect_minwait=0.05,
        connect_maxwait=1.0, encoding="utf8")
    try:
        await until(reader, "Name:")
        writer.write("create gus secret123\r\n")
        await until(reader, "Exits:")
        statuses = writer.protocol.statuses
        assert statuses[-1]["wallet"] == 0
        seen = len(statuses)
        writer.write("relief\r\n")
        await until(reader, "of relief")
        while len(statuses) == seen:    # the status follows the text: read on until it has come
            await asyncio.wait_for(reader.read(65536), 10)
        assert statuses[-1] == {"name": "gus", "wallet": 100, "held": 0, "held_at": {}}
    finally:
        writer.close()

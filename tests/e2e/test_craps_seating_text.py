"""What bank craps tells people when they come, go or the casino closes
(issue 28 item 11), over real telnet: one "has gone" for a drop, the
forfeit told to the player at their next login, a player sitting down mid-hand
told who shoots and where the hand stands, and an itemised refund at shutdown.
"""
from __future__ import annotations

import re

import pytest
from support.telnet import Client, login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

FAST = {"commands_per_second": 1000}


async def seat(app, name: str, create: bool = True) -> tuple[Client, str]:
    """Log in, walk north to bank craps and `play craps`; the client and the reply."""
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name, create=create)
    await c.cmd("north")
    return c, plain(await c.cmd("play craps"))


async def disconnect(app, c: Client, name: str) -> None:
    await c.close()
    async with app.presence:
        await app.presence.wait_for(lambda: name.lower() not in app.online)


async def roll_until_point(c: Client) -> int:
    for _ in range(30):
        await c.cmd_expect("bet pass 10", "Your bets")
        point = re.search(r"The point is (\d+)", plain(await c.cmd_expect("roll", " = ")))
        if point:
            return int(point.group(1))
    raise AssertionError("no point was set in 30 come-out rolls")


async def test_a_drop_is_told_once_and_its_forfeit_at_the_next_login(casino_factory):
    app = await casino_factory(seed=4242, limits=FAST)
    ann, _ = await seat(app, "Ann")
    bob, _ = await seat(app, "Bob")
    await bob.cmd_expect("bet pass 10", "Your bets")            # a contract: live until decided
    await ann.cmd_expect("look", "Exits:")
    await disconnect(app, bob, "bob")
    told = plain(await ann.cmd_expect("look", "Exits:"))
    assert told.count("has gone") == 1, told
    assert "Bob's live bets are forfeit." in told
    assert (await app.ledger.balance("bob")).wallet == 990
    back = await Client.open(app.port, ttype="dumb")
    seen = plain(await login(back, "Bob", create=False))
    assert "Notice: You dropped from bank_craps with live bets: pass 10 (10 chips) were forfeit" in seen


async def test_sitting_down_mid_hand_says_who_shoots_and_the_point(casino_factory):
    app = await casino_factory(seed=4242, limits=FAST)
    ann, _ = await seat(app, "Ann")
    point = await roll_until_point(ann)
    _, welcome = await seat(app, "Cat")
    assert f"Ann has the dice; the point is {point}." in " ".join(welcome.split())


async def test_shutdown_itemises_each_players_refund(casino_factory):
    app = await casino_factory(seed=4242, limits=FAST)
    ann, _ = await seat(app, "Ann")
    await ann.cmd_expect("bet pass 10", "Your bets")
    await ann.cmd_expect("bet place 6 12", "Your bets")
    await app.stop("Closing for the test.")
    text = " ".join(plain(await ann.read_until_closed()).split())
    assert "Refunded to your wallet: pass 10, place6 12." in text

"""A command's own reply comes before anything that happened at the table
after it was typed (issue 38, item 16): a game word takes its place in the
table's queue as it is typed, and reads the wallet when its turn comes.

The wallet read is held open by a gate while the betting window's last call
falls due, so the tick is queued while the word is still being handled: the
word's reply must still come first on the player's screen.
"""
from __future__ import annotations

import asyncio

from support.telnet import Client, login, plain

from server.ledger import check

SEED = 7


async def seated(app, name):
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    return c


async def test_a_word_s_reply_comes_before_a_last_call_that_fell_due_while_it_was_handled(casino_factory):
    app = await casino_factory(seed=SEED)
    table = app.tables["bank_craps"]
    ann, bob = await seated(app, "ann"), await seated(app, "bob")
    await ann.cmd_expect("bet pass 10", "Your bets")     # two seated: the betting window runs
    await table.idle()
    ledger = app.ledger
    balance = ledger.balance
    gate, reading = asyncio.Event(), asyncio.Event()

    async def held(key):                                 # the next wallet read waits for the gate
        ledger.balance = balance
        reading.set()
        await gate.wait()
        return await balance(key)

    ledger.balance = held
    ann.take_text()
    await ann.send("bets")
    await asyncio.wait_for(reading.wait(), 10)           # the word is being handled
    app.manager.tick_elapsed(app.manager.seconds(7))     # ...when the last call falls due
    gate.set()
    await table.idle()
    text = plain(await ann.expect("Last call"))
    assert text.index("pass 10") < text.index("Last call"), text
    for c in (ann, bob):
        await c.close()
    report = check(app.database)                         # the ledger's invariants hold
    assert report.ok and report.open_holds == 1, report  # ann's pass line, still live

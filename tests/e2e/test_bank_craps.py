"""Bank craps in room 6185 with three real telnet clients and seeded dice."""
from __future__ import annotations

import re

import pytest

from support.telnet import Client, login, plain

pytestmark = pytest.mark.both_stores      # the same game, on SQLite and on PostgreSQL

SEED = 4242


async def seated(app, name):
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    await c.cmd("north")
    out = await c.cmd_expect("play craps", "joins the table")
    return c, plain(out)


async def drain(*clients):
    """Read whatever each client has been sent so far (up to its last prompt)."""
    for c in clients:
        c.take_text()


async def test_three_players_bet_roll_settle_and_the_ledger_balances(casino_factory):
    app = await casino_factory(seed=SEED)
    host = app.tables["bank_craps"]
    ann, out = await seated(app, "ann")
    assert "You have the dice" in out
    bob, _ = await seated(app, "bob")
    cat, _ = await seated(app, "cat")

    # Refusals, each a one-line reason that changes nothing.
    assert "table maximum is 10000" in await bob.cmd_expect("bet field 20000", "Refused")
    assert "multiples of 6" in await bob.cmd_expect("bet place 6 10", "Refused")
    assert "waits for a point" in await bob.cmd_expect("bet come 5", "Refused")
    assert "Refused" in plain(await bob.cmd_expect("bet pass lots", "Refused"))

    # Bets from everyone; a removable one comes down again with unbet.
    assert "Bet accepted: pass 10." in plain(await ann.cmd_expect("bet pass 10", "Your bets"))
    await ann.cmd_expect("bet fire 1", "Your bets")
    await bob.cmd_expect("bet dontpass 10", "Your bets")
    await bob.cmd_expect("bet field 5", "Your bets")
    out = plain(await bob.cmd_expect("unbet field", "Taken down"))
    assert "Taken down: field, 5 back" in out
    await cat.cmd_expect("bet pass 6", "Your bets")
    out = plain(await cat.cmd_expect("unbet pass", "Refused"))
    assert "contract" in out
    # A roll typed in the window is kept and thrown when it closes (issue 38 item 6).
    assert "Your roll is kept" in plain(await ann.cmd_expect("roll", "Your roll is kept"))
    app.manager.tick_elapsed(app.manager.seconds(10))
    await host.idle()
    await ann.expect(" = ")
    out = plain(await bob.cmd_expect("bet fire 1", "Refused"))
    assert "only before the first roll of a shooter hand" in out       # bonus timing

    # Play roll after roll (each window ticked through) until a point is made and a seven-out.
    clients = {"ann": ann, "bob": bob, "cat": cat}
    seen = ""
    for _ in range(200):
        shooter = host.dealer.shooter()
        client = clients[shooter]
        if not host.dealer.state.wagers:
            await client.cmd_expect("bet pass 5", "Your bets")
        app.manager.tick_elapsed(app.manager.seconds(10))
        await host.idle()
        seen += plain(await client.cmd_expect("roll", " = "))
        if "is made" in seen and "Seven out" in seen:
            break
    assert "is made" in seen and "Seven out" in seen
    # Everyone at the table (and a spectator) sees the rolls and settlements are consolidated.
    everyone = plain(ann.take_text() + bob.take_text() + cat.take_text())
    assert re.search(r"Settlement: .*net [+-]\d+\.", seen + everyone)
    for c in (ann, bob, cat):
        await c.close()


async def test_spectator_sees_rolls_and_last_call(casino_factory):
    app = await casino_factory(seed=SEED)
    host = app.tables["bank_craps"]
    ann, _ = await seated(app, "dan")
    bob, _ = await seated(app, "eve")
    spy = await Client.open(app.port, ttype="dumb")
    await login(spy, "fay")
    await spy.cmd("north")
    assert "You watch bank_craps" in await spy.cmd("watch craps")
    await ann.cmd_expect("bet pass 10", "Your bets")
    app.manager.tick_elapsed(app.manager.seconds(7))
    await host.idle()
    assert "Last call! 3 seconds" in plain(await spy.expect("Last call"))
    app.manager.tick_elapsed(app.manager.seconds(3))
    await host.idle()
    await ann.cmd_expect("roll", " = ")
    assert "dan rolls" in plain(await spy.expect("dan rolls"))


async def test_table_art_and_help(casino_factory):
    app = await casino_factory(seed=SEED)
    ann, _ = await seated(app, "gus")
    art = plain(await ann.cmd("table"))
    assert "bank_craps" in art and "PASS LINE" in art and "FIRE" in art and "Commands:" in art
    assert all(len(line) <= 80 for line in art.splitlines())
    rules = plain(await ann.cmd("table rules"))
    assert "Fire" in rules and "175:1" in rules
    helped = plain(await ann.cmd("help craps"))
    assert "unbet" in helped and "bet hop <A> <B> <n>" in helped and "9:5 on 4/10" in helped


async def test_disconnect_forfeits_and_shutdown_refunds(casino_factory):
    app = await casino_factory(seed=SEED)
    ann, _ = await seated(app, "hal")
    bob, _ = await seated(app, "ivy")
    await ann.cmd_expect("bet pass 10", "Your bets")
    await bob.cmd_expect("bet dontpass 25", "Your bets")
    await ann.close()
    async with app.presence:
        await app.presence.wait_for(lambda: "hal" not in app.online)
    assert (await app.ledger.balance("hal")).wallet == 990
    assert not any((await app.ledger.balance("hal")).held.values())
    assert (await app.ledger.balance("ivy")).wallet == 975
    await app.stop("Closing for the test.")
    text = plain(await bob.read_until_closed())
    assert "refunded" in text or "Closing for the test" in text


async def test_failed_settlement_shows_pending_recovery_then_pays_once(casino_factory):
    app = await casino_factory(seed=SEED)
    host = app.tables["bank_craps"]
    ann, _ = await seated(app, "kim")
    await ann.cmd_expect("bet pass 10", "Your bets")
    app.ledger.fail_next_commits(1)            # the next write (the settlement) fails
    out = ""
    for _ in range(50):
        out = plain(await ann.cmd_expect("roll", " = "))
        if "pending recovery" in out:
            break
    assert "pending recovery" in out
    assert "paid" not in out.split("pending recovery")[0][-200:]
    bal = await app.ledger.balance("kim")
    assert bal.held == {"bank_craps": 10} and bal.wallet == 990     # the stake stays held
    assert len(host.pending) == 1
    app.manager.tick_elapsed(app.manager.seconds(2))                 # the host retries
    await host.idle()
    assert "now been recorded" in plain(await ann.expect("now been recorded"))
    assert host.pending == []
    bal = await app.ledger.balance("kim")
    assert not any(bal.held.values()) and bal.wallet in (990, 1010)   # lost or won, once
    app.manager.tick_elapsed(app.manager.seconds(10))                # nothing is paid twice
    await host.idle()
    assert (await app.ledger.balance("kim")).wallet == bal.wallet


async def test_quit_with_live_bets_warns_first(casino_factory):
    app = await casino_factory(seed=SEED)
    ann, _ = await seated(app, "lou")
    await ann.cmd_expect("bet pass 10", "Your bets")
    assert "leaving now forfeits them" in plain(await ann.cmd("quit"))
    await ann.send("quit")
    assert "Goodbye" in await ann.read_until_closed()
    async with app.presence:
        await app.presence.wait_for(lambda: "lou" not in app.online)
    assert (await app.ledger.balance("lou")).wallet == 990


async def test_tables_show_display_names_and_the_ledger_keys_ignore_case(casino_factory):
    app = await casino_factory(seed=SEED)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "MaryAnn")
    await c.cmd("north")
    assert "MaryAnn joins the table." in plain(await c.cmd_expect("play craps", "joins the table"))
    await c.cmd_expect("bet pass 10", "Your bets")
    assert "Shooter: MaryAnn." in plain(await c.cmd("table"))
    bal = await app.ledger.balance("maryann")
    assert bal.wallet == 990 and bal.held == {"bank_craps": 10}
    out = plain(await c.cmd_expect("roll", " = "))
    assert "You roll" in out


async def test_cents_returned_are_a_sentence_of_their_own(casino_factory):
    """Issue 28 item 12: '0.50 returned, your wager is 10.' ends with its full
    stop before 'Bet accepted', as at roulette and simplified craps."""
    app = await casino_factory(limits={"commands_per_second": 1000})
    c, _ = await seated(app, "cyra")
    out = plain(await c.cmd("bet pass 10.50"))
    assert "0.50 returned, your wager is 10.\r\nBet accepted: pass 10." in out, out

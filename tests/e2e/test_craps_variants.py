"""Each craps variant in room 6184 (west of bank craps) over real telnet:
alone, then with a second player: the window and last call, the dealer's
roll, autoroll and stop, sitout, leave, a disconnect that forfeits and a
shutdown that refunds. The fixture checks the ledger after each test."""
from __future__ import annotations

import pytest

from support.telnet import Client, login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

SEED = 4242
VARIANTS = [
    # table, play word, what a roll is called, a bet only this table refuses
    ("crapless_craps", "crapless", "roll", ("bet dontpass 10", "Crapless craps has no don't pass")),
    ("new_york_craps", "newyork", "roll", ("bet place 6 12", "New York craps has no place")),
    ("diceless_craps", "diceless", "deal", ("bet hop 2 3 5", None)),
]


async def sit_out_leave_and_return(host, o, other: str, word: str) -> None:
    """`sitout`, `play` back, `leave`, `play` again: each at once when the
    player has no live bets (with live bets they wait, as other tests show)."""
    if host.dealer.has_live_bets(other):
        return
    await o.cmd_expect("sitout", "You sit out")
    await host.idle()
    assert other not in host.dealer.seating.active()
    await o.cmd_expect(f"play {word}", "You are back")
    await host.idle()
    await o.cmd_expect("leave", "You leave")
    await host.idle()
    assert other not in host.dealer.seating.names()
    await o.cmd_expect(f"play {word}", "joins the table")


async def arrive(app, name):
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    await c.cmd("north")
    return c, plain(await c.cmd("west"))


async def tick(app, host, seconds):
    app.manager.tick_elapsed(app.manager.seconds(seconds))
    await host.idle()


@pytest.mark.parametrize("table_id, word, roll, refused", VARIANTS)
async def test_a_variant_alone_and_with_two_players(casino_factory, table_id, word, roll, refused):
    app = await casino_factory(seed=SEED)
    host = app.tables[table_id]
    ann, room = await arrive(app, "ann")
    assert "Craps Variants" in room and table_id in room and f"play {word}" in room
    assert "joins the table" in plain(await ann.cmd_expect(f"play {word}", "joins the table"))
    words, reason = refused
    out = plain(await ann.cmd_expect(words, "Your bets" if reason is None else "Refused"))
    if reason:
        assert reason in out and "Bets here:" in out
    # Alone: no window, the roll comes at once.
    await ann.cmd_expect("bet field 5", "Your bets")
    out = plain(await ann.cmd_expect("roll", " = "))
    assert (f"You {roll}:" in out) and "Settlement:" in out
    assert table_id in plain(await ann.cmd("table"))
    assert "plain words" not in plain(await ann.cmd("table rules")) and word in plain(await ann.cmd(f"help {word}"))

    # Two players: a window with a last call, then the shooter's deadline and the dealer's roll.
    bob, _ = await arrive(app, "bob")
    await bob.cmd_expect(f"play {word}", "joins the table")
    await bob.cmd_expect("bet field 5", "Your bets")
    shooter = host.dealer.shooter()
    clients = {"ann": ann, "bob": bob}
    await tick(app, host, 7)
    assert "Last call!" in plain(await bob.expect("Last call"))
    await tick(app, host, 3)
    await tick(app, host, 60)
    assert f"The dealer {roll}s for {shooter}." in plain(await bob.expect(f"The dealer {roll}s"))

    # Autoroll, then stop keeps the seat.
    shooter = host.dealer.shooter()
    c = clients[shooter]
    await c.cmd_expect("bet field 5", "Your bets")
    assert "Autoroll on" in plain(await c.cmd_expect("autoroll", "Autoroll"))
    assert "Autoroll off" in plain(await c.cmd_expect("stop", "Autoroll off"))
    assert shooter in host.dealer.seating.names()
    await tick(app, host, 10)
    await c.cmd_expect("roll", " = ")

    # Sitout and leave (no live bets: at once); back again, then a disconnect forfeits.
    other = "bob" if shooter == "ann" else "ann"
    o = clients[other]
    await sit_out_leave_and_return(host, o, other, word)
    before = (await app.ledger.balance(other)).wallet
    await o.cmd_expect("bet field 7", "Your bets")
    await o.close()
    async with app.presence:
        await app.presence.wait_for(lambda: other not in app.online)
    after = await app.ledger.balance(other)
    assert after.wallet == before - 7 and not any(after.held.values())

    # Shutdown refunds what is still down.
    keep = clients[shooter]
    await keep.cmd_expect("bet field 9", "Your bets")
    assert (await app.ledger.balance(shooter)).held == {table_id: 9}
    await app.stop("Closing for the test.")           # the fixture then checks every chip came back
    text = plain(await keep.read_until_closed())
    assert "refunded" in text or "Closing for the test" in text


# High Point and Die Rich: their own bets (High Point's only on the come-out),
# a roll is called by its total or by the one die.
OWN = [
    # table, play word, a bet of n chips, what a roll's call shows, a refused bet and its reason
    ("high_point_craps", "highpoint", "bet high {}", " = ", ("bet field 5", "High Point craps has no field")),
    ("die_rich", "dierich", "bet face 3 {}", "the die shows", ("bet field 5", "Die Rich has no field")),
]


@pytest.mark.parametrize("table_id, word, bet, called, refused", OWN)
async def test_high_point_and_die_rich_alone_and_with_two_players(casino_factory, table_id, word, bet, called,
                                                                  refused):
    # High Point rolls until a bet is decided: many quick commands; the throttle is not under test.
    app = await casino_factory(seed=SEED, limits={"commands_per_second": 1000})
    host = app.tables[table_id]
    state = host.dealer.state
    ann, room = await arrive(app, "ann")
    assert "Craps Variants" in room and table_id in room and f"play {word}" in room
    assert "joins the table" in plain(await ann.cmd_expect(f"play {word}", "joins the table"))
    words, reason = refused
    out = plain(await ann.cmd_expect(words, "Refused"))
    assert reason in out and "Bets here:" in out
    # Alone: no window, every roll at once, until the bet is decided.
    await ann.cmd_expect(bet.format(5), "Your bets")
    out = plain(await ann.cmd_expect("roll", called))
    while host.dealer.has_live_bets("ann"):                        # High Point: the roll after the point decides
        out += plain(await ann.cmd_expect("roll", called))
    assert "You roll:" in out and "Settlement:" in out
    assert table_id in plain(await ann.cmd("table"))
    assert "A win keeps the" in plain(await ann.cmd("table rules"))
    assert word in plain(await ann.cmd(f"help {word}"))
    assert state.point == 0 or table_id == "die_rich"          # High Point: decided means the come-out

    # Two players: a window with a last call, then the shooter's deadline and the dealer's roll.
    bob, _ = await arrive(app, "bob")
    await bob.cmd_expect(f"play {word}", "joins the table")
    await bob.cmd_expect(bet.format(5), "Your bets")
    await ann.cmd_expect(bet.format(5), "Your bets")
    shooter = host.dealer.shooter()
    clients = {"ann": ann, "bob": bob}
    await tick(app, host, 7)
    assert "Last call!" in plain(await bob.expect("Last call"))
    await tick(app, host, 3)
    await tick(app, host, 60)
    assert f"The dealer rolls for {shooter}." in plain(await bob.expect("The dealer rolls"))

    async def come_out(c):
        """High Point takes bets only on the come-out: let the point be decided."""
        while state.point and table_id == "high_point_craps":
            await tick(app, host, 10)
            await clients[host.dealer.shooter()].cmd_expect("roll", called)

    # Autoroll, then stop keeps the seat.
    await come_out(ann)
    shooter = host.dealer.shooter()
    c = clients[shooter]
    if not host.dealer.has_live_bets(shooter):
        await c.cmd_expect(bet.format(5), "Your bets")
    assert "Autoroll on" in plain(await c.cmd_expect("autoroll", "Autoroll"))
    assert "Autoroll off" in plain(await c.cmd_expect("stop", "Autoroll off"))
    assert shooter in host.dealer.seating.names()
    await tick(app, host, 10)
    await c.cmd_expect("roll", called)
    await come_out(c)

    # Sitout and leave (no live bets: at once); back again, then a disconnect forfeits.
    shooter = host.dealer.shooter()
    other = "bob" if shooter == "ann" else "ann"
    o = clients[other]
    await sit_out_leave_and_return(host, o, other, word)
    before = (await app.ledger.balance(other)).wallet
    held = sum((await app.ledger.balance(other)).held.values())
    await o.cmd_expect(bet.format(7), "Your bets")
    await o.close()
    async with app.presence:
        await app.presence.wait_for(lambda: other not in app.online)
    after = await app.ledger.balance(other)
    assert after.wallet == before - 7 and not any(after.held.values()) and held in (0, 5)

    # Shutdown refunds what is still down.
    keep = clients[shooter]
    was = sum((await app.ledger.balance(shooter)).held.values())
    await keep.cmd_expect(bet.format(9), "Your bets")
    assert sum((await app.ledger.balance(shooter)).held.values()) == was + 9
    await app.stop("Closing for the test.")           # the fixture then checks every chip came back
    text = plain(await keep.read_until_closed())
    assert "refunded" in text or "Closing for the test" in text

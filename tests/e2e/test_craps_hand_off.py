"""The shooter's hand-off and the betting window, as the players read them
(issue 38 item 6), over real telnet at bank craps with seeded dice: the next
shooter is told at once when the shooter sits out or leaves, the window's
opening is said to the table, and a `roll` typed in the window is kept and
thrown when it closes."""
from __future__ import annotations

import pytest

from support.telnet import Client, login, plain

SEED = 4242


async def seated(app, name: str, cols: int = 250) -> Client:
    c = await Client.open(app.port, ttype="dumb", cols=cols)
    await login(c, name)
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    return c


async def tick(app, host, seconds: float) -> None:
    app.manager.tick_elapsed(app.manager.seconds(seconds))
    await host.idle()


def fits(text: str, width: int) -> bool:
    return all(len(line) <= width for line in plain(text).splitlines())


def one_line(text: str) -> str:
    return " ".join(plain(text).split())


async def test_the_window_opens_aloud_and_a_roll_typed_in_it_is_kept_until_it_closes(casino_factory):
    """bob's bet opens the window: he reads who rolls, the shooter reads
    "you" and that a `roll` now is kept; ann types `roll` once, bets stay
    open, and the dice fly when the window closes, with no "You may roll
    now" and no dealer. At 40 columns every line fits."""
    app = await casino_factory(seed=SEED)
    host = app.tables["bank_craps"]
    ann = await seated(app, "ann", cols=40)
    bob = await seated(app, "bob")
    await ann.read_until_prompt()                       # "bob joins the table."
    said = await bob.cmd_expect("bet field 5", "Bets are open")
    assert "Bets are open: 10 seconds, then ann rolls." in one_line(said)
    mine = await ann.expect("Bets are open")
    assert "Bets are open: 10 seconds, then you roll. A 'roll' typed now is kept for then." in one_line(mine)
    assert fits(mine, 40)
    out = await ann.cmd("roll")
    assert one_line(out).startswith("Your roll is kept: you roll when bets close, in 10 seconds.")
    assert " = " not in plain(out) and fits(out, 40)
    await tick(app, host, 7)
    assert "Last call!" in plain(await ann.expect("Last call!"))
    await bob.cmd_expect("bet any7 5", "Your bets")     # bets stay open while the roll waits
    await tick(app, host, 3)
    thrown = await ann.expect(" = ")
    assert "You roll:" in plain(thrown) and "You may roll now" not in plain(thrown)
    assert "dealer" not in plain(thrown) and fits(thrown, 40)
    theirs = plain(await bob.expect("Settlement"))
    assert "ann rolls:" in theirs and "ann may roll now" not in theirs
    assert not host.dealer.state.bets_of("bob")          # the roll decided bob's field and any 7


@pytest.mark.parametrize("how,said", [("sitout", "You will sit out once"), ("leave", "You will leave once")])
async def test_the_next_shooter_is_told_at_once_when_the_shooter_gets_up_with_bets_down(casino_factory, how, said):
    """ann's place bet keeps her seated, so her sit-out (or leave) waits; bob
    is the shooter from that moment and reads so at once, before any roll,
    and ann reads who has the dice."""
    app = await casino_factory(seed=SEED)
    host = app.tables["bank_craps"]
    ann = await seated(app, "ann")
    bob = await seated(app, "bob")
    await ann.read_until_prompt()
    await ann.cmd_expect("bet place 6 6", "Your bets")
    await bob.expect("Bets are open")
    out = plain(await ann.cmd(how))
    assert said in out and "bob has the dice." in out
    told = plain(await bob.expect("You have the dice"))
    assert "You have the dice. Bet, then 'roll' (or 'autoroll')." in told and " = " not in told
    assert host.dealer.shooter() == "bob"
    await bob.cmd_expect("bet field 5", "Your bets")
    kept = plain(await bob.cmd("roll"))
    assert "Your roll is kept: you roll when bets close" in kept
    await tick(app, host, 10)
    assert "You roll:" in plain(await bob.expect(" = "))

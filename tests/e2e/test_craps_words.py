"""What a bank craps player reads about `stop`, place bets and help (issue 38,
items 3, 4 and 7), over real telnet with seeded dice."""
from __future__ import annotations

from support.telnet import Client, login, plain

SEED = 4242


async def seated(app, name: str, *path: str, word: str = "craps") -> Client:
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    for step in path or ("north",):
        await c.cmd(step)
    await c.cmd_expect(f"play {word}", "joins the table")
    return c


async def tick(app, host, seconds: float) -> None:
    app.manager.tick_elapsed(app.manager.seconds(seconds))
    await host.idle()


async def test_stop_after_autoroll_ended_by_itself_keeps_the_seat(casino_factory):
    """Autoroll stops by itself once the bets are decided; a `stop` typed
    then says nothing is running and the player stays seated."""
    app = await casino_factory(seed=SEED)
    host = app.tables["bank_craps"]
    ann = await seated(app, "ann")
    await ann.cmd_expect("bet field 5", "Your bets")
    assert "Autoroll on" in plain(await ann.cmd_expect("autoroll", "Autoroll on"))
    await tick(app, host, 3)                       # one roll decides the field bet
    assert "Your bets are done: autoroll stops." in plain(await ann.expect("autoroll stops"))
    out = plain(await ann.cmd("stop"))
    assert "Autoroll is not running, so there is nothing to stop: you keep your seat." in out
    assert "You leave the table." not in out
    assert "ann" in host.dealer.seating.names()
    assert "Seated: ann." in plain(await ann.cmd("table"))
    helped = plain(await ann.cmd("help stop"))
    assert "you keep your seat" in helped and "leave the table once" not in helped
    await ann.cmd_expect("leave", "You leave the table.")
    assert "ann" not in host.dealer.seating.names()

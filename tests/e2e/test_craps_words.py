"""What a bank craps player reads about `stop`, place bets and help (issue 38,
items 3, 4 and 7), over real telnet with seeded dice."""
from __future__ import annotations

import re

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


PLACE_ON = {4: 5, 5: 5, 6: 6, 8: 6, 9: 5, 10: 5}          # each pays whole chips
DOWN = re.compile(r"Place (\d+) paid (\d+) and is down; 'bet place (\d+) (\d+)' puts it back up\.")


async def test_a_place_bet_that_wins_says_it_is_down_and_how_to_put_it_back(casino_factory):
    """Place bets come down after a win: the win's line says so and gives the
    words that put it back up, which work; help and the rules say so too."""
    app = await casino_factory(seed=SEED)
    host = app.tables["bank_craps"]
    ann = await seated(app, "ann")
    state = host.dealer.state
    seen = ""
    for _ in range(40):
        if not state.point:
            if not host.dealer.has_live_bets("ann"):
                await ann.cmd_expect("bet pass 10", "Your bets")
        else:
            placed = {w.bet.number for w in state.bets_of("ann") if w.name.startswith("place")}
            for n, amount in PLACE_ON.items():
                if n not in placed:
                    await ann.cmd_expect(f"bet place {n} {amount}", "Your bets")
        seen = plain(await ann.cmd_expect("roll", " = "))
        if DOWN.search(seen):
            break
    found = DOWN.search(seen)
    assert found, seen
    n, win, again, amount = (int(g) for g in found.groups())
    assert again == n and amount == PLACE_ON[n] and f"place{n} +{win}" in seen
    assert f"place{n}" not in plain(await ann.cmd("bets"))            # it really is down
    assert "Bet accepted: place" in plain(await ann.cmd_expect(f"bet place {n} {amount}", "Your bets"))
    assert f"place{n} {amount}" in plain(await ann.cmd("bets"))
    assert "comes down" in plain(await ann.cmd("help place"))
    assert "comes down (no automatic renewal)" in plain(await ann.cmd("table rules"))


def said(out: str) -> str:
    return " ".join(plain(out).split())


async def test_help_gives_each_variant_examples_of_its_own_bets_and_says_a_topic_once(casino_factory):
    app = await casino_factory(seed=SEED)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "ann")
    for word, shown, absent in (
            ("newyork", "e.g. bet pass 10, bet hop 2 3 5, bet buy 4 25.", ("bet place 6 12",)),
            ("highpoint", "e.g. bet high 10.", ("bet place 6 12", "bet hop 2 3 5", "bet pass 10")),
            ("dierich", "e.g. bet pass 10, bet face 3 5.", ("bet place 6 12", "bet hop 2 3 5")),
            ("craps", "e.g. bet pass 10, bet place 6 12, bet hop 2 3 5.", ())):
        page = said(await c.cmd(f"help {word}"))
        assert shown in page, (word, page)
        assert not any(a in page for a in absent), (word, page)
    field = said(await c.cmd("help field"))
    assert field.count("bet field <n> - one roll") == 1, field
    assert "Bank craps, crapless craps, New York craps and diceless craps: bet field <n>" in field
    autoroll = said(await c.cmd("help autoroll"))
    assert autoroll.count("roll every few seconds") == 1, autoroll
    roll = said(await c.cmd("help roll"))                   # the diceless table deals: its own line
    assert "Diceless craps: roll - as the shooter, deal the cards" in roll
    assert roll.count("as the shooter, roll the dice; typed while bets are open") == 1, roll
    # Seated at High Point, a bad `bet` shows this table's example.
    await c.cmd("north")
    await c.cmd("west")
    await c.cmd_expect("play highpoint", "joins the table")
    assert "e.g. bet high 10" in said(await c.cmd("bet"))


async def test_a_seated_players_help_gives_their_own_tables_figures(casino_factory):
    """Issue 38 item 7: `help field` at bank craps (field_12: 3) says "12
    pays 3:1 here", at crapless craps (field_12: 2) "12 pays 2:1 here", and
    `help odds` the table's odds multiple; away from a table it stays general."""
    app = await casino_factory(seed=SEED)
    assert app.tables["bank_craps"].config.options.field_12 == 3
    assert app.tables["crapless_craps"].config.options.field_12 == 2
    walker = await Client.open(app.port, ttype="dumb")
    await login(walker, "cat")
    general = " ".join(plain(await walker.cmd("help field")).split())
    assert "12 pays 2:1 or 3:1 as the table says" in general and " here" not in general
    ann = await seated(app, "ann")
    field = " ".join(plain(await ann.cmd("help field")).split())
    assert field.startswith("Bank craps, at your table: bet field <n> - one roll:"), field
    assert "2 pays 2:1, 12 pays 3:1 here." in field and "as the table says" not in field
    assert "Crapless" not in field and field.count("bet field") == 1
    odds = " ".join(plain(await ann.cmd("help odds")).split())
    assert "Here: up to 3x on 4 and 10, 4x on 5 and 9, 5x on 6 and 8 taken; 6x the flat bet laid." in odds
    bob = await seated(app, "bob", "north", "west", word="crapless")
    field = " ".join(plain(await bob.cmd("help field")).split())
    assert field.startswith("Crapless craps, at your table:") and "12 pays 2:1 here." in field
    odds = " ".join(plain(await bob.cmd("help odds")).split())
    assert "Here: up to 3x on 2, 3, 4, 10, 11 and 12, 4x on 5 and 9, 5x on 6 and 8." in odds
    await ann.cmd_expect("leave", "You leave the table.")
    assert "as the table says" in " ".join(plain(await ann.cmd("help field")).split())
    for c in (ann, bob, walker):
        await c.cmd("set width 40")
        assert all(len(line) <= 40 for line in plain(await c.cmd("help field")).splitlines())


async def test_a_seated_simplified_players_help_dontpass_gives_the_tables_bar(casino_factory):
    """simple_craps bars 12 (dont_pass_bar: 12): seated, `help dp` says the
    12 pushes here; the same word away from a table keeps the general line."""
    app = await casino_factory(seed=SEED)
    assert app.tables["simple_craps"].config.options.dont_pass_bar == 12
    a = await Client.open(app.port, ttype="dumb")
    await login(a, "dora")
    assert "unless the table says otherwise" in " ".join(plain(await a.cmd("help dp")).split())
    await a.cmd("south")
    await a.cmd("play craps")
    out = " ".join(plain(await a.cmd("help dp")).split())
    assert "Simplified craps, at your table: bet dp <n> - don't pass: the reverse of pass; " \
           "a come-out 12 pushes here (bar 12). Pays 1:1." in out, out
    assert "unless the table says otherwise" not in out

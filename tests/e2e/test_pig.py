"""Pig in the parlour over telnet: a whole game against the computer (its turns
played out by manager ticks at the configured pace), and a staked game among
three players whose antes and pot go through the real ledger."""
from __future__ import annotations

import dataclasses
import re

import pytest
from support.telnet import Client, login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

SEED = 3003
FAST = {"commands_per_second": 1000}   # a whole game is many commands; the throttle is not under test


async def in_parlour(app, name: str, *already: Client) -> Client:
    """Log in and walk west to the parlour; those already there see the arrival."""
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    assert "The Pig Parlour" in plain(await c.cmd("west"))
    for other in already:
        await other.expect(f"{name} arrives from the east")
    return c


async def test_a_whole_game_against_the_computer(casino_factory):
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["pig"]
    spy = await in_parlour(app, "watcher")
    assert "You watch pig" in await spy.cmd("watch pig")
    amanda = await in_parlour(app, "amanda", spy)
    assert "Type 'start' to play the computer" in plain(await amanda.cmd("play pig"))
    assert "start - begin a game of Pig" in plain(await amanda.cmd("help pig"))
    assert "Double 1s (snake eyes)" in plain(await amanda.cmd("table rules"))
    seen = plain(await amanda.cmd("start"))
    assert "Welcome to the game of Pig. First to 100 wins." in seen
    assert re.search(r"^amanda: 0\r?$", seen, re.MULTILINE) and "Your turn: 'roll' or 'hold'" in seen
    out = plain(await amanda.cmd("roll"))
    seen += out
    assert re.search(r"\d, \d Current Round Score: \d+", out)
    view = plain(await amanda.cmd("table"))
    on_turn = host.dealer.game.current            # a first roll with a 1 passes the dice
    assert "Game 1, round" in view and re.search(rf"> {on_turn} +\d+  on turn", view)

    pace = app.manager.seconds(host.dealer.options.computer_pace)
    computer_rolls = 0
    for _ in range(3000):
        if host.dealer.phase() != "playing":
            break
        game = host.dealer.game
        if game.current == "amanda":
            seen += plain(await amanda.cmd("roll" if game.round_score < 20 else "hold"))
        else:                       # the computer rolls once per pace, shown as it happens
            app.manager.tick_elapsed(pace)
            await host.idle()
            seen += plain(await amanda.read_until_prompt())
            computer_rolls += 1
    assert host.dealer.phase() == "waiting" and computer_rolls > 0
    if "Wallet:" not in seen:
        seen += plain(await amanda.expect("Wallet:"))
    winner = re.search(r"^(amanda|computer) wins!", seen, re.MULTILINE)
    rounds = re.search(r"^(\d+) rounds", seen, re.MULTILINE)
    assert winner and rounds and int(rounds.group(1)) == host.dealer.last.rounds
    assert f"{winner.group(1)}: {host.dealer.last.score}" in seen
    assert re.search(r"^computer: \d+\r?$", seen, re.MULTILINE)
    assert "Wallet: 1000 chips." in seen                 # no stake against the computer
    # The spectator saw the same game; the dice rotated, so its rolls can be verified.
    assert f"{winner.group(1)} wins!" in plain(await spy.expect(" rounds"))
    assert "Revealed server seeds" in plain(await amanda.cmd("fair"))
    assert "Last game:" in plain(await amanda.cmd("table"))


async def test_a_staked_game_among_three_players_pays_the_pot(casino_factory):
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["pig"]
    # The shipped table has no stake: give this one an ante of 50, first to 30.
    cfg = host.dealer.config
    cfg = dataclasses.replace(cfg, options=dataclasses.replace(cfg.options, stake=50, target=30))
    host.install(cfg)

    ann = await in_parlour(app, "ann")
    bob = await in_parlour(app, "bob", ann)
    cat = await in_parlour(app, "cat", ann, bob)
    clients = {"ann": ann, "bob": bob, "cat": cat}
    for i, (name, c) in enumerate(clients.items()):
        assert "ante of 50 chips" in plain(await c.cmd("play pig"))
        for other in list(clients.values())[:i]:
            await other.expect(f"{name} sits down")
    seen = {name: "" for name in clients}

    async def act(name: str, line: str) -> None:
        seen[name] += plain(await clients[name].cmd(line))
        for other, c in clients.items():
            if other != name:
                seen[other] += plain(await c.read_until_prompt())

    await act("cat", "start")
    assert all("Each player antes 50 chips: the pot is 150" in s for s in seen.values())
    assert (await app.ledger.balance("ann")).held == {"pig": 50}
    assert "It is ann's turn." in plain(await bob.cmd("roll"))

    # ann idles past the turn deadline: she holds, and everyone sees it.
    app.manager.tick_elapsed(app.manager.seconds(host.dealer.options.turn_deadline))
    await host.idle()
    for name, c in clients.items():
        seen[name] += plain(await c.read_until_prompt())
    assert "Time is up: you hold." in seen["ann"] and "Time is up: ann holds." in seen["bob"]

    for _ in range(500):
        if host.dealer.phase() != "playing":
            break
        game = host.dealer.game
        await act(game.current, "roll" if game.round_score < 12 else "hold")
    assert host.dealer.phase() == "waiting"
    winner = host.dealer.last.winner
    for name, c in clients.items():
        if "Wallet:" not in seen[name]:
            seen[name] += plain(await c.expect("Wallet:"))
        assert f"{winner} wins!" in seen[name] and f"{winner} takes the pot of 150 chips." in seen[name]
        expected = 1100 if name == winner else 950
        assert f"Wallet: {expected} chips." in seen[name]
        assert (await app.ledger.balance(name)).wallet == expected
    # The fixture checks the ledger's invariants after the test.


async def test_a_dropped_connection_leaves_the_game_and_the_other_player_wins(casino_factory):
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["pig"]
    ann = await in_parlour(app, "ann")
    bob = await in_parlour(app, "bob", ann)
    await ann.cmd("play pig")
    await bob.cmd("play pig")
    await ann.expect("bob sits down")
    assert "Turn order: ann, bob." in plain(await bob.cmd_expect("start", "Turn order"))
    await ann.expect("Turn order")
    await bob.close()                               # a disconnect is a leave
    out = plain(await ann.expect("Wallet: 1000 chips."))
    assert "bob has left the game." in out and "ann wins! Everyone else has left the game." in out
    assert "\n1 round\r\n" in out and host.dealer.phase() == "waiting" and host.seating.names() == ["ann"]


async def test_every_roll_and_hold_says_whose_it_is_the_computers_too(casino_factory):
    """Issue 28 item 5: the computer's rolls are not bare dice and its holds are announced."""
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["pig"]
    spy = await in_parlour(app, "watcher")
    await spy.cmd("watch pig")
    amanda = await in_parlour(app, "amanda", spy)
    await amanda.cmd("play pig")
    seen = plain(await amanda.cmd("start"))
    pace = app.manager.seconds(host.dealer.options.computer_pace)
    for _ in range(3000):
        if host.dealer.phase() != "playing":
            break
        game = host.dealer.game
        if game.current == "amanda":
            seen += plain(await amanda.cmd("roll" if game.round_score < 12 else "hold"))
        else:
            app.manager.tick_elapsed(pace)
            await host.idle()
            seen += plain(await amanda.read_until_prompt())
    watched = plain(await spy.expect("wins!")).replace("\r", "")
    seen = seen.replace("\r", "")
    lines = [x.removeprefix("> ") for x in seen.replace("\r", "").split("\n")]
    for i, line in enumerate(lines):                 # every roll line follows whose roll it is
        if re.match(r"\d, \d Current Round Score", line):
            before = [x for x in lines[:i] if x.strip() and not x.startswith(" ")]     # the dice art is indented
            assert before[-1] in ("You roll:", "computer rolls:"), lines[max(0, i - 8):i + 1]
    assert "You roll:" in lines and "computer rolls:" in lines
    assert re.search(r"^(> )?You hold, banking \d+\.$", seen, re.MULTILINE), seen
    assert re.search(r"^(> )?computer holds, banking \d+\.$", seen, re.MULTILINE), "\n".join(x for x in lines if "computer" in x or "hold" in x)
    assert re.search(r"^(> )?amanda rolls:$", watched, re.MULTILINE)
    assert re.search(r"^(> )?amanda holds, banking \d+\.$", watched, re.MULTILINE)

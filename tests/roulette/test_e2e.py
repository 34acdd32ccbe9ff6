"""Roulette in room 6186 over real telnet: one player, several at once, a
watcher, leaving and dropping with bets riding, fairness checked from what
`fair` printed, and a shutdown. A real server and SQLite file (the fixture
checks the ledger afterwards); time moves only with `tick_elapsed`."""
from __future__ import annotations

import re

import pytest

from support.telnet import Client, login, plain

from server.cli import main

pytestmark = pytest.mark.both_stores      # the same game, on SQLite and on PostgreSQL

FAST = {"commands_per_second": 1000}
WINDOW, SPIN = 20, 3                      # the shipped table's seconds
CALLED = re.compile(r"Spin (\d+): ((\d+) (?:green|red|black)[^.]*)\.")


async def arrive(app, name: str, create: bool = True) -> Client:
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name, create=create)
    await c.cmd("north")
    await c.cmd("east")
    return c


async def seated(app, name: str) -> Client:
    c = await arrive(app, name)
    await c.cmd_expect("play roulette", "Welcome to roulette")
    return c


async def tick(app, seconds: float) -> None:
    app.manager.tick_elapsed(app.manager.seconds(seconds))
    await app.tables["roulette"].idle()


async def wallet(app, name: str) -> int:
    return (await app.ledger.balance(name)).wallet


async def test_one_player_walks_east_sits_bets_in_every_form_and_spins(casino_factory):
    app = await casino_factory(seed=11, limits=FAST)
    ann = await arrive(app, "ann")
    room = plain(await ann.cmd("look"))
    assert "Single-Zero Roulette" in room and "opens another night" not in room and "dust cover" not in room
    assert "A single-zero roulette table is here (roulette): 'play roulette' to sit." in room
    helped = plain(await ann.cmd("help roulette"))
    assert "Single-zero roulette (Single-Zero Roulette):" in helped
    assert "bet corner A B <n> - four numbers that meet" in helped and "unbet <number|name|all>" in helped
    assert "Pays 8:1." in plain(await ann.cmd("help corner"))
    assert "Welcome to roulette: single-zero roulette, bets from 1 to 10000" in plain(
        await ann.cmd_expect("play roulette", "Welcome"))
    forms = ["straight 17 10", "split 17 20 5", "street 13 5", "corner 17 21 5", "corner 17 18 20 21 5",
             "sixline 13 5", "split 0 1 5", "trio 0 1 2 5", "firstfour 5", "red 10", "black 10", "odd 10",
             "even 10", "low 10", "high 10", "dozen 2 10", "column 3 10"]
    for form in forms:
        out = plain(await ann.cmd_expect(f"bet {form}", "Your bets"))
        assert "Bet accepted:" in out, form
    assert "17 and 22 are not next to each other on the layout; a split is two numbers side by side, " \
           "e.g. split 17 20 or split 17 18" in plain(await ann.cmd("bet split 17 22 5"))
    staked = 10 + 5 * 8 + 10 * 8
    assert await wallet(app, "ann") == 1000 - staked                  # a hold per bet
    listed = plain(await ann.cmd("bets"))
    assert "1) straight 17 10" in listed and "17) column 3 10" in listed
    out = plain(await ann.cmd("unbet 2"))
    assert "Taken down: split 17 20, 5 back to your wallet." in out
    out = plain(await ann.cmd("unbet black"))
    assert "Taken down: black, 10 back" in out
    staked -= 15
    await ann.cmd("set width 60")
    board = plain(await ann.cmd("table"))
    assert "single-zero roulette" in board and "| 0 |" in board and "2:1|" in board
    assert all(len(line) <= 60 for line in board.splitlines())
    assert "Last 20: none yet" in board
    rules = plain(await ann.cmd("table rules"))
    assert "35:1" in rules and "No more bets" in rules
    out = plain(await ann.cmd("spin"))
    assert "No more bets! The ball is spinning." in out
    assert "no more bets" in plain(await ann.cmd("bet red 5"))
    await tick(app, SPIN)
    out = plain(await ann.expect("Settlement"))
    spin, call, pocket = CALLED.search(out).groups()
    assert spin == "1" and call.startswith(pocket)
    assert out.count("Settlement, spin 1:") == 1                     # one consolidated settlement
    net = int(re.search(r"net ([+-]\d+)", out.split("Settlement")[1]).group(1))
    assert "back to your wallet" not in out.split("Settlement")[1]   # shown before the ledger wrote it
    assert await wallet(app, "ann") == 1000 + net
    assert f"Last 20: {pocket}" in plain(await ann.cmd("table"))
    out = plain(await ann.cmd_expect("leave", "leave the table"))
    assert "ride" not in out


async def test_several_players_and_a_watcher_with_the_round_driven_by_ticks(casino_factory):
    app = await casino_factory(seed=12, limits=FAST)
    ann, bob, cat = [await seated(app, n) for n in ("ann", "bob", "cat")]
    zed = await arrive(app, "zed")
    assert "You watch roulette" in plain(await zed.cmd("watch roulette"))
    await ann.cmd_expect("bet red 10", "Your bets")
    await tick(app, 0.1)
    for c in (ann, bob, cat, zed):
        assert "Place your bets: no more bets in 20 seconds." in plain(await c.expect("Place your bets"))
    assert "others are at the wheel" in plain(await ann.cmd("spin"))
    await bob.cmd_expect("bet black 10", "Your bets")
    await cat.cmd_expect("bet straight 0 5", "Your bets")
    await cat.cmd_expect("bet dozen 1 5", "Your bets")
    await tick(app, WINDOW - 5 - 0.1)
    for c in (ann, zed):
        assert "Last call! 5 seconds to place your bets." in plain(await c.expect("Last call"))
    await tick(app, 5)
    for c in (bob, zed):
        assert "No more bets!" in plain(await c.expect("No more bets"))
    await tick(app, SPIN)
    seen = {}
    for name, c in (("ann", ann), ("bob", bob), ("cat", cat)):
        seen[name] = plain(await c.expect("Settlement"))
        assert seen[name].count("Settlement, spin 1:") == 1
    watched = plain(await zed.expect("Spin 1: "))
    assert CALLED.search(watched) and "Settlement" not in watched
    pocket = int(CALLED.search(watched).group(3))
    red, black = ("won 10" in seen["ann"]), ("won 10" in seen["bob"])
    assert red != black or pocket == 0
    for c in (ann, bob, cat):
        await c.close()
    await zed.close()


async def test_leaving_and_dropping_let_the_bets_ride_and_the_players_are_told(casino_factory):
    app = await casino_factory(seed=13, limits=FAST)
    ann, bob, cat = [await seated(app, n) for n in ("ann", "bob", "cat")]
    await ann.cmd_expect("bet red 10", "Your bets")
    await ann.cmd_expect("bet black 10", "Your bets")          # one of them wins unless 0: paid 20
    await cat.cmd_expect("bet odd 10", "Your bets")
    await cat.cmd_expect("bet even 10", "Your bets")
    out = plain(await ann.cmd_expect("leave", "ride on the next spin"))
    assert "You leave the table." in out and "Your 2 bets stay on the layout" in out
    assert "ann left; their 2 bets ride on the next spin." in plain(await bob.expect("ann left"))
    await cat.send("quit")                                       # quits: the bets ride too, no warning
    out = plain(await cat.read_until_closed())
    assert "Goodbye" in out and "forfeit" not in out
    await cat.close()
    async with app.presence:
        await app.presence.wait_for(lambda: "cat" not in app.online)
    assert (await app.ledger.balance("cat")).held == {"roulette": 20}
    await tick(app, WINDOW + SPIN + 0.2)
    told_now = plain(await ann.expect("Notice:"))               # still connected: told at once
    pocket = int(re.search(r"rode on spin 1 after you left: (\d+)", told_now).group(1))
    back = 0 if pocket == 0 else 20
    assert f"Staked 20, paid {back} to your wallet" in told_now
    assert await wallet(app, "ann") == 980 + back
    assert (await app.ledger.balance("cat")).held == {}
    cat = await Client.open(app.port, ttype="dumb")
    again = plain(await login(cat, "cat", create=False))       # told at the next login
    assert re.search(r"Notice: Your bets at roulette rode on spin 1 after you left: \d+ ", again)
    assert f"Staked 20, paid {back} to your wallet (net {back - 20:+d})." in again
    assert f"You have {980 + back} chips." in again
    assert "Notice" not in plain(await cat.cmd("look"))
    again = Client.open(app.port, ttype="dumb")
    await cat.close()
    cat = await again
    assert "Notice" not in plain(await login(cat, "cat", create=False))     # told once
    for c in (ann, bob, cat):
        await c.close()


async def test_fair_shows_the_revealed_seed_and_casino_verify_rederives_the_pocket(casino_factory, capsys):
    app = await casino_factory(seed=14, limits=FAST)
    ann = await seated(app, "ann")
    before = plain(await ann.cmd("fair"))
    assert "Provably fair wheel at table roulette." in before
    committed = re.search(r"commitment \(SHA-256\):\s+([0-9a-f]{64})", before).group(1)
    await ann.cmd("seed my lucky seed")
    await ann.cmd_expect("bet high 10", "Your bets")
    await ann.cmd("spin")
    await tick(app, SPIN)
    pocket = int(CALLED.search(plain(await ann.expect("Settlement"))).group(3))
    after = plain(await ann.cmd("fair"))
    seed = re.search(r"Revealed server seeds, newest first:\s+([0-9a-f]{64})\s+commitment ([0-9a-f]{64})",
                     after)
    assert seed and seed.group(2) == committed                   # the seed committed before the bet
    assert "1 spin(s) (--draw 37): client seed 'my lucky seed' nonce 0" in after
    assert main(["verify", "--server-seed", seed.group(1), "--client-seed", "my lucky seed", "--nonce", "0",
                 "--draw", "37"]) == 0
    out = capsys.readouterr().out
    assert f"commitment (SHA-256 of the server seed): {committed}" in out
    assert f"nonce 0: pocket {pocket}\n" in out
    await ann.close()


async def test_shutdown_refunds_bets_not_yet_spun(casino_factory):
    app = await casino_factory(seed=15, limits=FAST)
    ann = await seated(app, "ann")
    bob = await seated(app, "bob")
    await ann.cmd_expect("bet straight 17 100", "Your bets")
    await bob.cmd_expect("bet red 50", "Your bets")
    await bob.cmd_expect("leave", "ride")
    await tick(app, WINDOW)                                       # no more bets: spinning, not dropped
    assert app.tables["roulette"].dealer.phase() == "no more bets"
    await app.stop("Closing for the test.")
    text = plain(await ann.read_until_closed())
    assert "Refunded to your wallet: straight 17 100." in text
    assert "Notice: Your bets at roulette that rode after you left were refunded" in plain(
        await bob.read_until_closed())


async def test_a_wheel_installed_by_reload_never_reuses_an_earlier_wheels_ledger_keys(casino_factory):
    """The wheel numbers its keys from 1 under the table's id alone; the host's
    install number keeps a reloaded dealer's keys apart from the last one's
    (a repeated key would be a retry that moves nothing)."""
    app = await casino_factory(seed=16, limits=FAST)
    ann = await seated(app, "ann")
    host = app.tables["roulette"]
    await ann.cmd_expect("bet red 10", "Your bets")            # key roulette:1
    await ann.cmd_expect("unbet all", "Taken down")            # key roulette:2: at rest again
    assert host.at_rest
    before = await wallet(app, "ann")
    host.install(host.dealer.config)                          # what reload does once the table is at rest
    await ann.cmd_expect("bet red 10", "Your bets")            # the new wheel's key roulette:1 again
    assert await wallet(app, "ann") == before - 10
    assert (await app.ledger.balance("ann")).held == {"roulette": 10}
    await ann.close()


async def test_a_table_removed_and_added_back_never_reuses_its_old_hosts_ledger_keys(casino_factory):
    """`reload` can remove a table and a later one add it back in the same run:
    the new host's dealer numbers its keys from 1 again, and the host's
    generation keeps them apart from the old host's."""
    app = await casino_factory(seed=17, limits=FAST)
    ann = await seated(app, "ann")
    await ann.cmd_expect("bet red 10", "Your bets")            # key roulette:1
    await ann.cmd_expect("unbet all", "Taken down")            # key roulette:2: at rest again
    old = app.tables["roulette"]
    await old.retire()                                        # what reload does with a removed table
    assert old.closed and "roulette" not in app.tables
    assert app.open_tables() == ["roulette"]                  # what reload does when it is back
    assert app.tables["roulette"] is not old
    before = await wallet(app, "ann")
    await ann.cmd_expect("play roulette", "Welcome to roulette")
    await ann.cmd_expect("bet red 10", "Your bets")            # the new host's key roulette:1
    assert await wallet(app, "ann") == before - 10
    assert (await app.ledger.balance("ann")).held == {"roulette": 10}
    await ann.close()

"""Pig's games count as rounds in `stats` (issue 38 item 14): two finished
games against the computer, which move no chips, read as 2 rounds on the
player's `stats` over telnet, with no chip figure; the ledger still checks."""
from __future__ import annotations

import pytest
from support.telnet import Client, login, plain

from server.ledger import check

pytestmark = pytest.mark.both_stores

SEED = 3003
FAST = {"commands_per_second": 1000}


async def play_out(app, c: Client, name: str) -> str:
    """`start` a game against the computer and play it to its end (the
    computer's turns driven by the clock); everything the player read."""
    host = app.tables["pig"]
    seen = plain(await c.cmd("start"))
    pace = app.manager.seconds(host.dealer.options.computer_pace)
    for _ in range(3000):
        if host.dealer.phase() != "playing":
            return seen
        game = host.dealer.game
        if game.current == name:
            seen += plain(await c.cmd("roll" if game.round_score < 20 else "hold"))
        else:
            app.manager.tick_elapsed(pace)
            await host.idle()
            seen += plain(await c.read_until_prompt())
    raise AssertionError("the game did not end")


def pig_row(stats: str) -> list[str]:
    return next(line.split() for line in stats.replace("\r", "").split("\n") if line.startswith("Pig "))


async def test_two_games_against_the_computer_are_two_rounds(casino_factory):
    app = await casino_factory(seed=SEED, limits=FAST)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "amanda")
    await c.cmd("west")
    await c.cmd_expect("play pig", "start")
    for game in (1, 2):
        seen = await play_out(app, c, "amanda")
        assert " wins!" in seen and " rounds" in seen, (game, seen[-400:])
    out = plain(await c.cmd("stats"))
    # game, rounds, wagered, won, lost, net, best, streak, time
    assert pig_row(out)[1:8] == ["2", "0", "0", "0", "+0", "0", "0"], out
    total = next(line.split() for line in out.split("\n") if line.startswith("Total"))
    assert total[1] == "2", out
    await c.cmd("set width 40")          # the narrow block says it in words
    assert "Pig: 2 rounds," in plain(await c.cmd("stats"))
    assert check(app.database).ok

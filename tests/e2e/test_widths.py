"""Every line sent fits the player's width: each game's table, rules and help,
and the general commands, at 80, 60 and 40 columns (NAWS), over telnet.

Art is laid out for the width, not wrapped: every line of the bank craps
table's box is exactly as wide as its top border."""
from __future__ import annotations

import pytest
from support.telnet import Client, plain

from server.render.width import display_width

FAST = {"commands_per_second": 1000}
BOX_EDGES = tuple("┌│├└+|")
# room path from the lobby, the game word, what to type at the table
GAMES = [
    (("north",), "craps", ("bet pass 10", "bet field 5", "roll", "bets", "table")),
    (("south",), "craps", ("", "bet pass 10", "", "roll", "table")),
    (("down",), "alley", ("table",)),
    (("west",), "pig", ("start", "roll", "table")),
]


def lines_of(block: str) -> list[str]:
    return plain(block).replace("\r", "").split("\n")


@pytest.mark.parametrize("ttype", ["xterm-256color", "dumb"])
@pytest.mark.parametrize("width", [80, 60, 40])
async def test_every_line_of_every_game_fits_the_width(casino_factory, width, ttype):
    app = await casino_factory(seed=3, limits=FAST)
    c = await Client.open(app.port, ttype=ttype, cols=width)
    blocks = [await c.read_until_prompt()]
    await c.send("create wes secret123")
    blocks.append(await c.read_until_prompt())
    for line in ("help", "who", "look", "set", "statement", "balance", "help bet", "help pass"):
        blocks.append(await c.cmd(line))
    tables = []
    for path, word, moves in GAMES:
        for step in path:
            blocks.append(await c.cmd(step))
        blocks.append(await c.cmd(f"play {word}"))
        for move in moves:
            out = await c.cmd(move)
            blocks.append(out)
            if move == "table":
                tables.append(out)
        for line in ("table rules", f"help {word}", "look", "leave"):
            blocks.append(await c.cmd(line))
        blocks.append(await c.cmd_expect("look", "Exits:"))
        for _ in path:
            blocks.append(await c.cmd_expect({"north": "south", "south": "north", "down": "up",
                                              "west": "east"}[path[0]], "Exits:"))
    too_wide = [line for block in blocks for line in lines_of(block) if display_width(line) > width]
    assert not too_wide, too_wide
    art = [line for line in lines_of(tables[0]) if line.startswith(BOX_EDGES)]
    assert len(art) > 10 and {display_width(line) for line in art} == {min(width, 80)}
    await c.close()

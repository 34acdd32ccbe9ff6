"""Issue 38 item 15: `fair` shows every seed as one unbroken token at every
width, so a player can copy it into `casino verify` as it is.

At 40 columns a 64-digit seed is wider than the screen: it takes a line of
its own, whole and without indent (the client wraps it softly), instead of
being cut in two by the server ("125152258e8d..." / "07e639854c99..."). A
client seed with spaces in it is never broken at them either. Every other
line still fits the width.
"""
from __future__ import annotations

import re

import pytest
from support.telnet import Client, login, plain

from server.render.width import display_width

FAST = {"commands_per_second": 1000}
SEED = re.compile(r"\b[0-9a-f]{64}\b")
CLIENT_SEED = "lucky seven and a long tail of words to wrap"


@pytest.mark.parametrize("width", [40, 60, 80])
async def test_fair_shows_each_seed_on_one_line_at_every_width(casino_factory, width):
    app = await casino_factory(seed=3, limits=FAST)
    wide = await Client.open(app.port, cols=250)
    await login(wide, "wide")
    narrow = await Client.open(app.port, cols=width)
    await login(narrow, "narrow")
    await wide.read_until_prompt()                         # narrow arrives
    for c in (wide, narrow):
        await c.cmd_expect("north", "Exits:")
    await narrow.cmd_expect("play craps", "Welcome")
    await narrow.cmd(f"seed {CLIENT_SEED}")
    await narrow.cmd("bet pass 10")
    await narrow.cmd_expect("roll", "You roll")           # a draw under the client seed, then
    await narrow.cmd("fair new")                          # retire the seed: a revealed one to show
    await narrow.cmd(f"seed {CLIENT_SEED}")
    shown = plain(await wide.cmd_expect("fair", "Revealed server seeds"))
    seeds = set(SEED.findall(shown))
    assert len(seeds) >= 3                                 # the commitment, a revealed seed and its commitment

    lines = plain(await narrow.cmd_expect("fair", "Revealed server seeds")).split("\r\n")
    for seed in seeds:
        assert any(seed in line for line in lines), (seed, lines)     # whole on one line, as copied
    for line in lines:
        if display_width(line) > width:                  # only a seed may be wider than the screen
            assert SEED.fullmatch(line) or line.strip("'") == CLIENT_SEED, line
    assert f"Client seed: {CLIENT_SEED}" in lines or CLIENT_SEED in lines, lines
    assert any(f"'{CLIENT_SEED}'" in line for line in lines), lines   # in what the revealed seed served
    if width == 40:
        assert SEED.fullmatch(lines[lines.index("Server seed commitment (SHA-256):") + 1])   # no indent
    await wide.close()
    await narrow.close()

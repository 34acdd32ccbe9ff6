"""Things a room names can be read (issue 38 item 8): the variants room's
slate ("chalks up their house edges") over real telnet with `look slate`,
`read slate` and `look at the slate`, at 80, 60 and 40 columns; an unknown
thing gets one line; the slate's figures are the ones `casino odds` computes."""
from __future__ import annotations

import re
from pathlib import Path

from support.telnet import Client, login, plain

from server.config.load import load_config

ROOT = Path(__file__).resolve().parents[2]
FAST = {"commands_per_second": 1000}


def lines_of(out: str) -> list[str]:
    return [line.rstrip() for line in plain(out).replace("\r", "").split("\n")
            if line.strip() and line.strip() != ">"]


async def test_the_slate_reads_at_every_width(casino_factory):
    app = await casino_factory(seed=1, limits=FAST)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "vera")
    await c.cmd("north")
    room = plain(await c.cmd("west"))
    assert "A slate by the door chalks up their house edges." in " ".join(room.split())
    said = {}
    for width in (80, 60, 40):
        await c.cmd(f"set width {width}")
        for typed in ("look slate", "read slate", "l at the slate", "read sla"):
            shown = lines_of(await c.cmd(typed))
            assert all(len(line) <= width for line in shown), (typed, width, shown)
            said[typed, width] = " ".join(" ".join(shown).split())
    text = said["look slate", 80]
    assert text.startswith("Chalked on the slate") and "Die Rich: pass 3.704%" in text
    assert "Crapless: pass and come 5.382%" in text and "High Point: high 2.357%" in text
    assert set(said.values()) == {text}        # the same words, whichever way and width
    assert "Exits:" not in text                # the thing, not the room again


async def test_an_unknown_thing_gets_one_line_and_a_bare_room_says_so(casino_factory):
    app = await casino_factory(seed=1, limits=FAST)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "walt")
    assert lines_of(await c.cmd("read slate")) == [
        "You see no 'slate' here. 'look' describes the room."]          # the lobby has no slate
    assert lines_of(await c.cmd("read")) == ["Read what? Nothing here is for reading; 'look' describes the room."]
    await c.cmd("north")
    await c.cmd("west")
    assert lines_of(await c.cmd("look chandelier")) == ["You see no 'chandelier' here. To look at here: slate."]
    assert lines_of(await c.cmd("read")) == ["Read what? For example: read slate"]
    assert lines_of(await c.cmd("look"))[-1].startswith("Exits:")    # bare look: the room, as ever
    await c.cmd("east")
    await c.cmd("south")
    await c.cmd("west")
    assert "'stats' counts every game" in " ".join(plain(await c.cmd("read ledger")).split())


def test_the_slates_figures_are_the_computed_edges():
    """Every percentage chalked on the slate is an edge `casino odds` prints
    for a table in the variants room (so the slate cannot drift from the rules)."""
    from server.games.catalogue import entry_for
    config = load_config(ROOT / "config", ROOT / "rooms")
    room = config.rooms["6184"]
    computed = set()
    for table_id in room.tables:
        table = config.tables[table_id]
        odds = entry_for(table).odds
        assert odds is not None, table_id
        computed |= {f"{float(edge) * 100:.3f}%" for _, edge in odds(table).edges}
    chalked = re.findall(r"\d+\.\d{3}%", room.things["slate"])
    assert len(chalked) >= 12
    assert [f for f in chalked if f not in computed] == []

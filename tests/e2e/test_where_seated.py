"""Where am I seated (issue 38, item 10): a player who walked away from their
table is told where it is, that `leave` works from anywhere, and in a room of
several tables how to name one."""
from __future__ import annotations

from support.telnet import login, plain


def words(text: str) -> str:
    """The reply as one line: wrapping is not what these tests read."""
    return " ".join(plain(text).split())


async def test_walking_away_from_a_seat_says_where_it_is_and_how_to_leave(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "roamer")
    await a.cmd("north")
    await a.cmd_expect("play craps", "joins the table")
    await a.cmd("west")
    refused = words(await a.cmd("play crapless"))
    assert "You are seated at bank_craps in Bank Craps." in refused
    assert "'leave' works from anywhere" in refused and "then 'play crapless' again" in refused
    assert "there first" not in refused
    look = plain(await a.cmd("look"))
    assert "You are still seated at bank_craps in Bank Craps; 'leave' gets you up from here." in words(look)
    assert look.rstrip("> \r\n").splitlines()[-1].startswith("Exits:")       # still the last line
    assert "You leave" in words(await a.cmd("leave"))
    assert "still seated" not in words(await a.cmd("look"))
    assert "joins the table" in words(await a.cmd_expect("play crapless", "joins the table"))


async def test_look_at_the_own_table_room_says_nothing_of_elsewhere(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "homebody")
    await a.cmd("north")
    await a.cmd_expect("play craps", "joins the table")
    assert "still seated" not in words(await a.cmd("look"))


async def test_table_in_a_room_of_several_names_the_way_to_pick_one(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "picker")
    await a.cmd("south")
    which = words(await a.cmd("table"))
    assert "Which game? craps, classic_craps: type 'table <game>', e.g. 'table craps'." in which
    assert "Classic dice" in words(await a.cmd("table classic_craps"))
    assert "Predictable by design" in words(await a.cmd("table classic_craps rules"))
    assert "Predictable by design" in words(await a.cmd("table rules classic_craps"))
    assert "Classic dice" not in words(await a.cmd("table craps"))
    assert "There is no dice table here" in words(await a.cmd("table dice"))
    assert "'play <game>', e.g. 'play craps'" in words(await a.cmd("play"))

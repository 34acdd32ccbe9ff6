"""Walking, talking, help and preferences over real telnet."""
from __future__ import annotations

import re

from support.telnet import login, plain

async def test_two_players_hear_each_other(casino, connect):
    a = await connect()
    b = await connect()
    await login(a, "quinn")
    await login(b, "rosa")
    assert "rosa arrives." in plain(await a.read_until_prompt())
    assert 'You say, "hello"' in await a.cmd("say hello")
    assert 'quinn says, "hello"' in await b.read_until_prompt()
    await b.cmd("'hi back")
    assert 'rosa says, "hi back"' in await a.read_until_prompt()
    who = plain(await a.cmd("who"))
    assert "quinn" in who and "rosa" in who and "2 people" in who

async def test_movement_words_aliases_and_go(casino, connect):
    a = await connect()
    b = await connect()
    await login(a, "sam")
    await login(b, "tina")
    await a.read_until_prompt()
    out = plain(await a.cmd("n"))
    assert out.splitlines()[0].startswith("Bank Craps")
    assert out.rstrip("> \r\n").splitlines()[-1].startswith("Exits:")
    assert "sam leaves north." in plain(await b.read_until_prompt())
    assert "Roulette" in plain(await a.cmd("go east"))
    assert "can't go north" in await a.cmd("north")
    assert "Bank Craps" in plain(await a.cmd("west"))
    assert "Lobby" in plain(await a.cmd("south"))
    assert "sam arrives from the north." in plain(await b.read_until_prompt())
    assert "Alley" in plain(await a.cmd("down"))
    assert "Lobby" in plain(await a.cmd("u"))

async def test_help_lists_commands_and_explains_one(casino, connect):
    a = await connect()
    await login(a, "uma")
    out = plain(await a.cmd("help"))
    for word in ("look", "say", "who", "quit", "balance", "set", "north"):
        assert word in out
    assert "reload" not in out and "shutdown" not in out
    assert "Exits:" in plain(await a.cmd("help look"))
    assert "Did you mean 'look'?" in await a.cmd("lok")
    assert "No such command" in await a.cmd("shutdown")

async def test_unique_prefix_and_case(casino, connect):
    a = await connect()
    await login(a, "vera")
    assert "Wallet: 1000 chips." in await a.cmd("BALANCE")
    assert "Wallet: 1000 chips." in await a.cmd("bala")

async def test_set_preferences_are_remembered(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "walt")
    assert "guessed" in await a.cmd("set")
    assert "color is now on" in await a.cmd("set color on")
    assert "width is now 60" in await a.cmd("set width 60")
    assert "not a value" in await a.cmd("set width 9000")
    assert "\x1b[" in await a.cmd("look")
    await a.close()
    b = await connect(ttype="dumb")
    await login(b, "walt", create=False)
    out = await b.cmd("set")
    assert "color        on" in plain(out) and "width        60" in plain(out)

async def test_statement_shows_the_starting_mint(casino, connect):
    a = await connect()
    await login(a, "xena")
    out = plain(await a.cmd("statement"))
    assert "1000" in out and "starting chips" in out
    assert "Give a number" in await a.cmd("statement lots")


async def test_width_and_colour_are_guessed_from_the_client(casino, connect):
    a = await connect(ttype="xterm-256color", cols=72)
    await login(a, "yoko")
    out = plain(await a.cmd("set"))
    assert "width        72     guessed" in out
    assert "color        on     guessed" in out
    assert "Guessed values come from your client" in out
    # the third column starts in the same place on every row
    rows = [line for line in out.splitlines() if line.startswith("  ")]
    third = [re.match(r"  \S+\s+\S+\s+", line) for line in rows]   # guessed, set by you, default
    assert all(third) and len({m.end() for m in third if m}) == 1, out
    b = await connect(ttype="dumb", cols=132)
    await login(b, "zoe")
    out = plain(await b.cmd("set"))
    assert "width        132" in out and "color        off" in out and "unicode      off" in out
    out = plain(await b.cmd("set dice light") + await b.cmd("set"))
    assert "dice         light  set by you" in out and "color        off    guessed" in out

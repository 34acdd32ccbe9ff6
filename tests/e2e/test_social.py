"""MUD basics over telnet: tell, reply, emote; who and look say who sits where."""
from __future__ import annotations

from support.telnet import login, plain


async def settle(*clients):
    """Read everything sent so far: up to the reply to a marker command."""
    for x in clients:
        await x.cmd_expect("help sync-mark", "No help for 'sync-mark'")
        x.take_text()


async def test_tell_and_reply_reach_one_player_wherever_they_are(casino, connect):
    a, b, c = await connect(), await connect(), await connect()
    await login(a, "tara")
    await login(b, "uwe")
    await login(c, "vera")
    await b.cmd("north")                                   # another room: tell still reaches
    await settle(a, b, c)
    assert plain(await a.cmd("tell UWE good luck")).startswith('You tell uwe, "good luck"')
    heard = await b.read_until_prompt()
    assert heard.startswith("\r\n") and 'tara tells you, "good luck"' in plain(heard)
    assert plain(await b.cmd("reply thanks")).startswith('You tell tara, "thanks"')
    assert 'uwe tells you, "thanks"' in plain(await a.read_until_prompt())
    assert "not connected" in plain(await a.cmd("tell nobody hello"))
    assert "Nobody has told you" in plain(await c.cmd("reply hi"))
    assert "Tell whom what" in plain(await c.cmd("tell uwe"))
    assert "tells you" not in c.take_text()


async def test_emote_and_its_shortcut_with_the_same_hygiene_as_say(casino, connect):
    a, b = await connect(), await connect()
    await login(a, "wim")
    await login(b, "xia")
    await settle(a, b)
    assert plain(await a.cmd("emote grins")).startswith("wim grins")
    assert "wim grins" in plain(await b.read_until_prompt())
    await a.cmd(":waves \x1b[31mhello\x1b]0;pwned\x07 there")
    heard = await b.read_until_prompt()
    assert "wim waves hello there" in plain(heard)
    assert "\x1b[31m" not in heard and "pwned" not in heard
    await a.cmd("tell xia \x1b[2Jhi\x07")
    heard = await b.read_until_prompt()
    assert 'wim tells you, "hi"' in heard and "\x1b" not in heard


async def test_who_and_look_say_who_sits_where_and_who_has_the_dice(casino, connect):
    a, b, c = await connect(ttype="dumb"), await connect(ttype="dumb"), await connect(ttype="dumb")
    await login(a, "yara")
    await login(b, "zed")
    await login(c, "abby")
    for x in (a, b, c):
        await x.cmd("north")
    await a.cmd_expect("play craps", "joins the table")
    await b.cmd_expect("play craps", "joins the table")
    await c.cmd_expect("watch craps", "You watch")
    await settle(c)
    who = plain(await c.cmd("who"))
    assert "yara  Bank Craps: bank craps (bank_craps), has the dice" in who
    assert "zed   Bank Craps: bank craps (bank_craps), playing" in who
    assert "abby  Bank Craps: watching bank_craps" in who
    look = plain(await c.cmd("look"))
    assert "A bank craps table is here (bank_craps): 'play craps' to sit." in look
    assert "Seated: yara, zed. yara has the dice." in look
    assert "Watching: abby." in look
    await b.cmd_expect("sitout", "sit out")
    await settle(c)
    assert "Seated: yara, zed (sitting out)." in plain(await c.cmd("look"))
    assert "zed   Bank Craps: bank craps (bank_craps), sitting out" in plain(await c.cmd("who"))
    await c.cmd("south")
    assert "Nobody is seated" not in plain(await c.cmd("look"))      # the lobby has no table
    await c.cmd("west")
    assert "A Pig table is here (pig): 'play pig' to sit.\r\n  Nobody is seated." in await c.cmd("look")

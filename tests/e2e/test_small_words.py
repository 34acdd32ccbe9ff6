"""Small things a newcomer trips on (issue 28 item 12), over telnet: where
the verifier `fair` names is, `set` showing its syntax and `set width auto`
undoing a set width, and `create name password` warning, once, that the
password showed."""
from __future__ import annotations

from support.telnet import Client, login, plain

FAST = {"commands_per_second": 1000}
HIDDEN = "Next time type just your name: the password is then asked for with echo off."


def flat(text: str) -> str:
    return " ".join(plain(text).split())


async def test_fair_says_where_the_verifier_is(casino_factory):
    app = await casino_factory(seed=3, limits=FAST)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "vic")
    await c.cmd("north")
    out = flat(await c.cmd("fair"))
    assert "casino verify --server-seed S" in out
    assert ("'casino verify' is the casino command of this open-source server: install the server on "
            "your own computer and run it there (docs/fairness.md shows how).") in out
    assert "the browser page's 'verify' link: it checks a seed in your browser" in out
    await c.close()


async def test_set_shows_its_syntax_and_width_auto_undoes_a_set_width(casino_factory):
    app = await casino_factory(seed=3, limits=FAST)
    c = await Client.open(app.port, ttype="dumb", cols=60)
    await login(c, "wes")
    out = flat(await c.cmd("set"))
    assert "Change: set <name> <value>, e.g. set width 60; set width auto undoes it." in out
    assert ("Usage: set color on|off, set unicode on|off, set dice dark|light, set screenreader on|off, "
            "set width N "
            "(or any of them auto)") in flat(await c.cmd("set colour"))
    assert "width is now 45." in flat(await c.cmd("set width 45"))
    assert app.online["wes"].width == 45
    assert "width is now 60, from your client." in flat(await c.cmd("set width auto"))
    assert app.online["wes"].width == 60
    assert "width 60 guessed" in flat(await c.cmd("set"))
    assert "Usage: set color on|off" in flat(await c.cmd("set width"))
    await c.close()


async def test_create_with_the_password_on_the_line_says_once_that_the_name_alone_hides_it(casino_factory):
    app = await casino_factory(seed=3, limits=FAST)
    c = await Client.open(app.port, ttype="dumb")
    made = flat(await login(c, "xena"))
    assert "Your password showed on the screen as you typed it. " + HIDDEN in made
    assert made.count(HIDDEN) == 1
    await c.close()
    again = await Client.open(app.port, ttype="dumb")
    assert HIDDEN not in flat(await login(again, "xena", create=False))    # said once, at creation
    await again.close()
    quiet = await Client.open(app.port, ttype="dumb")               # the name alone: nothing showed
    await quiet.read_until_prompt()
    await quiet.cmd("yolanda")
    await quiet.cmd("s3cretpw")
    assert HIDDEN not in flat(await quiet.cmd_expect("s3cretpw", "Welcome, yolanda"))
    await quiet.close()

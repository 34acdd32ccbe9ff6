"""What a player's screen shows in the real clients: inetutils telnet and
TinTin++ in tmux, against a real server on 127.0.0.1 (docs/running.md "Connecting").

For each client: the password never shows; the reply to a typed command
starts in column 0 (no staircase); text from another player starts on its own
line and the prompt is shown again after it; the bank craps table's border is
aligned at 80 columns and, after the window is narrowed (NAWS), at 60 and 40,
with no line the terminal had to wrap. In inetutils telnet at 80x24, `help`
is paged behind a more prompt (Enter, `q`, or a command typed there).

The clients are Debian packages (tmux, inetutils-telnet, tintin++) that .ci/run
and `make test-packages` install; without them these tests skip only when not
root (as root they fail: the install step was skipped).
"""
from __future__ import annotations

import re

import pytest
from support.screen import CLIENTS, Screen, require_tools, until
from support.telnet import Client, login

from server.render.width import display_width

FAST = {"commands_per_second": 1000}
BOX = re.compile(r"^[┌│├└+|]")
TOOLS = {"telnet": ("tmux", "telnet"), "tintin": ("tmux", "tt++")}


def after(lines: list[str], marker: str) -> list[str]:
    """The screen lines after the last one that is `marker` (a typed command
    shows as "> look"; after a resize tmux may redraw it without the prompt)."""
    at = max(i for i, line in enumerate(lines) if line in (marker, marker.removeprefix("> ")))
    return lines[at + 1:]



@pytest.fixture
async def screens():
    opened: list[Screen] = []
    yield opened
    for s in opened:
        s.close()


@pytest.mark.parametrize("client", ["telnet", "tintin"])
async def test_what_a_player_sees(casino_factory, screens, client):
    require_tools(*TOOLS[client])
    app = await casino_factory(seed=3, limits=FAST)
    ann = await Client.open(app.port, ttype="dumb")
    await login(ann, "ann")
    screen = Screen(CLIENTS[client](app.port), width=80)
    screens.append(screen)

    # A new account, its password typed twice: never on the screen.
    await screen.create_account("yuri")
    assert "s3cretpw" not in screen.text()
    lines = screen.lines()
    assert after(lines, "Name: yuri")[0].startswith("There is no account called yuri")

    # No staircase: the reply to a typed command starts in column 0.
    screen.type("look")
    await screen.wait_for(r"^Exits: ", count=2)
    assert after(screen.lines(), "> look")[0] == "The Lobby"

    # Another player's text: on its own line, then the prompt again.
    await ann.cmd("say hello there")
    await screen.wait_for(r'^ann says, "hello there"$')
    lines = screen.lines()
    assert not any(line.startswith(">") and "ann says" in line for line in lines)
    rest = [line for line in after(lines, 'ann says, "hello there"') if line]
    assert rest == [">"]

    # The table at 80 columns, then narrowed to 60 and 40: aligned, never wrapped.
    screen.type("north")
    await screen.wait_for(r"^Exits: east, west, south")
    screen.type("play craps")
    await screen.wait_for(r"joins the table")
    for n, width in enumerate((80, 60, 40), 1):
        if width != screen.width:
            screen.resize(width)
            await until(lambda: app.online["yuri"].width == width)
        screen.type("table")
        await screen.wait_for(r"^Commands: ", count=n)
        shown = after(screen.lines(joined=True), "> table")
        box = [line for line in shown if BOX.match(line)]
        assert box[0].startswith("┌") and box[-1].startswith("└"), shown
        assert {display_width(line) for line in box} == {width}, box
        assert all(display_width(line) <= width for line in shown), shown
    await ann.close()


MORE_LINE = r"^-- More, \d+ lines left: Enter for more, q to stop --"


async def test_help_is_paged_to_a_24_row_telnet_screen(casino_factory, screens):
    """Issue 28 item 4, in inetutils telnet at 80x24: `help` fills the screen
    with a more prompt last; Enter shows the rest; `q` stops; a command typed
    at the more prompt stops the paging and runs."""
    require_tools(*TOOLS["telnet"])
    app = await casino_factory(seed=3, limits=FAST)
    screen = Screen(CLIENTS["telnet"](app.port), width=80, height=24)
    screens.append(screen)
    await screen.create_account("pia")

    screen.type("help")
    await screen.wait_for(MORE_LINE)
    shown = screen.visible()
    assert shown[0] == "General commands:"               # the page fills the screen exactly
    assert re.match(MORE_LINE, shown[23]) and "Type 'help <command>'" not in "\n".join(shown)
    pages = 1
    while "Type 'help <command>' for more." not in screen.text():   # Enter: the next page, to the end
        assert pages < 10, "help never ended"
        screen.type("")
        pages += 1
        await screen.wait_for(MORE_LINE + "|^Type 'help <command>' for more\\.$", count=pages)
    await screen.wait_for(r"^Type 'help <command>' for more\.$")
    lines = screen.lines()
    at = max(i for i, line in enumerate(lines) if re.match(MORE_LINE, line))
    rest = [line for line in lines[at + 1:] if line]
    assert rest[-2:] == ["Type 'help <command>' for more.", ">"]

    mores = len(re.findall(MORE_LINE, screen.text(), re.MULTILINE))
    screen.type("help")
    await screen.wait_for(MORE_LINE, count=mores + 1)
    screen.type("q")                                      # stop: only the prompt follows
    await until(lambda: not app.online["pia"].paging)
    await screen.wait_for(r"^> ?$")
    lines = screen.lines()
    at = max(i for i, line in enumerate(lines) if re.match(MORE_LINE + r" q$", line))
    assert [line for line in lines[at + 1:] if line] == [">"]

    mores = len(re.findall(MORE_LINE, screen.text(), re.MULTILINE))
    screen.type("help")
    await screen.wait_for(MORE_LINE, count=mores + 1)
    screen.type("look")                                   # a command at the more prompt runs
    await screen.wait_for(r"^Exits: ", count=2)
    lines = screen.lines()
    at = max(i for i, line in enumerate(lines) if re.match(MORE_LINE + r" look$", line))
    shown = [line for line in lines[at + 1:] if line]
    assert shown[0] == "The Lobby" and shown[-1] == ">"
    assert not any("commands:" in line for line in shown)

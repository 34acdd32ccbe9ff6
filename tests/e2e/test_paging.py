"""A long reply is paged to the player's screen over real telnet (issue 28
item 4): as many lines as the height NAWS told (24 when it never said) leave
room for, then a "more" prompt marked like any prompt (GA, or EOR); Enter
shows the next page, `q` stops, any other line stops the paging and runs as a
command. Only a command's own reply is paged: what others say meanwhile is
written as it comes, and the more prompt shown again after it. The browser
page scrolls by itself and is never paged."""
from __future__ import annotations

import re

from support.telnet import Client, login, plain
from support.web import WebClient

FAST = {"commands_per_second": 1000}
MORE = re.compile(r"-- More(?:, (\d+) lines left)?: Enter for more, q to stop -- $")
GA = 249


def screen_lines(block: str) -> list[str]:
    """A block as the lines it fills: every line ends CR LF, the prompt last."""
    return plain(block).split("\r\n")


async def full_help(port: int, cols: int = 250) -> list[str]:
    """`help` as a client with a tall screen gets it: one block, never paged."""
    tall = await Client.open(port, rows=1000, cols=cols)
    await login(tall, "tall")
    out = await tall.cmd("help")
    await tall.close()
    assert not MORE.search(plain(out)) and out.endswith("> ")
    return screen_lines(out)[:-1]


async def test_help_at_24_rows_is_paged_enter_shows_the_rest(casino_factory):
    app = await casino_factory(limits=FAST)
    whole = await full_help(app.port, cols=40)
    assert len(whole) > 46                               # three pages at 24 rows
    a = await Client.open(app.port, rows=24, cols=40)
    await login(a, "ann")
    shown: list[str] = []
    first = await a.cmd("help")
    lines = screen_lines(first)
    assert len(lines) == 24                              # 23 lines and the more prompt
    assert lines[-1] == "-- More: Enter for more, q to stop -- "   # the short one fits 40 columns
    shown += lines[:-1]
    pages = 1
    while True:
        out = await a.cmd("")                            # Enter at the more prompt
        lines = screen_lines(out)
        assert len(lines) <= 24
        shown += lines[:-1]
        pages += 1
        if not MORE.search(lines[-1]):
            assert lines[-1] == "> "                     # the reply is over: the usual prompt
            break
    assert shown == whole                                # every line once, in order, no extra lead
    assert pages == -(-len(whole) // 23) >= 3
    assert a.prompts == [GA] * (pages + 2)               # banner and login, then one GA a page
    assert "Wallet:" in plain(await a.cmd("balance"))    # paging is over: a command runs
    await a.close()


async def test_q_stops_and_a_command_at_the_more_prompt_runs(casino_factory):
    app = await casino_factory(limits=FAST)
    whole = await full_help(app.port)
    a = await Client.open(app.port, rows=24)
    await login(a, "bea")
    more = MORE.search(plain(await a.cmd("help")))
    assert more and int(more.group(1)) == len(whole) - 23     # wide enough to count what is left
    assert await a.cmd("q") == "> "                      # stopped: just the prompt
    assert plain(await a.cmd("")) == "> "                # and Enter is an empty line again
    assert MORE.search(plain(await a.cmd("help")))
    out = plain(await a.cmd("balance"))                  # a command stops the paging and runs
    assert "Wallet:" in out and not MORE.search(out) and "commands:" not in out
    assert plain(await a.cmd("")) == "> "                # the rest of help is gone
    await a.close()


async def test_a_client_that_never_sent_naws_gets_24_rows(casino_factory):
    app = await casino_factory(limits=FAST)
    a = await Client.open(app.port, negotiate=False)
    await login(a, "cid")
    lines = screen_lines(await a.cmd("help"))
    assert len(lines) == 24 and MORE.search(lines[-1])
    await a.close()


async def test_a_short_reply_and_a_tall_screen_are_not_paged(casino_factory):
    app = await casino_factory(limits=FAST)
    a = await Client.open(app.port, rows=24)
    await login(a, "dot")
    out = plain(await a.cmd("look"))
    assert out.endswith("> ") and not MORE.search(out)
    b = await Client.open(app.port, rows=60)
    await login(b, "eve")
    out = plain(await b.cmd("help"))
    assert out.endswith("> ") and not MORE.search(out) and len(screen_lines(out)) < 60
    await a.close()
    await b.close()


async def test_the_more_prompt_is_marked_with_eor_where_agreed(casino_factory):
    app = await casino_factory(limits=FAST)
    a = await Client.open(app.port, rows=24, want_eor=True)
    await login(a, "fay")
    assert MORE.search(plain(await a.cmd("help")))
    assert a.prompts[-1] == 239                          # IAC EOR, as every prompt
    await a.close()


async def test_others_text_between_pages_is_not_paged(casino_factory):
    app = await casino_factory(limits=FAST)
    whole = await full_help(app.port)
    a = await Client.open(app.port, rows=24)
    await login(a, "gil")
    b = await Client.open(app.port)
    await login(b, "hal")
    await a.read_until_prompt()                          # hal arrives in the lobby
    first = screen_lines(await a.cmd("help"))
    await b.cmd("say hello there")
    heard = plain(await a.read_until_prompt())
    # on a fresh line, at once, and the more prompt again after it
    assert heard.startswith("\r\nhal says") and "hello there" in heard
    assert MORE.search(heard) and "commands:" not in heard
    rest: list[str] = []
    while True:
        lines = screen_lines(await a.cmd(""))
        rest += lines[:-1]
        if lines[-1] == "> ":
            break
    assert first[:-1] + rest == whole                    # the reply, and only the reply, paged
    await a.close()
    await b.close()


async def test_the_browser_page_is_never_paged(casino_factory):
    app = await casino_factory(limits=FAST, web=True)
    w = await WebClient.open(app.web_port, cols=80)
    await w.read_until_prompt()
    await w.cmd("create ida secret123")
    out = await w.cmd("help")
    assert "More" not in out and "Type 'help <command>' for more." in out
    assert len(out.split("\r\n")) > 40
    await w.close()

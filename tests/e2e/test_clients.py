"""What every client's screen gets: negotiation, prompts and message blocks.

Over real telnet connections to a real server (docs/running.md "Connecting"): the negotiation
that keeps inetutils telnet free of the staircase, text nobody asked for
starting on a fresh line with the prompt shown again after it, and one block
(one prompt) for a roll and its settlement whoever or whatever rolled.
The screens of the real clients are checked in test_screens.py.
"""
from __future__ import annotations

import asyncio
import re

from support.telnet import BINARY, DO, IAC, WILL, WONT, Client, login, plain

FAST = {"commands_per_second": 1000}
ROLL_LINE = re.compile(r"\(\d \+ \d = \d+\)")


async def test_server_asks_binary_input_but_never_offers_binary_output(casino):
    """BINARY output makes inetutils telnet drop its own newline handling
    (the staircase); UTF-8 flows anyway, and binary input keeps typed UTF-8."""
    reader, writer = await asyncio.open_connection("127.0.0.1", casino.port)
    seen = b""
    writer.write(bytes([IAC, WILL, 24]))          # WILL TTYPE: start advanced negotiation
    await writer.drain()
    while b"Name: " not in seen:
        seen += await asyncio.wait_for(reader.read(4096), 5)
    assert bytes([IAC, DO, BINARY]) in seen
    assert bytes([IAC, WILL, BINARY]) not in seen
    writer.write(bytes([IAC, DO, BINARY]))        # a client that asks for binary output anyway
    await writer.drain()
    answer = b""
    while bytes([IAC, WONT, BINARY]) not in answer:
        answer += await asyncio.wait_for(reader.read(4096), 5)
    writer.close()


async def test_utf8_both_ways_without_binary_output(casino, connect):
    a = await connect()
    await login(a, "ulla")
    out = await a.cmd("say café ✓")
    assert 'You say, "café ✓"' in out


async def test_text_from_others_starts_on_a_fresh_line_and_ends_with_the_prompt(casino, connect):
    a = await connect()
    b = await connect()
    await login(a, "abel")
    await login(b, "bert")
    assert (await a.read_until_prompt()) == "\r\nbert arrives.\r\n> "
    reply = await a.cmd("say hello")
    assert not reply.startswith("\r\n")            # a reply follows the player's own Enter
    assert reply.endswith("> ")
    heard = await b.read_until_prompt()
    assert heard.startswith("\r\n")                 # not glued to b's prompt
    assert heard == '\r\nabel says, "hello"\r\n> '
    # b answers: b's reply does not start with a break, a's news does.
    assert (await b.cmd("say hi")).startswith('You say, "hi"')
    assert (await a.read_until_prompt()).startswith('\r\nbert says, "hi"')


async def test_every_reply_has_exactly_one_prompt(casino, connect):
    a = await connect()
    await login(a, "cleo")
    for line in ("look", "north", "play craps", "table", "bet pass 10", "bets", "help", "who"):
        before = len(a.prompts)
        out = await a.cmd(line)
        assert len(a.prompts) == before + 1
        assert out.count("\n> ") + out.startswith("> ") == 1, (line, out)


async def _seated(app, name):
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    return c


async def test_a_dealer_roll_and_its_settlement_are_one_block_for_everyone(casino_factory):
    app = await casino_factory(seed=11, limits=FAST)
    host = app.tables["bank_craps"]
    ann = await _seated(app, "ann")
    bob = await _seated(app, "bob")
    await ann.cmd_expect("bet field 5", "Your bets")
    await bob.cmd_expect("bet field 5", "Your bets")
    await asyncio.sleep(0)
    ann.take_text()
    bob.take_text()
    timing = host.dealer.config.options.timing
    app.manager.tick_elapsed(app.manager.seconds(timing.window))
    await host.idle()
    for c in (ann, bob):
        await c.expect("roll")              # the window closed
    app.manager.tick_elapsed(app.manager.seconds(timing.shooter))
    await host.idle()
    for c in (ann, bob):
        block = plain(await c.read_until_prompt())
        assert "The dealer rolls" in block and ROLL_LINE.search(block), block
        assert "Settlement:" in block and "field" in block, block   # the field decides every roll
        assert block.count("\n> ") + block.startswith("> ") == 1


async def test_an_autoroll_and_its_settlement_are_one_block(casino_factory):
    app = await casino_factory(seed=12, limits=FAST)
    host = app.tables["bank_craps"]
    ann = await _seated(app, "ann")
    await ann.cmd_expect("bet field 5", "Your bets")
    await ann.cmd_expect("autoroll", "Autoroll on")
    app.manager.tick_elapsed(app.manager.seconds(host.dealer.config.options.timing.autoroll))
    await host.idle()
    block = plain(await ann.read_until_prompt())
    assert ROLL_LINE.search(block) and "Settlement:" in block, block


def _widest(*blocks: str) -> int:
    """The widest line in some replies (each reply's closing prompt aside)."""
    from server.render.width import display_width
    return max(display_width(line) for block in blocks
               for line in plain(block).replace("\r", "").split("\n"))


async def test_every_line_fits_the_naws_width_and_set_width_overrides_it(casino, connect):
    a = await connect(cols=40)
    banner = await a.read_until_prompt()
    assert _widest(banner) <= 40
    await a.send("create wanda secret123")
    blocks = [await a.read_until_prompt(), await a.cmd("say " + " ".join(["wordy"] * 30)),
              await a.cmd("help")]
    assert _widest(*blocks) <= 40
    assert "wordy" in blocks[1]
    await a.cmd("set width 60")
    out = await a.cmd("say " + " ".join(["wordy"] * 30))
    assert 40 < _widest(out) <= 60

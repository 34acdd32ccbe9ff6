"""The telnet edge: prompts, limits, hostile input, clients that ignore negotiation."""
from __future__ import annotations

import asyncio
import time

from support.telnet import Client, login, plain

from server.net.throttle import TokenBucket

async def test_every_reply_ends_with_prompt_and_go_ahead(casino, connect):
    a = await connect()
    await login(a, "ivan")
    before = len(a.prompts)
    for line in ("look", "who", "help", "nonsense"):
        out = await a.cmd(line)
        assert out.endswith("> ")
    assert len(a.prompts) == before + 4

async def test_eor_replaces_ga_when_the_client_asks(casino, connect):
    a = await connect(want_eor=True)
    await login(a, "jill")
    await a.cmd("look")
    assert a.prompts[-1] == 239           # IAC EOR


async def test_the_prompt_mark_follows_negotiation_after_login(casino, connect):
    # The mark is worked out once and kept (CasinoTelnetServer.prompt_mark)
    # until the client next sends a telnet command: here, DONT EOR.
    a = await connect(want_eor=True)
    await login(a, "jack")
    await a.cmd("look")
    assert a.prompts[-1] == 239           # IAC EOR
    a.send_raw(bytes([255, 254, 25]))     # IAC DONT EOR
    await a.cmd("look")
    assert a.prompts[-1] == 249           # IAC GA again

async def test_client_that_ignores_negotiation_gets_the_banner_fast(casino):
    started = time.monotonic()
    c = await Client.open(casino.port, negotiate=False)
    banner = await c.read_until_prompt(timeout=5)
    assert time.monotonic() - started < 1.0
    assert "Welcome to the Casino" in banner
    out = plain(await c.cmd("create kyle secret123"))
    assert "Welcome, kyle!" in out
    await c.close()

async def test_overlong_line_is_dropped_and_connection_lives(casino, connect):
    a = await connect()
    await login(a, "lena")
    limit = casino.config.settings.limits.max_line
    out = await a.cmd("say " + "x" * (limit * 20))
    assert "too long" in out
    assert "You say" not in out
    assert "You say, \"still here\"" in await a.cmd("say still here")

async def test_control_bytes_and_escapes_never_reach_others(casino, connect):
    a = await connect()
    b = await connect()
    await login(a, "mona")
    await login(b, "nick")
    await a.cmd("say \x1b[2J\x1b]0;pwned\x07hi\x07 there\x00\x08\x1b[31mred")
    heard = await b.read_until_prompt()
    assert 'mona says, "hi therered"' in plain(heard)
    assert "\x1b[2J" not in heard and "\x07" not in heard and "pwned" not in heard
    assert "\x1b[31m" not in heard

async def test_invalid_utf8_is_replaced_not_fatal(casino, connect):
    a = await connect()
    await login(a, "olga")
    a.send_raw(b"say caf\xc3\xa9 \xff\xfe\xfa ok\r\n")
    out = await a.read_until_prompt()
    assert "café" in out
    assert "You say" in await a.cmd("say again")

async def test_command_rate_limit_drops_the_excess_with_one_notice(casino_factory):
    app = await casino_factory(limits={"commands_per_second": 3})
    a = await Client.open(app.port)
    await login(a, "pete")
    app.online["pete"].bucket = TokenBucket(3, asyncio.get_running_loop().time())   # full again
    before = len(a.prompts)
    a.send_raw(b"who\r\n" * 10)                 # one burst: 3 handled, 7 dropped
    text = ""
    while len(a.prompts) < before + 3:            # one prompt per handled line, none for the rest
        text += plain(await a.read_until_prompt())
    assert text.count("Slow down") == 1
    assert text.count("in the casino:") == 3
    await a.close()


async def test_connections_per_ip_are_capped(casino_factory):
    app = await casino_factory(limits={"connections_per_ip": 2})
    first = [await Client.open(app.port) for _ in range(2)]
    for c in first:
        await c.read_until_prompt()
    third = await Client.open(app.port)
    assert "Too many connections" in await third.read_until_closed()
    for c in first:
        await c.close()

"""The browser edge over a real WebSocket (issue 18): the same accounts,
commands, prompts and limits as telnet, as frames (server/net/web.py). The
page itself is driven in a real browser by test_browser.py."""
from __future__ import annotations

import asyncio

import aiohttp
import pytest
from support.telnet import Client, login, plain
from support.web import WebClient

from server.render.width import display_width


@pytest.fixture
async def web(casino_factory):
    app = await casino_factory(web=True)
    clients: list[WebClient] = []

    async def open_client(**kw) -> WebClient:
        client = await WebClient.open(app.web_port, **kw)
        clients.append(client)
        return client

    yield app, open_client
    for c in clients:
        await c.close()


async def test_the_page_and_its_script_are_served(web):
    app, _ = web
    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{app.web_port}/") as page:
            assert page.status == 200
            assert "/static/casino.js" in await page.text()
        async with http.get(f"http://127.0.0.1:{app.web_port}/static/casino.js") as script:
            assert script.status == 200
            assert "textContent" in await script.text()
    assert app.addresses == f"telnet 127.0.0.1:{app.port}, web http://127.0.0.1:{app.web_port}/"


async def test_same_accounts_and_rooms_as_telnet(web):
    app, open_web = web
    browser = await open_web(cols=100)
    banner = await browser.read_until_prompt()
    assert "create <name> <password>" in banner and banner.endswith("Name: ")
    hello = await browser.cmd("create Webby secret123")
    assert "Webby" in plain(hello) and hello.endswith("> ")
    tel = await Client.open(app.port)
    await login(tel, "Telly")
    await tel.cmd("say hi from telnet")
    heard = await browser.expect("hi from telnet")
    assert 'Telly says, "hi from telnet"' in plain(heard)
    assert heard.startswith("\r\n")            # unasked-for text starts on a fresh line
    assert heard.endswith("> ")
    # The browser's account is a real one: telnet can log in to it.
    await browser.close()
    again = await Client.open(app.port)
    out = await login(again, "Webby", create=False)
    assert "You have 1000 chips" in out and "webby" in app.online
    tel.writer.close()
    again.writer.close()


async def test_the_page_gets_colour_and_unicode(web):
    app, open_web = web
    browser = await open_web(cols=100)
    await browser.read_until_prompt()
    await browser.cmd("create Painter secret123")
    session = app.online["painter"]
    assert session.prefs.color and session.prefs.unicode


async def test_password_entry_is_masked_by_an_echo_frame(web):
    _, open_web = web
    browser = await open_web()
    await browser.read_until_prompt()
    asked = await browser.cmd("Masky")
    assert browser.echo_changes == [False]       # the page masks the password
    await browser.cmd("secret123")               # choose
    await browser.cmd("secret123")               # confirm
    assert browser.echo_changes[-1] is True and False in browser.echo_changes
    assert "assword" in asked


async def test_the_pane_width_is_the_players_width(web):
    app, open_web = web
    browser = await open_web(cols=44)
    await browser.read_until_prompt()
    out = await browser.cmd("create Narrow secret123")
    out += await browser.cmd("help")
    assert app.online["narrow"].width == 44
    lines = plain(out).split("\r\n")
    assert max(display_width(line) for line in lines) <= 44
    await browser.frame(t="cols", n=120)
    await browser.cmd("look")
    assert app.online["narrow"].width == 120


async def test_line_length_and_command_rate_are_the_telnet_limits(web):
    app, open_web = web
    browser = await open_web()
    await browser.read_until_prompt()
    limit = app.config.settings.limits.max_line
    out = await browser.cmd("say " + "x" * (limit + 10))
    assert f"That line was too long (over {limit} characters)" in out
    await browser.cmd("create Flood secret123")
    rate = app.config.settings.limits.commands_per_second
    await browser.send("\n".join(["look"] * (rate * 3)))
    heard = await browser.expect("Slow down")
    assert heard.count("Slow down") == 1


async def test_connections_per_address_count_telnet_and_web_together(casino_factory):
    app = await casino_factory(web=True, limits={"connections_per_ip": 2})
    tel = await Client.open(app.port)
    first = await WebClient.open(app.web_port)
    await first.read_until_prompt()
    refused = await WebClient.open(app.web_port)
    said = await refused.read_until_closed()
    assert "Too many connections from your address" in said
    await refused.close()
    await first.close()
    tel.writer.close()
    # Closing frees the places: a new page is let in.
    while app.connections.open_from("127.0.0.1"):   # the server sees both sockets end
        await asyncio.sleep(0)
    later = await WebClient.open(app.web_port)
    assert "Welcome" in await later.read_until_prompt()
    await later.close()


async def test_failed_logins_are_throttled_across_telnet_and_web(web):
    app, open_web = web
    tel = await Client.open(app.port)
    await login(tel, "Dora")
    await tel.close()
    limit = app.config.settings.limits.failed_logins_per_minute
    browser = await open_web()
    await browser.read_until_prompt()
    for _ in range(limit):
        assert "Wrong name or password." in await browser.cmd("connect Dora nottheone")
    # The same address over telnet now waits too: one throttle for both edges.
    other = await Client.open(app.port)
    await other.read_until_prompt()
    out = await other.cmd("connect Dora secret123")
    assert "Too many failed logins" in out and "You have" not in out
    await other.close()


async def test_login_deadline_and_shutdown_close_the_page_like_telnet(web):
    app, open_web = web
    slow = await open_web()
    await slow.read_until_prompt()
    player = await open_web()
    await player.read_until_prompt()
    await player.cmd("create Stayer secret123")
    app.manager.tick_elapsed(app.manager.seconds(app.config.settings.limits.login_timeout))
    assert "You took too long to log in" in await slow.read_until_closed()
    await app.stop("Closing time")
    said = await player.read_until_closed()
    assert "Closing time. Goodbye." in said
    assert app.connections.total == 0


class StuckSocket:
    """A WebSocket whose peer never reads: every send waits forever."""

    def __init__(self) -> None:
        self.sent = 0

    async def send_str(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()

    async def close(self) -> None:
        pass


async def test_a_page_that_stops_reading_is_cut_off_past_max_output():
    from server.net.session import Session
    from server.net.web import WebWriter
    socket = StuckSocket()
    writer = WebWriter(socket, None)
    writer.start()
    session = Session(writer, "127.0.0.1", max_output=70_000)
    for _ in range(100):
        session.tell("x" * 1000)
        session.flush()
        await asyncio.sleep(0)          # the pump takes a frame and is stuck sending it
        if session.closed:
            break
    assert session.closed and socket.sent == 1
    assert writer.unsent() == 0         # what was queued is dropped
    await asyncio.wait_for(writer.done.wait(), 1)


async def test_only_the_casinos_own_page_may_open_the_socket(web):
    app, _ = web
    url = f"http://127.0.0.1:{app.web_port}"
    async with aiohttp.ClientSession() as http:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(f"{url}/ws", origin="http://evil.example")
        assert refused.value.status == 403
        async with http.ws_connect(f"{url}/ws", origin=url) as ws:
            assert "Welcome" in (await ws.receive_json())["d"]
        async with http.get(f"{url}/") as page:
            policy = page.headers["Content-Security-Policy"]
            assert "script-src 'self'" in policy and "unsafe-inline" not in policy
            assert page.headers["X-Content-Type-Options"] == "nosniff"

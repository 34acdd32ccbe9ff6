"""Hostile clients, part two (issue 27): telnet options, the web port, login
slots, operator names.

As in test_hostile: a real server in-process, real sockets from 127.0.0.x,
time moved with `app.manager.tick_elapsed`, never a sleep to wait for time.
Each test states the rule one hostile client must not break for everyone else.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time

import pytest
from support.telnet import Client, login, plain

IAC, SB, SE, WILL, DO = 255, 250, 240, 251, 253
CHARSET, NEW_ENVIRON = 42, 39
ACCEPTED, IS, VAR, VALUE = 2, 0, 0, 1


async def until(condition, timeout: float = 10.0) -> None:
    """Poll a server-side condition: a guard against a hang, not game time."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


async def operator(app) -> Client:
    from server.accounts.create import create_account
    if await app.accounts.get("admin") is None:
        await create_account(app.accounts, app.ledger, app.passwords, "admin", "secret123", 1000)
    c = await Client.open(app.port)
    await login(c, "admin", create=False)
    return c


def name_charset(client: Client, charset: str, via: str) -> None:
    """The client names a character set: a CHARSET reply or LANG in NEW-ENVIRON."""
    if via == "charset":
        client.send_raw(bytes([IAC, WILL, CHARSET, IAC, SB, CHARSET, ACCEPTED])
                        + charset.encode() + bytes([IAC, SE]))
    else:
        client.send_raw(bytes([IAC, WILL, NEW_ENVIRON, IAC, SB, NEW_ENVIRON, IS, VAR]) + b"LANG"
                        + bytes([VALUE]) + f"en_US.{charset}".encode() + bytes([IAC, SE]))


BAD_CHARSETS = ["rot13", "base64", "hex", "no-such-codec", "idna", "undefined", "x" * 500]


@pytest.mark.parametrize("via", ["charset", "lang"])
async def test_a_charset_the_server_cannot_write_is_ignored(casino_factory, via):
    app = await casino_factory()
    for i, charset in enumerate(BAD_CHARSETS):
        c = await Client.open(app.port)
        await c.read_until_prompt()
        name_charset(c, charset, via)
        # the server keeps its own encoding and says nothing about it
        assert "Log in first" in plain(await c.cmd("look around"))
        assert "You have 1000 chips" in plain(await c.cmd(f"create odd{via}{i} secret123"))
        assert "é" in plain(await c.cmd("say café"))                 # UTF-8 both ways
        await c.close()


async def test_a_good_charset_a_client_names_is_still_used(casino_factory):
    app = await casino_factory()
    c = await Client.open(app.port)
    await c.read_until_prompt()
    name_charset(c, "latin-1", "charset")
    await c.send("create latin secret123")
    await c.read_until_prompt()
    c.send_raw("say caf\u00e9\r\n".encode("latin-1"))
    out = b""
    while b"caf" not in out:
        out += await asyncio.wait_for(c.reader.read(65536), 10)
    assert "caf\u00e9".encode("latin-1") in out


async def test_a_bad_charset_connection_still_times_out_and_never_shields_another(casino_factory):
    app = await casino_factory(limits={"login_timeout": 10})
    bad = await Client.open(app.port)
    await bad.read_until_prompt()
    name_charset(bad, "rot13", "charset")
    await bad.cmd("")
    good = await Client.open(app.port)
    await good.read_until_prompt()
    app.manager.tick_elapsed(app.manager.seconds(11))      # both deadlines fall in one tick
    assert "took too long" in await good.read_until_closed()
    assert "took too long" in await bad.read_until_closed()
    await until(lambda: not app.sessions and app.connections.total == 0)


class Broken(Exception):
    pass


def break_writes(session) -> None:
    """Every write to this one connection raises from now on (whatever a
    client may yet find to make a write fail)."""
    def fail(*args, **kwargs):
        raise Broken("write refused")
    session.writer.write = fail
    session.writer.write_prompt = fail


async def test_a_connection_whose_writes_fail_obeys_every_rule_and_silences_nobody(casino_factory,
                                                                                   monkeypatch):
    import server.world.crier as crier
    monkeypatch.setattr(crier, "CROWD", 1)             # every room's speech goes through the crier
    app = await casino_factory(seed=3, operators=("admin",), limits={"login_timeout": 10})
    admin = await operator(app)
    # a seated player whose writes fail: kicked, and their bet follows the disconnect rule
    seated = await Client.open(app.port)
    await login(seated, "seated")
    await seated.cmd("north")
    await seated.cmd_expect("play craps", "joins the table")
    await seated.cmd_expect("bet pass 30", "Bet accepted")
    listener = await Client.open(app.port)
    await login(listener, "listener")
    await listener.cmd("north")
    speaker = await Client.open(app.port)
    await login(speaker, "speaker")
    await speaker.cmd("north")
    break_writes(app.online["seated"])
    # the room's speech still reaches everyone else
    await speaker.send("say still here")
    assert "still here" in plain(await listener.expect("still here"))
    await until(lambda: "seated" not in app.online)        # dropped: a disconnect like any other
    await app.tables["bank_craps"].idle()
    assert (await app.ledger.balance("seated")).wallet == 970
    assert app.seat_of("seated") is None
    # a second one: the operator's kick works on it
    victim = await Client.open(app.port)
    await login(victim, "victim")
    session = app.online["victim"]
    break_writes(session)
    assert "Kicked victim" in plain(await admin.cmd_expect("kick victim", "Kicked"))
    await until(lambda: "victim" not in app.online)
    # not logged in, failing, with a deadline in the same tick as another's
    waiting = [await Client.open(app.port) for _ in range(3)]
    for w in waiting:
        await w.read_until_prompt()
    anonymous = [s for s in app.sessions if s.account is None]
    break_writes(anonymous[0])
    app.manager.tick_elapsed(app.manager.seconds(11))
    closed = [s for s in anonymous if s.closed]
    assert len(closed) == 3
    await admin.close()
    await speaker.close()
    await listener.close()


async def test_shutdown_with_a_failing_connection_still_says_goodbye_to_everyone(casino_factory):
    app = await casino_factory()
    bad = await Client.open(app.port)
    await login(bad, "bad")
    good = await Client.open(app.port)
    await login(good, "good")
    break_writes(app.online["bad"])
    await app.stop("Closing time.")
    assert "Closing time" in plain(await good.read_until_closed())


async def test_environment_floods_keep_only_the_variables_read(casino_factory):
    app = await casino_factory()
    c = await Client.open(app.port)
    await c.read_until_prompt()
    c.send_raw(bytes([IAC, WILL, NEW_ENVIRON]))
    for batch in range(4):       # small: telnet commands cost their sender 32 times their size
        body = b"".join(bytes([VAR]) + f"JUNK{batch}_{i}".encode() + bytes([VALUE]) + b"v"
                        for i in range(10))
        c.send_raw(bytes([IAC, SB, NEW_ENVIRON, IS]) + body + bytes([VAR]) + b"TERM" + bytes([VALUE])
                   + b"x" * 100 + bytes([IAC, SE]))
    await c.cmd("look around")
    proto = next(iter(app.sessions)).writer.protocol
    assert not any(str(k).startswith("JUNK") for k in proto._extra)
    assert len(proto._extra["TERM"]) <= 64
    await c.close()


# --- item 6: operator names cannot be squatted ---------------------------

@pytest.fixture
async def live(tmp_path, monkeypatch):
    """A casino whose config/ and rooms/ are copies the test may edit."""
    import shutil
    from pathlib import Path

    from server.app import Casino
    from server.config.load import load_config
    from server.ledger import check
    ROOT = Path(__file__).resolve().parents[2]
    shutil.copytree(ROOT / "config", tmp_path / "config")
    shutil.copytree(ROOT / "rooms", tmp_path / "rooms")
    monkeypatch.chdir(tmp_path)
    config = load_config(Path("config"), Path("rooms"))
    app = Casino(config, tmp_path / "casino.db", seed=99, config_dir=Path("config"), rooms_dir=Path("rooms"))
    await app.start("127.0.0.1", 0, run_clock=False)
    yield app
    await app.stop()
    assert check(app.database).ok


async def test_a_player_who_took_a_name_later_listed_as_operator_gets_no_rights(live, caplog):
    from pathlib import Path
    squatter = await Client.open(live.port)
    await login(squatter, "boss")                       # a sign-up over telnet
    admin = await operator(live)
    text = Path("config/server.yaml").read_text()
    Path("config/server.yaml").write_text(text.replace("operators: [admin]", "operators: [admin, boss]"))
    with caplog.at_level(logging.INFO):
        out = plain(await admin.cmd_expect("reload", "Reload"))
    refusal = [line for line in out.splitlines() if "boss" in line]
    assert len(refusal) == 1 and "refused" in refusal[0] and "casino account create" in refusal[0]
    assert "Nothing changed" not in out
    assert any(getattr(r, "fields", {}).get("event") == "operator_refused" and r.fields["name"] == "boss"
               for r in caplog.records)
    for word in ("tables", "kick admin", "shutdown"):
        assert "No such command" in plain(await squatter.cmd_expect(word, "No such command"))
    await squatter.close()
    back = await Client.open(live.port)                 # and after logging in again
    await login(back, "boss", create=False)
    assert "No such command" in plain(await back.cmd_expect("tables", "No such command"))
    assert "bank_craps" in plain(await admin.cmd_expect("tables", "bank_craps"))  # the real operator keeps them
    await back.close()
    await admin.close()


async def test_accounts_from_before_origins_keep_their_trust_once(tmp_path):
    """An old file (no origin column): accounts named as operators then keep
    the rights; every other account counts as a player's."""
    import sqlite3

    from server.accounts.store import PLAYER, SERVER, AccountStore
    db = tmp_path / "old.db"
    con = sqlite3.connect(db)
    con.execute("CREATE TABLE players (name_key TEXT PRIMARY KEY, name TEXT NOT NULL, pwhash TEXT NOT NULL,"
                " prefs TEXT NOT NULL DEFAULT '{}', created REAL NOT NULL)")
    for name in ("admin", "boss"):
        con.execute("INSERT INTO players VALUES (?, ?, 'x', '{}', 0)", (name, name))
    con.commit()
    con.close()
    store = AccountStore(db, operators=("Admin",))
    assert (await store.get("admin")).origin == SERVER
    assert (await store.get("boss")).origin == PLAYER
    store.close()
    store = AccountStore(db, operators=("admin", "boss"))   # marked once: a later list changes nothing
    assert (await store.get("boss")).origin == PLAYER
    store.close()


# --- item 7: client-caused errors are logged once per connection per kind ----

GMCP = 201


async def test_deeply_nested_gmcp_is_logged_once_per_connection_never_a_traceback(casino_factory, caplog):
    app = await casino_factory(limits={"input_bytes_per_second": 10_000_000})
    c = await Client.open(app.port)
    await login(c, "nester")
    junk = bytes([IAC, SB, GMCP]) + b"Core.Hello " + b"[" * 5000 + b"]" * 5000 + bytes([IAC, SE])
    unknown = bytes([IAC, SB, 99]) + b"what" + bytes([IAC, SE])          # an option nobody agreed
    with caplog.at_level(logging.INFO):
        for _ in range(30):
            c.send_raw(junk + unknown)
        assert "Wallet: 1000" in plain(await c.cmd_expect("balance", "Wallet"))   # it still plays
    errors = [r for r in caplog.records if getattr(r, "fields", {}).get("event") == "client_error"]
    kinds = [r.fields["kind"] for r in errors]
    assert len(kinds) == len(set(kinds)) and kinds, kinds                    # once per kind
    assert any("RecursionError" in k for k in kinds), kinds
    assert not [r for r in caplog.records if r.exc_info or r.name.startswith("telnetlib3")
                and r.levelno >= logging.WARNING]
    assert len(caplog.records) < 40
    await c.close()


async def test_junk_web_frames_are_logged_once_per_connection(casino_factory, caplog):
    import aiohttp
    app = await casino_factory(web=True, limits={"input_bytes_per_second": 10_000_000})
    async with aiohttp.ClientSession() as http:
        async with http.ws_connect(f"http://127.0.0.1:{app.web_port}/ws") as ws:
            with caplog.at_level(logging.DEBUG):
                for _ in range(20):
                    await ws.send_str("[" * 5000)
                    await ws.send_str("{not json")
                await ws.send_str('{"t": "line", "d": "create webnest secret123"}')
                seen = ""
                while "Welcome, webnest" not in seen:
                    msg = await asyncio.wait_for(ws.receive(), 10)
                    assert msg.type == aiohttp.WSMsgType.TEXT, msg        # not closed on us
                    frame = msg.json()
                    seen += frame["d"] if frame.get("t") == "text" else ""   # data frames: Room.Info
    kinds = [r.fields["kind"] for r in caplog.records if getattr(r, "fields", {}).get("event") == "client_error"]
    assert sorted(kinds) == ["frame:JSONDecodeError", "frame:RecursionError"], kinds
    assert not [r for r in caplog.records if r.exc_info]


# --- item 8: digits, the WebSocket's Origin, names that are login words -----

FOREIGN = ["１０", "١٠", "¹⁰", "༡༠"]


@pytest.mark.parametrize("game, bet", [("craps", "bet pass {}"), ("roulette", "bet red {}"),
                                       ("alley", "bet {}")])
async def test_non_ascii_digits_are_refused_with_the_same_reason_at_every_table(casino_factory, game, bet):
    app = await casino_factory(seed=4)
    c = await Client.open(app.port)
    await login(c, f"digits{game}")
    for room in {"craps": ["north"], "roulette": ["north", "east"], "alley": ["down"]}[game]:
        await c.cmd(room)
    await c.cmd_expect(f"play {game}", {"craps": "joins the table", "roulette": "Welcome to roulette",
                                        "alley": "sits down"}[game])
    for digits in FOREIGN:
        out = plain(await c.cmd_expect(bet.format(digits), "digits 0-9"))
        assert f"'{digits}' is not a number here: type the digits 0-9" in out
    assert (await app.ledger.balance(f"digits{game}")).wallet == 1000       # nothing was staked
    await c.close()


async def test_the_websocket_origin_check_ignores_the_requests_own_host(casino_factory):
    import aiohttp
    app = await casino_factory(web=True)
    url = f"http://127.0.0.1:{app.web_port}"
    async with aiohttp.ClientSession() as http:
        # a DNS-rebinding page: its Origin and the Host its browser sends agree
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(f"{url}/ws", origin=f"http://rebind.example:{app.web_port}",
                                  headers={"Host": f"rebind.example:{app.web_port}"})
        for ours in (url, f"http://localhost:{app.web_port}"):
            async with http.ws_connect(f"{url}/ws", origin=ours) as ws:
                msg = await asyncio.wait_for(ws.receive(), 10)
                assert "Welcome" in msg.json()["d"]


@pytest.mark.parametrize("word", ["quit", "help", "create", "connect", "Exit"])
async def test_login_words_are_refused_as_new_names_with_a_reason(casino_factory, word):
    app = await casino_factory()
    c = await Client.open(app.port)
    await c.read_until_prompt()
    out = plain(await c.cmd(f"create {word} secret123"))
    assert f"The name {word} is a login command; pick another." in out
    assert await app.accounts.get(word) is None
    await c.close()


# --- item 4: silent connections cannot take every login slot ---------------

async def knock(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, bytes]:
    """A socket from `source` that sends nothing; returns what the server said
    first (telnet negotiation when let in, the reason when refused)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    try:
        first = await asyncio.wait_for(reader.read(200), 10)
    except ConnectionResetError:
        first = b""
    return reader, writer, first


async def web_player(port: int, source: str):
    """A browser's WebSocket from `source`."""
    import aiohttp
    from support.web import WebClient
    http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
    return WebClient(http, ws)


def shipped_limit(name: str) -> int:
    """A limit as config/server.yaml ships it."""
    from pathlib import Path

    from server.config.load import load_config
    root = Path(__file__).resolve().parents[2]
    return getattr(load_config(root / "config", root / "rooms").settings.limits, name)


async def test_silent_sockets_from_ten_addresses_leave_room_for_new_players(casino_factory):
    per_ip = shipped_limit("login_connections_per_ip")
    app = await casino_factory(web=True, limits={"login_connections_per_ip": per_ip})
    silent = [await knock(app.port, f"127.0.0.{2 + i % 10}") for i in range(200)]
    told = [first for _, _, first in silent if first.startswith(b"Too many")]
    assert len(told) == 200 - 10 * per_ip, len(told)
    assert all(b"are logging in" in t for t in told)
    assert app.connections.anonymous == 10 * per_ip
    assert all(app.connections.waiting_from(f"127.0.0.{2 + i}") == per_ip for i in range(10))
    player = await Client.open(app.port, source="127.0.0.12")
    assert "You have 1000 chips" in plain(await login(player, "newcomer"))
    browser = await web_player(app.web_port, "127.0.0.12")
    await browser.read_until_prompt()
    assert "Welcome, webcomer" in await browser.cmd("create webcomer secret123")
    # logged in, neither counts among those logging in; the silent ones still do
    assert app.connections.anonymous == 10 * per_ip and app.connections.waiting_from("127.0.0.12") == 0
    for _, writer, _ in silent:
        writer.transport.abort()
    await until(lambda: app.connections.anonymous == 0 and app.connections.total == 2)
    await player.close()
    await browser.close()


# --- item 5: the web port obeys the caps and closes idle and slow HTTP ------

async def http_get(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, path: str = "/") -> bytes:
    """One keep-alive request and its whole answer."""
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")))
    return head + await asyncio.wait_for(reader.readexactly(length), 10)


async def closed_by_server(reader: asyncio.StreamReader) -> bool:
    try:
        return await asyncio.wait_for(reader.read(65536), 10) == b""
    except ConnectionResetError:
        return True


async def test_idle_and_slow_http_connections_count_and_are_closed_in_seconds(casino_factory):
    app = await casino_factory(web=True, limits={"login_connections_per_ip": 25})
    per_ip = app.config.settings.limits.connections_per_ip
    timeout = app.config.settings.limits.http_timeout
    held, refused = [], []
    for i in range(3 * (per_ip + 5)):
        source = f"127.0.0.{2 + i % 3}"
        reader, writer = await asyncio.open_connection("127.0.0.1", app.web_port, local_addr=(source, 0))
        kind = ("silent", "slowloris", "keep-alive")[i // 3 % 3]
        if kind == "keep-alive":
            answer = await http_get(reader, writer)
        else:
            if kind == "slowloris":
                writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            await asyncio.sleep(0)
            answer = b""
        (refused if i >= 3 * per_ip else held).append((kind, reader, writer, answer))
    await until(lambda: app.connections.total == 3 * per_ip)     # every held socket counts
    # past the per-address cap: told why (the page's address would be refused too)
    for kind, reader, writer, answer in refused:
        if kind != "keep-alive":
            writer.write(b"\r\n" if kind == "slowloris" else b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = await asyncio.wait_for(reader.read(65536), 10)
        assert answer.startswith(b"HTTP/1.1 503") and b"Too many connections from your address" in answer
    # a new browser player, from elsewhere, gets in and logs in meanwhile
    browser = await web_player(app.web_port, "127.0.0.9")
    await browser.read_until_prompt()
    assert "Welcome, surfer" in await browser.cmd("create surfer secret123")
    # bytes trickling in do not extend a connection's deadline; the clock does it
    for _ in range(timeout - 1):
        for kind, reader, writer, answer in held:
            if kind == "slowloris":
                writer.write(b"X-a: b\r\n")
        app.manager.tick_elapsed(app.manager.seconds(1))
    await asyncio.sleep(0.05)
    assert app.connections.total == 3 * per_ip + 1
    app.manager.tick_elapsed(app.manager.seconds(1))
    for kind, reader, writer, answer in held:
        assert await closed_by_server(reader), kind
    await until(lambda: app.connections.total == 1 and app.connections.anonymous == 0)
    # the WebSocket, once open, keeps to the session's timeouts instead
    assert "Wallet: 1000" in await browser.cmd("balance")
    for _, _, writer, _ in held + refused:
        writer.transport.abort()
    await browser.close()


async def test_malformed_http_requests_are_logged_once_without_a_traceback(casino_factory, caplog):
    app = await casino_factory(web=True)
    with caplog.at_level(logging.DEBUG):
        for _ in range(10):
            reader, writer = await asyncio.open_connection("127.0.0.1", app.web_port)
            writer.write(b"GET / HTTP/1.1\r\nHost: x\r\nBad header\r\n\r\n")
            assert (await asyncio.wait_for(reader.read(65536), 10)).startswith(b"HTTP/1.0 400")
            writer.transport.abort()
    kinds = [r.fields["kind"] for r in caplog.records if getattr(r, "fields", {}).get("event") == "client_error"]
    assert kinds == ["http:BadHttpMessage"], kinds
    assert not [r for r in caplog.records if r.exc_info and r.levelno >= logging.INFO]


# --- items 2, 3: every frame and every telnet command is charged -----------

def handled_bound(app, group_cost: int, elapsed: float, burst: int, slack: int) -> int:
    """Groups a budget lets through in `elapsed` seconds."""
    rate = app.config.settings.limits.input_bytes_per_second
    return int((burst + rate * elapsed) / group_cost) + slack


async def test_tiny_websocket_frames_of_every_kind_are_charged(casino_factory):
    import aiohttp

    from server.net import web as web_edge
    app = await casino_factory(web=True)
    me = await web_player(app.web_port, "127.0.0.9")
    await me.read_until_prompt()
    await me.cmd("create steady secret123")
    floods = []
    for i in range(10):
        http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{2 + i % 2}", 0)))
        ws = await http.ws_connect(f"http://127.0.0.1:{app.web_port}/ws", autoping=False)
        await ws.receive()
        floods.append((http, ws))
    await until(lambda: len(app.sessions) == 11)
    started = asyncio.get_running_loop().time()
    groups = 200
    for _, ws in floods:
        # a resize marks how far the server got; empty text, binary and ping frames between
        for k in range(groups):
            await ws.send_str(json.dumps({"t": "cols", "n": 40 + k}))
            await ws.send_str("")
            await ws.send_bytes(b"")
            await ws.ping()
    assert "Wallet: 1000" in await me.cmd("balance")            # the player is answered meanwhile
    await asyncio.sleep(0.5)
    elapsed = asyncio.get_running_loop().time() - started
    rate = app.config.settings.limits.input_bytes_per_second
    bound = 40 + handled_bound(app, 4 * web_edge.FRAME_COST + 30, elapsed, rate, 2)
    handled = [s.naws_cols for s in app.sessions if s.account is None]
    assert len(handled) == 10 and max(handled) <= bound < 40 + groups - 1, (handled, bound)
    pongs = 0
    for _, ws in floods:
        while True:
            try:
                msg = await asyncio.wait_for(ws.receive(), 0.05)
            except asyncio.TimeoutError:
                break
            pongs += msg.type == aiohttp.WSMsgType.PONG
    assert pongs <= 10 * (bound - 40 + 2), pongs        # pings are answered within the budget too
    for http, ws in floods:
        await ws.close()
        await http.close()
    await me.close()


async def test_telnet_negotiation_is_charged_at_its_cost(casino_factory):
    from server.net import telnet as telnet_edge
    app = await casino_factory()
    me = await Client.open(app.port, source="127.0.0.9")
    await login(me, "patient")
    floods = [await Client.open(app.port, source=f"127.0.0.{2 + i % 2}") for i in range(10)]
    for f in floods:
        await f.read_until_prompt()
    started = asyncio.get_running_loop().time()
    groups = 200
    naws_ttype = [bytes([IAC, SB, 31, 0, 40 + k, 0, 40, IAC, SE])      # a resize marks how far it got
                  + bytes([IAC, DO, 1, IAC, 254, 1])                   # DO/DONT ECHO
                  + bytes([IAC, 252, 24, IAC, WILL, 24, IAC, SB, 24, 0]) + b"xterm" + bytes([IAC, SE])
                  for k in range(groups)]
    group_bytes = len(naws_ttype[0])
    for f in floods:
        f.negotiate = False
        f.send_raw(b"".join(naws_ttype))
    assert "Wallet: 1000" in plain(await me.cmd_expect("balance", "Wallet"))
    await asyncio.sleep(0.5)
    elapsed = asyncio.get_running_loop().time() - started
    cost = group_bytes * telnet_edge.HEAVY + 10 * telnet_edge.COMMAND_COST
    burst = max(app.config.settings.limits.input_bytes_per_second, telnet_edge.READER_LIMIT)
    slack = 2 + telnet_edge.COMMAND_PIECE // group_bytes
    bound = 40 + handled_bound(app, cost, elapsed, burst, slack)
    handled = [s.naws_cols or 0 for s in app.sessions if s.account is None]
    assert len(handled) == 10 and max(handled) <= bound < 40 + groups - 1, (handled, bound)
    for f in floods:
        f.writer.transport.abort()
    await me.close()


async def test_a_client_that_hangs_up_over_its_budget_is_let_go_at_once(casino_factory):
    """GMCP junk costs its sender minutes of budget; a client that sends that
    much and hangs up is not held open (its socket counted in the caps) while
    the server reads out what it left at the budget's pace. Found by the
    hostile soak (bench/hostile_soak.py): such sockets outlived their clients
    by up to login_timeout, and a logged-in one by idle_timeout."""
    app = await casino_factory(seed=5)
    junk = bytes([IAC, SB, GMCP]) + b"Core.Hello " + b"x" * 2000 + bytes([IAC, SE])
    seated = await Client.open(app.port, source="127.0.0.3")
    await login(seated, "junker")
    await seated.cmd("north")
    await seated.cmd_expect("play craps", "joins the table")
    await seated.cmd_expect("bet pass 30", "Bet accepted")
    gone = []
    for writer in (seated.writer,
                   (await asyncio.open_connection("127.0.0.1", app.port, local_addr=("127.0.0.2", 0)))[1]):
        writer.write(junk * 15)           # 30 KB of commands: about 90 s of a 16384 budget
        await writer.drain()
        gone.append(writer)
    await until(lambda: len(app.sessions) == 2 and all(s.writer.protocol._pauses for s in app.sessions))
    for writer in gone:
        writer.write_eof()                # the client hangs up (a FIN after its junk)
    await until(lambda: app.connections.total == 0, 5)
    await until(lambda: "junker" not in app.online)
    await app.tables["bank_craps"].idle()
    assert (await app.ledger.balance("junker")).wallet == 970        # a disconnect: its rule applies
    for writer in gone:
        writer.transport.abort()


async def test_closed_connections_are_not_kept(casino_factory):
    """Connections that came and went leave nothing behind: telnetlib3 would
    keep the last 1000 (their sessions and what they sent) for a
    wait_for_client() the casino never calls. Found by the hostile soak,
    whose line floods reconnect all the time: the server's RSS grew by tens
    of MiB until 1000 dead connections were kept."""
    import gc
    import weakref
    app = await casino_factory()
    gone: list[weakref.ref] = []

    def peer(session) -> tuple[str, int] | None:
        raw = session.writer.protocol._raw           # None once the socket is released
        return tuple(raw.get_extra_info("peername")[:2]) if raw is not None else None

    async def flood(i: int) -> None:
        source = f"127.0.0.{2 + i % 5}"
        reader, writer = await asyncio.open_connection("127.0.0.1", app.port, local_addr=(source, 0))
        writer.write(b"look\r\nsay hi\r\n" * 1000)
        assert await asyncio.wait_for(reader.read(65536), 10)
        here = tuple(writer.get_extra_info("sockname")[:2])    # address and port: five sources share ports
        await until(lambda: any(peer(s) == here for s in app.sessions))
        gone.extend(weakref.ref(s) for s in app.sessions if peer(s) == here)
        writer.transport.abort()

    for batch in range(6):
        await asyncio.gather(*(flood(batch * 5 + k) for k in range(5)))
    await until(lambda: not app.sessions and app.connections.total == 0)
    await asyncio.sleep(0.1)              # the shells' last turn
    fresh = await Client.open(app.port)        # telnetlib3 prunes its list of clients as one comes
    await fresh.read_until_prompt()
    gc.collect()
    assert len(gone) == 30 and [r for r in gone if r() is not None] == []
    await fresh.close()

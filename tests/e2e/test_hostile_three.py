"""Hostile clients, part three (issue 42), against the shipped two-process server:
`python -m server` (the portal) and its game process, real telnet and WebSocket
clients on 127.0.0.1, an SQLite file; `ledger check` ok after each.

1. 40 anonymous sockets each answer TTYPE with 9,000 bytes, then `casino
   restart`: the new game process took its hello (and every socket's kept
   state) and answers everyone; a new connection gets its banner.
2. A logged-in player sends one 360,000-byte TTYPE IS: the game process reads
   on (the fact is cut to 64 characters when received), that player and a new
   one are answered, and a restart after it keeps them.
3. A browser player `say`s a lone surrogate ("\\ud800", escaped in the page's
   JSON frame): the other browser and the telnet player in the room hear it as
   U+FFFD and go on hearing everything.

The per-connection input budget is raised here (input_bytes_per_second), so a
client's long subnegotiation is parsed in a second, not the minutes the
shipped budget spreads it over: the attacks are the same, sooner."""
from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

from support import attacks
from support.siblings import sibling
from support.telnet import Client, login, plain
from support.web import WebClient

portal_helpers = sibling("portal_helpers", Path(__file__).with_name("test_portal.py"))
PASSWORD, close_all = portal_helpers.PASSWORD, portal_helpers.close_all
crowd_config, portal_server, stopped_cleanly = (portal_helpers.crowd_config, portal_helpers.portal_server,
                                                portal_helpers.stopped_cleanly)
FAST_BUDGET = 40_000_000       # bytes' worth a second: a 360,000-byte TTYPE costs 17.3 million


def fast_input_config(work: Path) -> Path:
    config = crowd_config(work)
    server = config / "server.yaml"
    text, n = re.subn(r"(\n\s+input_bytes_per_second:) \S+", rf"\1 {FAST_BUDGET}", server.read_text())
    assert n == 1
    server.write_text(text)
    return config


async def until_logged(server, text: str, within: float = 30.0) -> None:
    """Until the server's log holds `text`: a guard for a real process, not game time."""
    deadline = time.monotonic() + within
    while text not in server.log_text():
        assert time.monotonic() < deadline, f"{text!r} never logged: {server.log_text()[-2000:]}"
        await asyncio.sleep(0.05)


async def answered(client: Client) -> str:
    """A bare Enter gets a reply and a prompt (an anonymous client's: the Name: prompt)."""
    return plain(await client.cmd("", timeout=30))


async def test_forty_long_ttypes_then_a_restart_everyone_is_answered(tmp_path):
    with portal_server(tmp_path, fast_input_config) as server:
        anon = await attacks.long_ttypes(server.port, 40)
        try:
            player = await Client.open(server.port)
            assert "You have 1000 chips" in plain(await login(player, "keeper", PASSWORD))
            for c in anon:
                assert "Name:" in await answered(c)
            await until_logged(server, "kind=long_ttype")
            first_game = server.game_pid()
            await attacks.restart_from_the_shell(server.pid_file)
            assert "You are logged in again." in plain(await player.expect("You are logged in again.", timeout=60))
            for c in anon:
                seen = plain(await c.expect("Please log in again.", timeout=60))
                assert "The casino is restarting" in seen, seen
                assert "Name:" in await answered(c)
            assert server.game_pid() != first_game
            assert "Exits:" in plain(await player.cmd_expect("look", "Exits:"))
            fresh = await Client.open(server.port)
            assert "You have 1000 chips" in plain(await login(fresh, "fresh", PASSWORD))
            anon.append(fresh)
            said = plain(await anon[0].cmd(f"create longt {PASSWORD}", timeout=30))
            assert "You have 1000 chips" in said, said
            anon.append(player)
        finally:
            await close_all(anon)
        stopped_cleanly(server)
    log = server.log_text()
    assert "link_error" not in log and "link_message_too_long" not in log, log[-3000:]


async def test_one_huge_ttype_from_a_player_leaves_the_game_process_reading(tmp_path):
    with portal_server(tmp_path, fast_input_config) as server:
        clients = []
        try:
            hostile = await Client.open(server.port)
            clients.append(hostile)
            assert "You have 1000 chips" in plain(await login(hostile, "hostile", PASSWORD))
            await hostile.cmd_expect("north", "Exits:")
            await hostile.cmd_expect("play craps", "joins the table")
            await hostile.cmd_expect("bet pass 10", "Bet accepted: pass 10.")
            attacks.huge_ttype(hostile)
            await until_logged(server, "length=360000")
            assert "Exits:" in plain(await hostile.cmd_expect("look", "Exits:", timeout=30))
            other = await Client.open(server.port)
            clients.append(other)
            assert "You have 1000 chips" in plain(await login(other, "other", PASSWORD))
            await attacks.restart_from_the_shell(server.pid_file)
            for c in clients:
                assert "You are logged in again." in plain(await c.expect("You are logged in again.", timeout=60))
            assert "Wallet: 1000 chips." in plain(await hostile.cmd_expect("balance", "Wallet:"))
            assert "Exits:" in plain(await other.cmd_expect("look", "Exits:"))
        finally:
            await close_all(clients)
        stopped_cleanly(server)


async def test_a_lone_surrogate_said_in_a_browser_silences_nobody(tmp_path):
    with portal_server(tmp_path) as server:
        speaker, listener = await WebClient.open(server.web_port), await WebClient.open(server.web_port)
        telnet = await Client.open(server.port)
        try:
            for name, web in (("speaker", speaker), ("listener", listener)):
                await web.read_until_prompt()
                assert "You have 1000 chips" in plain(await web.cmd(f"create {name} {PASSWORD}", timeout=30))
            assert "You have 1000 chips" in plain(await login(telnet, "telly", PASSWORD))
            await attacks.lone_surrogate(speaker)
            for reader in (listener, telnet):
                heard = plain(await reader.expect("odd", timeout=30))
                assert attacks.SURROGATE_HEARD in heard, heard
            assert attacks.SURROGATE_HEARD in plain(await speaker.expect("odd", timeout=30))
            await speaker.send("say still here")
            for reader in (listener, telnet):
                assert "still here" in plain(await reader.expect("still here", timeout=30))
            assert "Exits:" in plain(await listener.cmd("look", timeout=30))
            await listener.send("say and me")
            assert "and me" in plain(await speaker.expect("and me", timeout=30))
            assert not speaker.closed and not listener.closed
        finally:
            await close_all([speaker, listener, telnet])
        stopped_cleanly(server)
    log = server.log_text()
    assert "web_writer_error" not in log and "link_error" not in log, log[-3000:]

"""Shards, for real: `casino serve` with two shards on PostgreSQL, a portal and two
game processes, telnet and browser players walking between them.

A walk into a room the other shard hosts is a handoff: the player reads the new
room and nothing else, the rooms on both sides hear the walk as any walk, the
lines typed behind the walk run on the new shard in order, and the wallet goes
with the player (the new shard claims it). A seat at a table does not: the walk
is refused with the reason. A shard killed (kill -9) is restarted alone: its
players are logged in again where they were, the other shard's notice nothing;
`casino restart` restarts every shard and drops nobody.
After the casino stops, every wallet is its
starting chips and `ledger check` is ok across both shards' houses."""
from __future__ import annotations

import contextlib
import os
import signal
import asyncio
import time
from pathlib import Path

import pytest

from support.nats import binary
from support.postgres import bindir
from support.siblings import sibling
from support.telnet import Client, login, plain
from support.web import WebClient

portal_helpers = sibling("portal_helpers", Path(__file__).with_name("test_portal.py"))
ROOT, Server, crowd_config = portal_helpers.ROOT, portal_helpers.Server, portal_helpers.crowd_config
free_port, ledger_check = portal_helpers.free_port, portal_helpers.ledger_check

pytestmark = pytest.mark.skipif(bindir() is None or binary() is None,
                                reason="needs PostgreSQL and nats-server (Debian packages)")

# the lobby and the craps rooms on one shard; the parlour, the alley and roulette on the other
SHARDS = {"floor": ["lobby", "solo", "6184", "6185"], "back": ["parlour", "alley", "6186", "cardroom"]}


def shard_config(work: Path, url: str, bus: str) -> Path:
    config = crowd_config(work)
    server = config / "server.yaml"
    lines = [f"  {shard}: [{', '.join(repr(r) for r in rooms)}]" for shard, rooms in SHARDS.items()]
    text = server.read_text().replace("server:\n", "server:\n  shards:\n" + "\n".join(
        "  " + line for line in lines) + f"\n  bus: {bus}\n", 1)
    text = text.replace("  database: sqlite:///data/casino.db", f"  database: {url}")
    server.write_text(text)
    return config


@contextlib.contextmanager
def sharded_server(work: Path, url: str, bus: str):
    with portal_helpers.serving(work, url, ["--config", str(shard_config(work, url, bus))],
                                within=60) as server:
        yield server


def shard_pid(server: Server, shard: str) -> int:
    """The pid of `shard`'s game process (its command line names it)."""
    deadline = time.monotonic() + 30
    while True:
        for pid in server.children():
            with contextlib.suppress(OSError):
                argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
                if b"--shard" in argv and argv[argv.index(b"--shard") + 1] == shard.encode():
                    return pid
        assert time.monotonic() < deadline, f"no game process of shard {shard}"
        time.sleep(0.05)         # a real process starting, not game time


def flat(text: str) -> str:
    return " ".join(plain(text).split())


async def test_walks_across_shards_are_handoffs_and_every_chip_stays(tmp_path, postgres, broker):
    url = postgres.create_database()
    try:
        with sharded_server(tmp_path, url, broker.url) as server:
            assert len(server.children()) == 2          # a game process per shard
            alice, bob = await Client.open(server.port), await Client.open(server.port)
            web = await WebClient.open(server.web_port)
            try:
                assert "You have 1000 chips" in plain(await login(alice, "alice"))
                assert "You have 1000 chips" in plain(await login(bob, "bob"))
                await web.read_until_prompt()
                assert "You have 1000 chips" in await web.cmd("create carol secret123")
                await alice.expect("carol arrives")
                await bob.expect("carol arrives")

                # into the other shard: the new room and nothing else; the lobby hears her go
                reply = plain(await alice.cmd("west"))
                assert reply.startswith("The Pig Parlour"), repr(reply)    # on the walk's own line, as any walk
                said = flat(reply)
                assert "logged in again" not in said and "You have" not in said, said
                assert "restarting" not in said.lower(), said
                assert "alice leaves west." in flat(await bob.expect("alice leaves west"))
                assert "Wallet: 1000 chips." in flat(await alice.cmd("balance"))   # claimed there

                # lines typed behind a walk run on the new shard, in order, none lost
                alice.send_raw(b"east\r\nlook\r\nbalance\r\nsay back\r\n")
                seen = ""
                while "You say" not in plain(seen):
                    seen += await alice.read_until_prompt(timeout=30)
                text = flat(seen)
                assert text.count("The Lobby") == 2 and text.index("Wallet: 1000") > text.rindex("The Lobby"), text
                assert "alice arrives from the west." in flat(await bob.expect("alice arrives"))

                # the browser page's player walks over and back, lines in order too
                await web.expect("alice arrives")
                await web.send("west")
                assert "The Pig Parlour" in flat(await web.expect("Pig Parlour", timeout=30))
                await web.send("east")
                await web.send("balance")
                seen = await web.expect("Wallet:", timeout=30)
                assert flat(seen).index("The Lobby") < flat(seen).index("Wallet: 1000"), seen

                # a seat does not walk: refused with the reason, and once up, she goes
                await alice.expect("carol arrives from the west")
                assert "Bank Craps" in flat(await alice.cmd_expect("north", "Exits:"))
                await alice.cmd_expect("play", "bank_craps")
                said = flat(await alice.cmd("east"))
                assert "You are seated at bank_craps in Bank Craps" in said and "'leave'" in said, said
                assert "Single-Zero Roulette" not in said
                await alice.cmd("leave")
                assert flat(await alice.cmd("east")).startswith("Single-Zero Roulette")
                assert "Wallet: 1000 chips." in flat(await alice.cmd("balance"))

                # kill -9 of one shard: its players are told and logged in again where they
                # were; a player of the other shard reads nothing of it and is answered
                first = shard_pid(server, "back")
                os.kill(first, signal.SIGKILL)
                said = flat(await alice.expect("You are logged in again.", timeout=60))
                assert "The casino restarted after a failure." in said, said
                assert "Single-Zero Roulette" in said, said
                assert shard_pid(server, "back") != first
                said = flat(await bob.cmd_expect("balance", "Wallet:", timeout=30))
                assert "Wallet: 1000 chips." in said and "restart" not in said.lower(), said
                assert flat(await alice.cmd_expect("west", "Exits:", timeout=30)).startswith("Bank Craps")

                # `casino restart` (SIGUSR1 to the portal) restarts every shard; nobody is dropped
                pids = {shard: shard_pid(server, shard) for shard in SHARDS}
                os.kill(server.proc.pid, signal.SIGUSR1)
                for client, room in ((alice, "Bank Craps"), (bob, "The Lobby")):
                    said = flat(await client.expect("You are logged in again.", timeout=60))
                    assert room in said, said
                assert all(shard_pid(server, shard) != pid for shard, pid in pids.items())
                assert "Wallet: 1000 chips." in flat(await bob.cmd_expect("balance", "Wallet:", timeout=30))
            finally:
                for c in (alice, bob, web):
                    await c.close()
            assert server.stop() == 0
        report = ledger_check(url)
        assert report["ok"], report
        log = server.log_text()
        assert log.count("event=handoff") == 6, log[-3000:]      # the seated walk stayed
        assert "Traceback" not in log, log[-5000:]
    finally:
        postgres.drop_database(url)


async def test_casino_serve_starts_the_broker_it_is_configured_with(tmp_path, postgres):
    """`server.bus` on this machine's loopback, nothing serving it: `casino serve`
    starts nats-server there, the words cross the shards on it, and it stops with
    the casino."""
    url = postgres.create_database()
    try:
        with sharded_server(tmp_path, url, f"nats://127.0.0.1:{free_port()}") as server:
            alice, bob = await Client.open(server.port), await Client.open(server.port)
            try:
                await login(alice, "alice")
                await login(bob, "bob")
                await alice.expect("bob arrives")
                assert "The Pig Parlour" in flat(await alice.cmd_expect("west", "Exits:"))   # the back shard
                deadline = time.monotonic() + 30
                while "2 people in the casino" not in (said := flat(await bob.cmd("who"))):
                    assert time.monotonic() < deadline, said
                    await asyncio.sleep(0.1)      # a real broker's subjects arriving, not game time
                assert "alice The Pig Parlour" in said, said
            finally:
                await alice.close()
                await bob.close()
            [started] = [line for line in server.log_text().splitlines() if "event=broker_started" in line]
            broker = int(started.rsplit("pid=", 1)[1].split()[0])
            assert server.stop() == 0
            assert not Path(f"/proc/{broker}").exists() or b"Z" in Path(f"/proc/{broker}/stat").read_bytes()
        report = ledger_check(url)
        assert report["ok"] and report["open_holds"] == 0, report
    finally:
        postgres.drop_database(url)

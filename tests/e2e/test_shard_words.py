"""The words that cross shards, for real: two shards on PostgreSQL and a real NATS
broker, telnet players on both.

`who` lists everyone on every shard; `tell` and `reply` reach a player on the
other shard; an operator's `grant`, `kick`, `announce`, `close`, `reload` and
`restart` (of one shard, and of all) act where the player or the room is; a
second login of an account on another shard closes the first. With the broker
stopped, each of these words says why in one line and the tables play on; with
it back, they work again. After all of it, `ledger check` is ok."""
from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from pathlib import Path

import pytest

from support.nats import Broker, binary
from support.postgres import bindir
from support.siblings import sibling
from support.telnet import Client, login


shards = sibling("shard_helpers", Path(__file__).with_name("test_shards.py"))
portal = sys.modules["portal_helpers"]
sharded_server, shard_pid, flat = shards.sharded_server, shards.shard_pid, shards.flat

pytestmark = pytest.mark.skipif(bindir() is None or binary() is None,
                                reason="needs PostgreSQL and nats-server (Debian packages)")


@contextlib.asynccontextmanager
async def casino(work: Path, postgres, broker: Broker, operator: bool = False):
    """Two shards on a database of their own; afterwards every client closed, the
    casino stopped cleanly, `ledger check` ok and no settlement refused in the log."""
    url = postgres.create_database()
    clients: list[Client] = []
    try:
        if operator:
            made = portal.cli("account", "create", "admin", "--database", url,
                              stdin=f"{portal.OPERATOR_PASSWORD}\n")
            assert made.returncode == 0, made.stderr
        with sharded_server(work, url, broker.url) as server:
            try:
                yield server, clients
            finally:
                for c in clients:
                    await c.close()
            assert server.stop() == 0
        report = portal.ledger_check(url)
        assert report["ok"], report
        log = server.log_text()
        assert "settlement_refused" not in log and "Traceback" not in log, log[-5000:]
    finally:
        postgres.drop_database(url)


async def until(client: Client, line: str, wanted: str, within: float = 30) -> str:
    """Send `line` until its reply has `wanted` (a real broker reconnecting; no game time)."""
    deadline = time.monotonic() + within
    while True:
        said = flat(await client.cmd(line))
        if wanted in said or time.monotonic() > deadline:
            return said
        await asyncio.sleep(0.1)      # a real broker reconnecting, not game time


async def test_words_cross_between_shards_and_a_broker_away_costs_one_line(tmp_path, postgres, broker):
    async with casino(tmp_path, postgres, broker, operator=True) as (server, clients):
        admin, bob, alice = [await Client.open(server.port) for _ in range(3)]
        clients += [admin, bob, alice]
        await login(admin, "admin", portal.OPERATOR_PASSWORD, create=False)
        await login(bob, "bob")
        await login(alice, "alice")
        assert flat(await alice.cmd("west")).startswith("The Pig Parlour")   # to the back shard

        said = await until(bob, "who", "3 people")
        assert "3 people in the casino:" in said, said
        assert "alice The Pig Parlour" in said and "bob The Lobby" in said, said
        assert "admin The Lobby" in said, said
        assert "1 person whose name starts with 'al': alice The Pig Parlour" in flat(
            await bob.cmd_expect("who al", "1 person"))

        # tell and reply across the shards
        assert 'You tell alice, "nice table"' in flat(await bob.cmd_expect("tell alice nice table", "You tell"))
        assert 'bob tells you, "nice table"' in flat(await alice.expect("bob tells you"))
        assert 'You tell bob, "thanks"' in flat(await alice.cmd_expect("reply thanks", "You tell"))
        assert 'alice tells you, "thanks"' in flat(await bob.expect("alice tells you"))
        assert "zed is not connected." in flat(await bob.cmd_expect("tell zed hello", "zed"))

        # an operator's words reach the other shard's player and rooms
        assert "Granted 50 chips to alice." in flat(await admin.cmd_expect("grant alice 50 welcome", "ranted"))
        assert "An operator granted you 50 chips (welcome)." in flat(await alice.expect("granted you"))
        assert "Wallet: 1050 chips." in flat(await alice.cmd_expect("balance", "Wallet"))
        # top and stats read the one ledger: the same wherever the player stands
        here, there = flat(await bob.cmd_expect("top", "alice")), flat(await alice.cmd_expect("top", "alice"))
        assert "1,050" in here or "1050" in here, here
        assert here.replace("* ", "") == there.replace("* ", ""), (here, there)   # * marks the asker
        assert "alice" in flat(await bob.cmd_expect("stats alice", "alice"))
        assert "Announced to 3 players." in flat(await admin.cmd_expect("announce drinks are on the house", "Announced"))
        for client in (alice, bob):
            assert "*** admin announces: drinks are on the house ***" in flat(
                await client.expect("announces"))
        said = flat(await admin.cmd_expect("close alley", "Room alley"))
        assert said.startswith("Room alley closed; refunded and closed tables: alley_craps."), said
        said = flat(await admin.cmd_expect("reload", "shard", timeout=30))
        assert "The back shard reloaded too." in said, said

        # a second login on the door's shard closes the first, on the back shard
        again = await Client.open(server.port)
        clients.append(again)
        said = flat(await login(again, "alice", create=False))
        assert said.startswith("You took over your earlier connection. You have 1050 chips"), said
        assert "The Pig Parlour" in said, said          # back where she was, on the back shard
        assert "connected from elsewhere" in flat(await alice.read_until_closed())
        assert "Wallet: 1050 chips." in flat(await again.cmd_expect("balance", "Wallet"))

        # kick, to the back shard; restart of that shard alone, then of all
        assert "Kicked alice." in flat(await admin.cmd_expect("kick alice", "ick"))
        assert "disconnected by an operator" in flat(await again.read_until_closed())
        carol = await Client.open(server.port)
        clients.append(carol)
        await login(carol, "carol")
        assert flat(await carol.cmd("west")).startswith("The Pig Parlour")
        back, floor = shard_pid(server, "back"), shard_pid(server, "floor")
        assert "The back shard is restarting." in flat(await admin.cmd_expect("restart shard back", "restart"))
        assert "You are logged in again." in flat(await carol.expect("logged in again", timeout=60))
        assert shard_pid(server, "back") != back and shard_pid(server, "floor") == floor
        said = flat(await admin.cmd_expect("restart", "Restarting now"))
        assert "The back shard is restarting." in said and "Restarting now" in said, said
        for client in (admin, bob, carol):
            await client.expect("logged in again", timeout=60)
        assert shard_pid(server, "floor") != floor

        # the broker away: one line for each word, the tables play on; back, they work
        broker.stop()
        said = await until(bob, "tell carol still there?", "bus is down")
        assert "carol could not be told: the casino's message bus is down" in said, said
        said = flat(await bob.cmd_expect("who", "did not answer"))
        assert "The back rooms did not answer just now" in said and "bob" in said, said
        assert "Wallet: 1000 chips." in flat(await bob.cmd_expect("balance", "Wallet"))
        broker.start()
        said = await until(bob, "tell carol hello again", 'You tell carol')
        assert said.startswith('You tell carol, "hello again"'), said
        assert 'bob tells you, "hello again"' in flat(await carol.expect("hello again"))


async def test_a_login_goes_where_its_chips_ride(tmp_path, postgres, broker):
    """A roulette bet rides after its player quits (docs/play-roulette.md); logging in again at the
    door's shard sends the player to the wheel's shard, which settles the bet into
    the wallet it still owns: no settlement refused, every chip where it should be."""
    async with casino(tmp_path, postgres, broker) as (server, clients):
        dave = await Client.open(server.port)
        clients.append(dave)
        await login(dave, "dave")
        await dave.cmd_expect("north", "Exits:")
        assert flat(await dave.cmd_expect("east", "Exits:")).startswith("Single-Zero Roulette")
        await dave.cmd_expect("play roulette", ">")
        assert "Bet accepted: red 10." in flat(await dave.cmd_expect("bet red 10", "Bet"))
        await dave.send("quit")
        await dave.read_until_closed()
        again = await Client.open(server.port)        # to the door: the floor shard
        clients.append(again)
        said = flat(await login(again, "dave", create=False))
        assert said.startswith("Your chips are still in play at a table here, so you log in here. "
                               "You have 990 chips."), said
        assert "Single-Zero Roulette" in said, said
        said = flat(await again.cmd_expect("play roulette", "still on the layout"))
        assert "Your 1 bet still on the layout is yours again." in said, said
        await again.cmd_expect("bet black 10", "Bet accepted")
        await again.cmd_expect("spin", "No more bets")
        said = await until(again, "balance", "Wallet:")
        while "Held at roulette" in said:      # the ball drops 3 s after the spin (real time)
            await asyncio.sleep(0.1)
            said = await until(again, "balance", "Wallet:")
        wallet = int(said.split("Wallet: ")[1].split()[0])
        assert wallet in (980, 990, 1000), said    # zero, la partage, or red or black
        assert server.log_text().count("event=login_sent") == 1 and "why=@chips" in server.log_text()



async def test_a_frozen_shard_that_lost_a_wallet_cannot_write_it(tmp_path, postgres, broker):
    """SIGSTOP of the shard a player is on, with the broker away (so nothing can
    tell it); the player logs in again at the door's shard, which claims the
    wallet. Woken, the frozen shard handles the stake its player had typed: the
    batch finds the wallet's epoch moved on, is rolled back, and the stake is
    refused; the wallet is untouched and `ledger check` ok."""
    async with casino(tmp_path, postgres, broker) as (server, clients):
        erin = await Client.open(server.port)
        clients.append(erin)
        await login(erin, "erin")
        await erin.cmd_expect("north", "Exits:")
        assert flat(await erin.cmd_expect("east", "Exits:")).startswith("Single-Zero Roulette")   # back
        await erin.cmd_expect("play roulette", "Welcome to roulette")
        back = shard_pid(server, "back")
        broker.stop()
        os.kill(back, signal.SIGSTOP)
        try:
            erin.send_raw(b"bet red 10\r\n")             # waits in the kernel for the frozen shard
            again = await Client.open(server.port)       # the door: the floor shard
            clients.append(again)
            said = flat(await login(again, "erin", create=False))
            assert "You have 1000 chips." in said and "The Lobby" in said, said
        finally:
            os.kill(back, signal.SIGCONT)
        said = flat(await erin.expect("cashier", timeout=30))
        assert "the cashier could not take it" in said, said
        assert "Wallet: 1000 chips." in flat(await again.cmd_expect("balance", "Wallet"))
        assert "ledger wallets taken by another shard count=1" in server.log_text()
        broker.start()

"""The whole shape at once: three shards, two portals, PostgreSQL and NATS, and a fault
of each kind in turn, with 40 telnet and 5 browser players.

The rooms are laid so that every pair of shards shares a door: `floor` (the lobby,
the quiet table), `craps` (bank craps, the variants, roulette) and `back` (the
parlour, the alley), with a door between the variants and the parlour added for
the test. The walkers go round lobby -> bank craps -> variants -> parlour ->
lobby (floor->craps, craps->back, back->floor); six players sit at bank craps
with a pass bet riding. Then, one after another: a kill -9 of the back shard, a
SIGSTOP of the craps shard, one portal killed, the broker stopped and started,
PostgreSQL stopped and started. After each, the players not hit play on and read
nothing of it, those hit come back to their chips, and at the end every wallet
is what was staked and refunded, `ledger check` ok (a wallet equals its entries,
no hold closed twice, conservation across the three houses)."""
from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import signal
import time
from pathlib import Path

import pytest

from support.nats import binary
from support.postgres import bindir
from support.siblings import sibling
from support.telnet import Client, login, plain
from support.web import WebClient


ph = sibling("portal_helpers", Path(__file__).with_name("test_portal.py"))
pp = sibling("portals_helpers", Path(__file__).with_name("test_portals.py"))

pytestmark = pytest.mark.skipif(bindir() is None or binary() is None,
                                reason="needs PostgreSQL and nats-server (Debian packages)")

SHARDS = {"floor": ["lobby", "solo"], "craps": ["6184", "6185", "6186"], "back": ["parlour", "alley", "cardroom"]}
ROUND = [("north", "Bank Craps"), ("west", "Craps Variants"), ("south", "The Pig Parlour"),
         ("east", "The Lobby")]
TELNET, WEB, STAKERS = 40, 5, 6
STAKE = 10


def rooms_with_a_back_door(work: Path) -> Path:
    rooms = work / "rooms"
    shutil.copytree(ph.ROOT / "rooms", rooms)
    for room, door in (("parlour", '  north: "6184"\n'), ("6184", "  south: parlour\n")):
        path = rooms / f"{room}.yaml"
        path.write_text(path.read_text().replace("exits:\n", "exits:\n" + door, 1))
    return rooms


def three_shards_config(work: Path, url: str, bus: str) -> Path:
    config = ph.crowd_config(work)
    server = config / "server.yaml"
    shards = "".join(f"    {name}: [{', '.join(repr(r) for r in rooms)}]\n" for name, rooms in SHARDS.items())
    text = server.read_text().replace("server:\n", f"server:\n  portals: 2\n  bus: {bus}\n  shards:\n{shards}", 1)
    server.write_text(text.replace("  database: sqlite:///data/casino.db", f"  database: {url}"))
    return config


@contextlib.contextmanager
def whole_casino(work: Path, url: str, bus: str):
    args = ["--config", str(three_shards_config(work, url, bus)), "--rooms", str(rooms_with_a_back_door(work))]
    with ph.serving(work, url, args, pp.Portals, within=60) as server:
        yield server


def shard_pid(server, shard: str) -> int:
    for pid in server.children():
        argv = server._argv(pid).split(b"\0")
        if b"--shard" in argv and argv[argv.index(b"--shard") + 1] == shard.encode():
            return pid
    raise AssertionError(f"no game process of shard {shard}")


async def make(server, i: int, web: bool):
    name = f"{'w' if web else 't'}{i:02d}"
    if web:
        client = await WebClient.open(server.web_port)
        await client.read_until_prompt()
        said = await client.cmd(f"create {name} {ph.PASSWORD}", timeout=60)
    else:
        client = await Client.open(server.port, ttype="dumb")
        said = await login(client, name, ph.PASSWORD)
    assert "You have 1000 chips" in plain(said), said
    return ph.Player(name, client, "The Lobby")


async def walk_round(p) -> None:
    """Once round every pair of shards; each walk shows its room (and no restart)."""
    for way, room in ROUND:
        seen = ph.flat(await p.do(way, f"{room} "))
        assert "restarting" not in seen.lower(), (p.name, seen)
        p.room = room


async def stake(p) -> None:
    await p.do("north", "Bank Craps")
    p.room = "Bank Craps"
    await p.do("play craps", "joins the table")
    await p.do(f"bet pass {STAKE}", f"Bet accepted: pass {STAKE}.")
    p.staked = True


async def playing_on(p, quiet: bool = True) -> None:
    """`look` shows the player's room and `balance` the wallet they should have;
    `quiet`: nothing read on the way says the casino restarted."""
    look = await p.look()
    assert p.room in look, (p.name, p.room, look)
    balance = ph.flat(await p.do("balance", "Wallet:"))
    want = 1000 - STAKE if p.staked else 1000
    assert f"Wallet: {want} chips." in balance, (p.name, balance)
    if quiet:
        assert "restarting" not in (look + balance).lower(), (p.name, look, balance)


async def every(players, step, limit: int = 16) -> None:
    await ph.gather_bounded([step(p) for p in players], limit=limit)


async def until(p, line: str, wanted: str, *answered: str, within: float = 30) -> str:
    """`line` again until its reply has `wanted` (a real broker coming back); each
    reply read up to one of `answered` (one is in every reply), so none is left unread."""
    deadline = time.monotonic() + within
    while True:
        await p.client.send(line)
        said = ""
        while not any(a in said for a in answered):
            said = ph.flat(said + " " + plain(await p.client.read_until_prompt(timeout=60)))
        if wanted in said or time.monotonic() > deadline:
            return said
        await asyncio.sleep(0.2)      # a real server reconnecting, not game time


async def test_three_shards_two_portals_and_a_fault_of_each_kind(tmp_path, cluster, broker):
    url = cluster.create_database()
    with whole_casino(tmp_path, url, broker.url) as server:
        players = await ph.gather_bounded([make(server, i, False) for i in range(TELNET)]
                                          + [make(server, i, True) for i in range(WEB)], limit=12)
        try:
            assert len(server.portal_pids()) == 2 and len(server.children()) == 5
            held = pp.by_portal(server, players)
            assert all(len(ps) >= 3 for ps in held.values()), {k: len(v) for k, v in held.items()}
            stakers = [p for p in players if not p.web][:STAKERS]
            walkers = [p for p in players if p not in stakers]
            await every(stakers, stake)

            # walks between every pair of shards, on both portals, while the bets ride
            await every(walkers, walk_round)
            await every(walkers, walk_round)
            # tell from each walker to the next, whichever shard and portal each is on
            for a, b in zip(walkers, walkers[1:] + walkers[:1]):
                await a.client.send(f"tell {b.name} hello from {a.name}")
            for a, b in zip(walkers, walkers[1:] + walkers[:1]):
                await b.expect(f"hello from {a.name}")     # its own "You tell" is read on the way
            said = await until(walkers[0], "who", f"{TELNET + WEB} people", "in the casino")
            assert f"{TELNET + WEB} people in the casino" in said, said
            await every(players, playing_on)

            # kill -9 of the back shard, with walkers on both portals in the parlour
            parlour = walkers[::3]
            for p in parlour:
                await p.do("west", "The Pig Parlour")
                p.room = "The Pig Parlour"
            os.kill(shard_pid(server, "back"), signal.SIGKILL)
            await every(parlour, lambda p: p.expect("You are logged in again."))
            others = [p for p in players if p not in parlour]
            await every(others, playing_on)
            await every(parlour, lambda p: playing_on(p, quiet=False))

            # SIGSTOP of the craps shard: the floor and the back play on
            craps = shard_pid(server, "craps")
            os.kill(craps, signal.SIGSTOP)
            try:
                awake = [p for p in walkers if p.room in ("The Lobby", "The Pig Parlour")]
                await every(awake, playing_on)
            finally:
                os.kill(craps, signal.SIGCONT)
            await every(stakers, playing_on)

            # a portal killed: its players only, told; the supervisor starts another
            held = pp.by_portal(server, players)
            victim, survivor = sorted(held, key=lambda pid: -len(held[pid]))
            os.kill(victim, signal.SIGKILL)
            for p in held[victim]:
                if p.web:
                    await p.client.read_until_closed(timeout=30)
                else:
                    seen = plain(await p.client.read_until_closed(timeout=30))
                    assert pp.PORTAL_LEFT in seen, (p.name, seen)
            await every(held[survivor], playing_on)
            deadline = time.monotonic() + 30
            while len(server.portal_pids()) < 2 or victim in server.portal_pids():
                assert time.monotonic() < deadline, server.log_text()[-3000:]
                await asyncio.sleep(0.05)     # a real process starting, not game time
            for p in held[victim]:
                with contextlib.suppress(Exception):
                    await p.client.close()
                if p.web:
                    client = await WebClient.open(server.web_port)
                    await client.read_until_prompt()
                    said = plain(await client.cmd(f"connect {p.name} {ph.PASSWORD}", timeout=60))
                else:
                    client = await Client.open(server.port, ttype="dumb")
                    said = plain(await login(client, p.name, ph.PASSWORD, create=False))
                p.client = client
                assert "chips" in said, (p.name, said)
                p.room = re.findall(r"(The Lobby|Bank Craps|Craps Variants|The Pig Parlour)", said)[-1]
            await every(held[victim], lambda p: playing_on(p, quiet=False))

            # the broker away: crossing words say so in a line, every table plays on
            broker.stop()
            lobby = [p for p in walkers if p.room == "The Lobby"]
            far = next(p for p in walkers if p.room == "The Pig Parlour")
            said = await until(lobby[0], "who", "did not answer", "in the casino")
            assert "did not answer" in said, said
            told = await until(lobby[0], f"tell {far.name} are you there", "could not be told", "could not be told", "You tell")
            assert "could not be told" in told, told
            await every(players, playing_on)
            broker.start()
            said = await until(lobby[0], "who", f"{TELNET + WEB} people", "in the casino")
            assert f"{TELNET + WEB} people in the casino" in said, said

            # PostgreSQL stopped and started: play goes on where it needs no write,
            # and the walks that claim wallets work again once it is back
            cluster.pg_ctl("stop", "-m", "immediate")
            await every(players, playing_on)
            cluster.pg_ctl("start", "-w")
            for p in lobby[:6]:           # a claim's first write finds the dropped connection: made again
                said = ph.flat(await p.do("north", "Exits:"))
                assert "Bank Craps" in said, (p.name, said)
                p.room = "Bank Craps"
            await every(players, playing_on)
        finally:
            await ph.close_all([p.client for p in players])
        assert server.stop() == 0, server.log_text()[-3000:]
    report = ph.ledger_check(url)
    assert report["ok"] and report["open_holds"] == 0, report
    log = server.log_text()
    assert "Traceback" not in log and "settlement_refused" not in log, log[-5000:]
    assert log.count("event=portal_left") >= 3 and "event=portal_died" in log, log[-3000:]

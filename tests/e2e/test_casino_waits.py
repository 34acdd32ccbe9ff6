"""A casino that never gives up while its players wait (issue 42, attack 6).

The database goes away under a running casino (PostgreSQL stopped, then the
game process killed; or it refuses every new connection, then an operator's
`restart`): each game process the portal starts cannot open the ledger. The
portal tries again later and later, for as long as it runs; every player,
and every connection that arrives meanwhile, reads once that the casino
waits for its database and that the connection is kept. When the database
is back, everyone is logged in again where they were, the ledger's recovery
refunds every stake that was open, and `ledger check` is ok.

And a game process that answers nothing (SIGSTOP) has its players told once
it has been quiet for `limits.game_silence` seconds; when it wakes, what
they typed meanwhile is answered."""
from __future__ import annotations

import asyncio
import os
import re
import signal
from pathlib import Path

import pytest

from support import attacks
from support.postgres import bindir
from support.siblings import sibling
from support.telnet import Client, plain

ph = sibling("portal_helpers", Path(__file__).with_name("test_portal.py"))

WAITING = "*** The casino is waiting for its database; your connection is kept. ***"
NOT_ANSWERING = "*** The casino is not answering just now; your connection is kept. ***"
needs_postgres = pytest.mark.skipif(bindir() is None, reason="needs PostgreSQL (Debian package)")


def on_postgres(work: Path, url: str):
    made = ph.cli("account", "create", "admin", "--database", url, stdin=f"{ph.OPERATOR_PASSWORD}\n")
    assert made.returncode == 0, made.stderr
    return ph.serving(work, url, ["--database", url, "--config", str(ph.crowd_config(work))], ph.Server)


async def reads(p, text: str) -> str:
    """What a player reads up to `text`: the portal's own line comes with a prompt
    in the browser, and as a bare line to a telnet socket."""
    if p.web:
        return ph.flat(await p.expect(text))
    return ph.flat(plain(await p.client.read_until_text(text, timeout=60)))


async def told_to_wait(players, anon) -> None:
    """Every player and every anonymous connection reads the line."""
    async def one(seen: str) -> None:
        assert "Goodbye" not in seen and "could not start" not in seen, seen
    said = await ph.gather_bounded([reads(p, WAITING) for p in players]
                                   + [c.read_until_text(WAITING, timeout=60) for c in anon], limit=32)
    for seen in said:
        await one(plain(seen))


async def arrives_while_waiting(server) -> Client:
    """A connection made while no game process serves reads why, with no banner yet."""
    c = await Client.open(server.port)
    seen = ph.flat(plain(await c.read_until_text(WAITING, timeout=30)))
    assert "Name:" not in seen, seen
    return c


async def back(p, after_failure: bool = True) -> None:
    """Logged in again where they were (told it was a failure, after one), every chip
    in the wallet (a stake refunded by the ledger's recovery, and said so), nothing held."""
    seen = ph.flat(await p.expect("You are logged in again."))
    if after_failure:
        assert "The casino restarted after a failure. You are logged in again." in seen, (p.name, seen)
    assert "Name:" not in seen and "Goodbye" not in seen, (p.name, seen)
    if p.staked and after_failure:      # the ledger's recovery refunded it, and says so at login
        seen += ph.flat(await p.expect("Notice:")) if "Notice:" not in seen else ""
        assert re.search(rf"Your stake of {ph.STAKE} chips at table bank_craps was still open", seen), seen
    assert p.room in await p.look()
    balance = ph.flat(await p.do("balance", "Wallet:"))
    assert "Wallet: 1000 chips." in balance and "Held at" not in balance, (p.name, balance)


def failed_starts(server) -> int:
    return len(re.findall(r"event=game_start_failed\b.*database=True", server.log_text()))


async def until_failed(server, n: int) -> None:
    """Until the portal has logged `n` starts that failed on the database."""
    for _ in range(600):
        if failed_starts(server) >= n:
            return
        await asyncio.sleep(0.05)    # polling a real process's log, not game time
    raise AssertionError(server.log_text()[-3000:])


@needs_postgres
async def test_the_casino_waits_for_its_database_and_drops_nobody(tmp_path, cluster):
    url = cluster.create_database()
    with on_postgres(tmp_path, url) as server:
        players = await ph.crowd(server, telnet=10, web=2)
        anon = await ph.anonymous(server, 1)
        assert sum(p.staked for p in players) >= 1
        try:
            first = server.game_pid()
            attacks.stop_database(cluster, first)
            await told_to_wait(players, anon)
            late = await arrives_while_waiting(server)
            await until_failed(server, 2)                 # tried again, later: not given up
            assert server.proc.poll() is None
            cluster.pg_ctl("start", "-w")
            await ph.gather_bounded([back(p) for p in players], limit=32)
            for c in anon:
                seen = plain(await c.expect("Name:", timeout=60))
                assert "Please log in again." in seen, seen
            seen = plain(await late.expect("Name:", timeout=60))    # greeted once it serves
            said = plain(await late.cmd(f"create late1 {ph.PASSWORD}", timeout=30))
            assert "You have 1000 chips." in said, seen + said
            assert server.game_pid() != first
        finally:
            await ph.close_all([p.client for p in players] + anon)
        ph.stopped_cleanly(server)
    assert "event=recovery" in server.log_text()


@needs_postgres
async def test_a_restart_while_the_database_refuses_waits_for_it(tmp_path, cluster):
    """The database takes no new connection (as when another client holds them all):
    the operator's `restart` stops the old game process, the new one cannot open
    the ledger, and everyone waits, connected, until it can."""
    url = cluster.create_database()
    name = url.rsplit("/", 1)[1]
    with on_postgres(tmp_path, url) as server:
        players = await ph.crowd(server, telnet=6, web=1)
        admin = await ph.operator(server)
        try:
            attacks.refuse_connections(cluster.url(), name)
            said = plain(await admin.cmd_expect("restart", "Restarting now"))
            assert "everyone stays connected" in said, said
            await told_to_wait(players, [admin])
            await until_failed(server, 2)
            attacks.refuse_connections(cluster.url(), name, refuse=False)
            await ph.gather_bounded([back(p, after_failure=False) for p in players], limit=32)
        finally:
            await ph.close_all([p.client for p in players] + [admin])
        ph.stopped_cleanly(server)


def quick_to_tell(work: Path) -> Path:
    config = ph.crowd_config(work)
    server = config / "server.yaml"
    text, n = re.subn(r"(\n\s+game_silence:) \S+", r"\1 1", server.read_text())
    assert n == 1
    server.write_text(text)
    return config


async def test_players_are_told_when_the_game_process_does_not_answer(tmp_path):
    with ph.portal_server(tmp_path, quick_to_tell) as server:
        players = await ph.crowd(server, telnet=3, web=1)
        game = server.game_pid()
        try:
            os.kill(game, signal.SIGSTOP)
            for p in players:
                await p.client.send("balance")       # typed into a casino that says nothing
            for p in players:
                seen = await reads(p, NOT_ANSWERING)
                assert "Wallet:" not in seen, seen
            os.kill(game, signal.SIGCONT)
            for p in players:                        # answered once it wakes, told nothing more
                seen = ph.flat(await p.expect("Wallet:"))
                assert NOT_ANSWERING not in seen and "restarting" not in seen.lower(), seen
                assert p.room in await p.look()
            assert server.game_pid() == game         # not a crash: not replaced
        finally:
            os.kill(game, signal.SIGCONT)
            await ph.close_all([p.client for p in players])
        ph.stopped_cleanly(server)

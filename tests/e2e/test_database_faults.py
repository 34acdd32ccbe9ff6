"""The PostgreSQL server failing in the middle of play, over real telnet.

The database server is stopped with `pg_ctl stop -m immediate` (its processes
killed, no checkpoint: what a crash of the database host does to the casino)
while bets are held at bank craps, and started again some rounds later. Until
the ledger can write again, players read "pending recovery", never a paid
line; once it can, the table's retry records the settlement once, every
wallet is what the rules pay and the ledger's invariants hold.

These tests stop and start a PostgreSQL server of their OWN (the session's
shared one serves the other tests), so `database` is overridden here.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.telnet import Client, login, plain

from server.tables.money import PENDING

ROOT = Path(__file__).resolve().parents[2]
SEED = 4242
FAST = {"commands_per_second": 1000}
ROLLED = re.compile(r"(\d) \+ (\d) = (\d+)")


@pytest.fixture
def database(cluster):
    return cluster.create_database()


async def seated(app, name: str) -> Client:
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    return c


def decided(totals: list[int]) -> tuple[int, int] | None:
    """What pass 10 and don't pass 20 return (stake included) once `totals`
    have been rolled from a come-out: None while the hand goes on. The bank
    craps rules: a come-out 7 or 11 wins the pass line, 2 or 3 the don't pass,
    12 loses the pass and pushes the don't (bar 12); then the point before a 7
    wins the pass line, a 7 first the don't pass."""
    point = None
    for t in totals:
        if point is None:
            if t in (7, 11):
                return 20, 0
            if t in (2, 3):
                return 0, 40
            if t == 12:
                return 0, 20
            point = t
        elif t == point:
            return 20, 0
        elif t == 7:
            return 0, 40
    return None


def ledger_check(url: str) -> dict:
    """`casino ledger check --database URL --json`, the operator's own check."""
    done = subprocess.run([sys.executable, "-m", "server.cli", "ledger", "check", "--database", url, "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


async def test_database_stopped_mid_play_shows_pending_never_paid_then_pays_exactly_once(
        casino_factory, cluster, database):
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["bank_craps"]
    ann = await seated(app, "ann")
    bob = await seated(app, "bob")
    await ann.cmd_expect("bet pass 10", "Your bets")
    await bob.cmd_expect("bet dontpass 20", "Your bets")

    cluster.pg_ctl("stop", "-m", "immediate")          # the database host crashes, bets held

    # While it is down: a wager and a sign-up each get one line, nothing hangs.
    out = plain(await bob.cmd("bet field 5"))
    assert "Refused: field 5: The cashier could not take that wager just now." in out
    newbie = await Client.open(app.port, ttype="dumb")
    out = plain(await login(newbie, "newbie"))
    assert out.splitlines()[0] == "Something went wrong on our side; please try again.", out
    assert "Traceback" not in out and out.rstrip().endswith("Name:")

    # Roll through the betting windows until the bets are decided: the settlement
    # cannot be written, and each player reads "pending recovery", never paid.
    totals: list[int] = []
    seen = {"ann": "", "bob": ""}
    for _ in range(30):
        app.manager.tick_elapsed(app.manager.seconds(10))
        await host.idle()
        rolled = plain(await ann.cmd_expect("roll", " = "))
        totals += [int(m.group(3)) for m in ROLLED.finditer(rolled)]
        seen["ann"] += rolled
        if decided(totals) is not None:
            break
    returned = decided(totals)
    assert returned is not None, totals
    seen["bob"] += plain(await bob.expect("pending recovery"))
    for name, text in seen.items():
        assert PENDING in text, (name, text)
        told = text.replace(PENDING, "")
        assert "recorded" not in told and "paid" not in told and "to your wallet" not in told, (name, text)
    assert len(host.pending) == 1

    # Still down: the table retries every few seconds and fails; nothing moves.
    for _ in range(3):
        app.manager.tick_elapsed(app.manager.seconds(5))
        await host.idle()
    assert len(host.pending) == 1
    assert "Wallet: 990 chips." in plain(await ann.cmd("balance"))
    out = plain(await bob.cmd("balance"))
    assert "Wallet: 980 chips." in out and "Held at bank_craps: 20 chips" in out
    for c in (ann, bob):
        assert "recorded" not in plain(c.take_text())

    cluster.pg_ctl("start", "-w")
    app.manager.tick_elapsed(app.manager.seconds(2))     # the next retry finds it back
    await host.idle()
    for c in (ann, bob):
        assert "The pending settlement has now been recorded." in plain(await c.expect("now been recorded"))
    assert host.pending == []
    wallets = {"ann": 990 + returned[0], "bob": 980 + returned[1]}
    for name, c in (("ann", ann), ("bob", bob)):
        assert f"Wallet: {wallets[name]} chips." in plain(await c.cmd("balance"))
        bal = await app.ledger.balance(name)
        assert bal.wallet == wallets[name] and not any(bal.held.values())

    # Retries that follow pay nothing twice; the sign-up refused while down now works.
    app.manager.tick_elapsed(app.manager.seconds(10))
    await host.idle()
    assert {n: (await app.ledger.balance(n)).wallet for n in wallets} == wallets
    assert "You have 1000 chips." in plain(await newbie.cmd("create newbie secret123"))

    await app.stop()
    report = ledger_check(database)
    assert report["ok"] and report["open_holds"] == 0, report
    assert report["minted"] == 3000                  # three sign-ups; the one refused while down minted nothing
    assert report["house"] == 2000 - sum(wallets.values())    # what the house paid ann and bob, once

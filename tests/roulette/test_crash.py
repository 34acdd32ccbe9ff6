"""kill -9 with live roulette bets loses nothing: a real server process, real
telnet connections, spins whose settlements the players saw, then live bets
(a seated player's and a rider's) when the process is killed. After each
restart every acknowledged settlement is in the wallet, every live bet is
refunded and the players are told at login; `casino ledger check` holds.

The table is the shipped one with `spin_seconds: 0`, so a lone player's
`spin` settles at once and the test never waits on the real clock.
"""
from __future__ import annotations

import asyncio
import json
import random
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from support.process import crash, reap, serve
from support.telnet import Client, login, plain

ROOT = Path(__file__).resolve().parents[2]
KILLS = 3
NET = re.compile(r"net ([+-]\d+)")


def casino_dirs(tmp: Path) -> tuple[Path, Path]:
    shutil.copytree(ROOT / "config", tmp / "config")
    shutil.copytree(ROOT / "rooms", tmp / "rooms")
    tables = tmp / "config" / "casino_tables.yaml"
    tables.write_text(tables.read_text().replace("spin_seconds: 3", "spin_seconds: 0"))
    return tmp / "config", tmp / "rooms"


async def enter(port: int, name: str, first: bool) -> tuple[Client, str]:
    c = await Client.open(port, ttype="dumb")
    told = plain(await login(c, name, create=first))
    await c.cmd("north")
    await c.cmd("east")
    return c, told


async def play(port: int, run: int, rng: random.Random, nets: dict[str, int]) -> dict[str, int]:
    """Spins with their settlements seen, then live bets; returns the chips left live."""
    first = run == 0
    ann, told_ann = await enter(port, "ann", first)
    bob, told_bob = await enter(port, "bob", first)
    if not first:                                            # told at login what recovery did
        assert "Notice: Your stake of" in told_ann and "refunded to your wallet" in told_ann
        assert "Notice: Your stake of" in told_bob
    for name, told in (("ann", told_ann), ("bob", told_bob)):
        assert f"You have {1000 + nets[name]} chips." in told, (name, told)
    await ann.cmd_expect("play roulette", "Welcome")
    for _ in range(rng.randint(1, 4)):
        await bob.cmd_expect("play roulette", "Welcome")
        await bob.cmd_expect(f"bet {rng.choice(['red', 'black', 'dozen 2', 'straight 17'])} 10", "Bet accepted")
        await bob.cmd_expect("leave", "on the next spin")          # bob's bet rides
        await ann.cmd_expect(f"bet {rng.choice(['odd', 'even', 'column 1', 'split 0 1'])} 5", "Bet accepted")
        await ann.cmd_expect("bet straight 0 1", "Bet accepted")
        settled = plain(await ann.cmd_expect("spin", "Settlement, spin"))
        nets["ann"] += int(NET.search(settled.split("Settlement")[1]).group(1))
        notice = plain(await bob.expect("Notice: Your bets at roulette rode"))
        nets["bob"] += int(re.search(r"\(net ([+-]\d+)\)", notice).group(1))
    live = {"ann": rng.randint(1, 50), "bob": rng.randint(1, 50)}
    await ann.cmd_expect(f"bet high {live['ann']}", "Bet accepted")           # durable once shown
    await bob.cmd_expect("play roulette", "Welcome")
    await bob.cmd_expect(f"bet low {live['bob']}", "Bet accepted")
    await bob.cmd_expect("leave", "on the next spin")
    return live


def ledger_check(db: Path) -> dict:
    done = subprocess.run([sys.executable, "-m", "server.cli", "ledger", "check", "--data", str(db), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def test_kill_9_with_live_roulette_bets_loses_nothing(tmp_path):
    config, rooms = casino_dirs(tmp_path)
    db = tmp_path / "casino.db"
    rng = random.Random(20261213)
    nets = {"ann": 0, "bob": 0}
    for run in range(KILLS + 1):
        proc, port = serve(db, config, rooms, seed=run)
        try:
            if run == KILLS:                                      # the last start only checks the logins
                async def last() -> None:
                    for name in ("ann", "bob"):
                        c, told = await enter(port, name, False)
                        assert f"You have {1000 + nets[name]} chips." in told
                        assert "refunded to your wallet" in told
                        await c.close()
                asyncio.run(last())
                proc.send_signal(signal.SIGTERM)
                assert proc.wait(timeout=10) == 0
                break
            live = asyncio.run(play(port, run, rng, nets))
            assert live["ann"] > 0
            crash(proc)                        # the portal and the game process, as a machine crash
        finally:
            reap(proc)
        report = ledger_check(db)                                 # sound after the crash, holds open
        assert report["ok"] and report["open_holds"] == 2
    report = ledger_check(db)
    assert report["ok"] and report["open_holds"] == 0 and report["pending_outcomes"] == 0
    assert report["minted"] == report["balances"] == 2000

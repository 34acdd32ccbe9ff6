"""kill -9 in the middle of a hand at each craps variant loses nothing: a real
server process, a real telnet player in room 6184 who bets and rolls until a
bet is live mid-hand (a point is on), then the process is killed. After the
restart the live stakes are back in the wallet to the chip (New York's charge,
paid when the buy was made, stays the house's), the player is told at login,
and `casino ledger check` holds with no hold left open.
"""
from __future__ import annotations

import asyncio
import json
import re
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from support.process import crash, reap, serve
from support.telnet import Client, login, plain

ROOT = Path(__file__).resolve().parents[2]
WALLET = re.compile(r"Wallet: (\d+) chips\.")
HELD = re.compile(r"Held at \S+: (\d+) chips")

# table id, play word, the bets that make a hand live (each placed at the come-out)
VARIANTS = [
    ("crapless_craps", "crapless", ("bet pass 10", "bet place 6 12")),
    ("new_york_craps", "newyork", ("bet pass 10", "bet buy 4 20")),
    ("diceless_craps", "diceless", ("bet pass 10", "bet hard 8 5")),
    ("high_point_craps", "highpoint", ("bet high 10",)),
    ("die_rich", "dierich", ("bet pass 10",)),
]


def ledger_check(db: Path) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-m", "server.cli", "ledger", "check", "--data", str(db), "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


async def balance(c: Client) -> tuple[int, int]:
    out = plain(await c.cmd("balance"))
    wallet = WALLET.search(out)
    assert wallet, out
    return int(wallet.group(1)), sum(int(h) for h in HELD.findall(out))


async def live_mid_hand(port: int, word: str, bets: tuple[str, ...]) -> tuple[int, int, Client]:
    """Bet and roll until a bet is still live after a roll (a point is on);
    returns the wallet and the chips held then, and the player's connection,
    which the caller keeps open until the kill: a closed (or collected)
    connection is a dropped player, whose live bets are forfeit."""
    c = await Client.open(port, ttype="dumb")
    await login(c, "vera")
    for way in ("north", "west"):
        await c.cmd(way)
    assert "Welcome to" in plain(await c.cmd(f"play {word}"))
    for _ in range(60):
        if "Your bets" not in plain(await c.cmd("bets")):
            for bet in bets:
                await c.cmd(bet)
        await c.cmd("roll")
        if "Your bets" in plain(await c.cmd("bets")):
            wallet, held = await balance(c)
            if held:
                return wallet, held, c
    raise AssertionError("no hand went past its first roll in 60 rolls")


@pytest.mark.parametrize("table,word,bets", VARIANTS)
def test_kill_9_mid_hand_at_a_variant_loses_nothing(tmp_path, table, word, bets):
    shutil.copytree(ROOT / "config", tmp_path / "config")
    shutil.copytree(ROOT / "rooms", tmp_path / "rooms")
    db = tmp_path / "casino.db"
    proc, port = serve(db, tmp_path / "config", tmp_path / "rooms", seed=7)
    try:
        wallet, held, player = asyncio.run(live_mid_hand(port, word, bets))
        crash(proc)            # the portal and the game process, the player still connected
        del player
    finally:
        reap(proc)
    report = ledger_check(db)                                   # sound after the crash, holds open
    assert report["ok"] and report["open_holds"] and report["balances"] == report["minted"]

    proc, port = serve(db, tmp_path / "config", tmp_path / "rooms", seed=8)
    try:
        async def back() -> None:
            c = await Client.open(port, ttype="dumb")
            told = plain(await login(c, "vera", create=False))
            assert "refunded to your wallet" in told, told
            assert f"You have {wallet + held} chips." in told, (wallet, held, told)
            assert await balance(c) == (wallet + held, 0)
            await c.close()
        asyncio.run(back())
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    finally:
        reap(proc)
    report = ledger_check(db)
    assert report["ok"] and report["open_holds"] == 0 and report["pending_outcomes"] == 0
    assert report["balances"] == report["minted"] == 1000

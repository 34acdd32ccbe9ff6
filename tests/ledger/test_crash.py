"""Kill -9 during a stream of holds and settlements, 20+ times: nothing acked is lost.

Promise 4 (an acknowledged settlement survives a crash) and promise 5 (at
start-up no hold stays open), tested on a real process killed with SIGKILL at
a random point (after a random number of acknowledged operations) while 16
workers keep the group-commit writer busy. On both stores: with PostgreSQL the
killed process's COMMITs are the server's, and its lock goes with its session.
"""
from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from server.ledger import Ledger, check

from .conftest import raw

pytestmark = pytest.mark.both_stores

DRIVER = Path(__file__).with_name("crash_driver.py")
ROOT = Path(__file__).resolve().parents[2]
KILLS = 20
PLAYERS, START = 8, 1000


def run_until_killed(db: str, run: int, acks_before_kill: int) -> list[list[str]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, str(DRIVER), str(db), str(run), str(run + 7)],
                            stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    try:
        assert proc.stdout.readline().startswith("ready"), "driver did not start"
        acked = []
        while len(acked) < acks_before_kill:
            line = proc.stdout.readline()
            assert line, "driver died before it was killed"
            acked.append(line.split())
        proc.send_signal(signal.SIGKILL)
        acked += [line.split() for line in proc.stdout.read().splitlines()]   # acked before death
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    return acked


def wait_until_gone(db: str) -> None:
    """PostgreSQL: wait until the killed process's sessions have ended. A COMMIT it sent
    before it died still lands when its backend gets to it, after the kill; what the
    process did is only final (and its lock free) once the server is done with it."""
    if not db.startswith("postgresql:"):
        return
    with raw(db) as conn:
        for _ in range(1000):
            others = conn.execute("SELECT count(*) FROM pg_stat_activity"
                                  " WHERE datname = current_database() AND pid <> pg_backend_pid()").fetchone()[0]
            if not others:
                return
            conn.execute("SELECT pg_sleep(0.01)")
    raise AssertionError(f"the killed process's sessions on {db} did not end")


def assert_acked_present(db: str, acked: list[list[str]]) -> None:
    with raw(db) as conn:
        for _, word, table, key, *stakes in acked:
            row = conn.execute("SELECT id, kind FROM operations WHERE scope = ? AND key = ?",
                               (f"table:{table}", key)).fetchone()
            assert row is not None and row[1] == word, f"acked {word} {key} lost"
            for stake in stakes:         # closed by the acked operation, not by recovery
                closed_by = conn.execute("SELECT closed_by FROM holds WHERE table_id = ? AND handle = ?",
                                         (table, stake)).fetchone()[0]
                assert closed_by == row[0], f"stake {stake} of acked {key} closed by {closed_by}"


async def recover(db: str) -> list:
    ledger = await Ledger.open(db)
    try:
        return ledger.recovered
    finally:
        await ledger.close()


def test_kill_9_loses_nothing_acknowledged(database, cli):
    db = database
    rng = random.Random(20261129)
    total_acked = 0
    for run in range(KILLS):
        acked = run_until_killed(db, run, rng.randint(0, 300))
        total_acked += len(acked)
        wait_until_gone(db)
        before = check(db)             # after the crash, before recovery: sound, maybe open holds
        assert before.ok, before.broken
        recovered = asyncio.run(recover(db))
        assert all(r.action in ("refunded", "settled", "forfeited") for r in recovered)
        assert len([r for r in recovered if r.action == "refunded"]) <= before.open_holds
        assert_acked_present(db, acked)
        code, report = cli.check_json(db)
        assert code == 0 and report["ok"], report
        assert report["open_holds"] == 0 and report["pending_outcomes"] == 0
        assert report["minted"] == PLAYERS * START == report["balances"]
    assert total_acked > KILLS * 50


ALLEY_DRIVER = Path(__file__).with_name("alley_crash_driver.py")
ALLEY_KILLS = 5


def test_kill_9_mid_alley_game_returns_the_bankrolls_of_the_last_decided_pass(database, cli):
    """Alley craps results are durable when a pass is decided: after kill -9
    and start-up recovery each player has what the last decided pass left
    them, not their buy-in back."""
    import json
    db = database
    rng = random.Random(6185)
    moved = 0
    for run in range(ALLEY_KILLS):
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen([sys.executable, str(ALLEY_DRIVER), str(db), str(run), str(run + 11)],
                                stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
        try:
            assert proc.stdout.readline().startswith("ready"), "driver did not start"
            lines = []
            wanted = rng.randint(3, 40)
            while sum(line.startswith("acked") for line in lines) < wanted:
                line = proc.stdout.readline()
                assert line, "driver died before it was killed"
                lines.append(line)
            proc.send_signal(signal.SIGKILL)
            lines += proc.stdout.read().splitlines(keepends=True)
        finally:
            proc.kill()
            proc.wait()
        wait_until_gone(db)
        acked = [json.loads(x.split(" ", 1)[1]) for x in lines if x.startswith("acked")]
        last = lines[-1].split(" ", 1)
        allowed = [acked[-1]] + ([json.loads(last[1])] if last[0] == "pending" else [])
        asyncio.run(recover(db))
        code, report = cli.check_json(db)
        assert code == 0 and report["ok"] and report["open_holds"] == 0, report
        wallets = wallets_of(db, sorted(acked[-1]))
        assert wallets in allowed, (run, wallets, allowed)
        moved += any(v != START for v in wallets.values())
    assert moved >= ALLEY_KILLS - 1        # the bankrolls had moved away from the buy-ins


def wallets_of(db: str, players: list[str]) -> dict[str, int]:
    async def read() -> dict[str, int]:
        ledger = await Ledger.open(db)
        try:
            return {p: (await ledger.balance(p)).wallet for p in players}
        finally:
            await ledger.close()
    return asyncio.run(read())

"""A real Prometheus (Debian's `prometheus`) scrapes a live `casino serve` (its
portal and its game process) while real telnet players log in and bet; PromQL
then says what the test did, and `promtool check metrics` finds nothing to
complain about in what was scraped."""
from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support import prometheus as live
from tests.support.prometheus import get, query, until, value
from tests.support.telnet import Client, login

ROOT = Path(__file__).resolve().parents[2]
SEED = 41
pytestmark = pytest.mark.skipif(shutil.which("prometheus") is None or shutil.which("promtool") is None,
                                reason="Debian's prometheus (.ci/test-packages)")


@pytest.fixture
def prometheus(tmp_path: Path):
    with live.casino(tmp_path, SEED) as (port, metrics), live.prometheus(tmp_path, [metrics, metrics + 1]) as prom:
        yield prom, port, metrics


def test_prometheus_sees_what_the_players_did(prometheus) -> None:
    prom, port, metrics = prometheus
    game = f"http://127.0.0.1:{metrics + 1}/metrics"

    async def play() -> None:
        a = await Client.open(port, ttype="dumb")
        b = await Client.open(port, ttype="dumb")
        await login(a, "ann")
        await login(b, "bob")
        await a.cmd("south")
        await a.cmd("play craps")
        await a.cmd("bet pass 10")
        for _ in range(100):          # rolls until the pass line is decided (the seed decides when)
            await a.cmd("roll")
            if 'casino_rounds_total{game="craps"} 1.0' in get(game):
                break
        else:
            raise AssertionError("no settlement in 100 rolls")
        until("both logged in and the round settled, scraped from both processes",   # each at its own time
              lambda: value(prom, "sum(casino_players)") == 2 and value(prom, "sum(casino_chips_settled_total)")
              and value(prom, 'sum(casino_connections{logged_in="yes"})') == 2)
        assert value(prom, 'sum(casino_sessions{logged_in="yes"})') == 2
        assert value(prom, 'sum(casino_connections{logged_in="yes"})') == 2
        assert value(prom, 'sum(casino_chips_settled_total{game="craps"})') == 10
        assert value(prom, 'sum(casino_chips_wagered_total{game="craps"})') == 10
        assert value(prom, "sum(casino_ledger_imbalance_chips)") == 0
        assert value(prom, "count(up == 1)") == 2
        for panel in json.loads((ROOT / "docs" / "prometheus" / "dashboard.json").read_text())["panels"]:
            for target in panel["targets"]:       # each runs without error (query() asserts success)
                query(prom, target["expr"])
        a.writer.close()
        b.writer.close()

    asyncio.run(play())
    for url in (f"http://127.0.0.1:{metrics}/metrics", game):
        checked = subprocess.run(["promtool", "check", "metrics"], input=get(url), capture_output=True,
                                 text=True, timeout=30)
        assert checked.returncode == 0 and not (checked.stdout + checked.stderr).strip(), checked

"""A real Prometheus (Debian's `prometheus`) scrapes a live `casino serve` (its
portal and its game process) while real telnet players log in and bet; PromQL
then says what the test did, and `promtool check metrics` finds nothing to
complain about in what was scraped."""
from __future__ import annotations

import asyncio
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from tests.support.process import reap
from tests.support.telnet import Client, login

ROOT = Path(__file__).resolve().parents[2]
SEED = 41
pytestmark = pytest.mark.skipif(shutil.which("prometheus") is None or shutil.which("promtool") is None,
                                reason="Debian's prometheus (.ci/test-packages)")


def free_ports(n: int) -> int:
    """The first of `n` ports in a row that are free now."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            first = int(s.getsockname()[1])
        if first + n > 65535:
            continue
        try:
            held = []
            for p in range(first, first + n):
                sock = socket.socket()
                held.append(sock)
                sock.bind(("127.0.0.1", p))
        except OSError:
            continue
        finally:
            for sock in held:
                sock.close()
        return first
    raise AssertionError("no free ports in a row")


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode()


def until(what: str, check, deadline: float = 60.0):     # noqa: ANN001 - a test's predicate
    """Poll a real process (a server, Prometheus) until `check()` is truthy: its value."""
    end = time.monotonic() + deadline
    while True:
        try:
            got = check()
        except OSError:
            got = None
        if got:
            return got
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.05)     # waiting on another process's progress, not on game time


def query(prom: int, promql: str) -> list[dict]:
    url = f"http://127.0.0.1:{prom}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
    answer = json.loads(get(url))
    assert answer["status"] == "success", answer
    return answer["data"]["result"]


def value(prom: int, promql: str) -> float | None:
    result = query(prom, promql)
    return float(result[0]["value"][1]) if result else None


@pytest.fixture
def casino(tmp_path: Path):
    metrics = free_ports(2)           # the portal's, then its game process's
    config = tmp_path / "config"
    shutil.copytree(ROOT / "config", config)
    with (config / "server.yaml").open("a") as f:
        f.write(f"  metrics:\n    host: 127.0.0.1\n    port: {metrics}\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    proc = subprocess.Popen([sys.executable, "-m", "server", "--port", str(port), "--web-port", "0",
                             "--data", str(tmp_path / "casino.db"), "--config", str(config),
                             "--rooms", str(ROOT / "rooms"), "--seed", str(SEED),
                             "--pid-file", str(tmp_path / "casino.pid")],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        until("the casino", lambda: socket.create_connection(("127.0.0.1", port), timeout=1).close() or True)
        until("the game process's /metrics", lambda: get(f"http://127.0.0.1:{metrics + 1}/metrics"))
        yield port, metrics
    finally:
        reap(proc)


@pytest.fixture
def prometheus(tmp_path: Path, casino):
    port, metrics = casino
    prom = free_ports(1)
    (tmp_path / "prometheus.yml").write_text(
        "global: {scrape_interval: 1s, evaluation_interval: 1s}\n"
        "scrape_configs:\n"
        "  - job_name: casino\n"
        f"    static_configs: [{{targets: ['127.0.0.1:{metrics}', '127.0.0.1:{metrics + 1}']}}]\n")
    proc = subprocess.Popen(["prometheus", f"--config.file={tmp_path / 'prometheus.yml'}",
                             f"--storage.tsdb.path={tmp_path / 'tsdb'}",
                             f"--web.listen-address=127.0.0.1:{prom}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        until("Prometheus", lambda: get(f"http://127.0.0.1:{prom}/-/ready"))
        yield prom, port, metrics
    finally:
        proc.terminate()
        proc.wait(timeout=30)


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

"""Where each process serves /metrics when there are several, for real: two shards
(PostgreSQL and NATS) behind two portals, `server.metrics` on port P.

The supervisor serves on P, the shards' game processes on P+1 and P+2 in the
order `shards` names them, the portals on P+3 and P+4 (docs/operating.md,
"Metrics"): every port known before the casino starts, so one static scrape
config finds them all. Each process logs where (event=metrics, with its process
and its shard or index). A portal killed is started again on its own port, and
says so again."""
from __future__ import annotations

import os
import re
import signal
from pathlib import Path

import pytest

from support.nats import binary
from support.postgres import bindir
from support.prometheus import free_ports, get, until
from support.siblings import sibling

portal_helpers = sibling("portal_helpers", Path(__file__).with_name("test_portal.py"))
shards = sibling("shards_helpers", Path(__file__).with_name("test_shards.py"))
portals = sibling("portals_helpers", Path(__file__).with_name("test_portals.py"))

pytestmark = pytest.mark.skipif(bindir() is None or binary() is None,
                                reason="needs PostgreSQL and nats-server (Debian packages)")


def told(log: str) -> list[dict[str, str]]:
    """The fields of every `event=metrics` line of the log, in its order."""
    return [dict(re.findall(r"(\w+)=(\S+)", line)) for line in log.splitlines() if "event=metrics " in line]


def serves(port: int) -> bool:
    return "casino_" in get(f"http://127.0.0.1:{port}/metrics")


def test_each_process_has_its_own_port_told_in_the_log(tmp_path, postgres, broker) -> None:
    url = postgres.create_database()
    first = free_ports(5)
    config = shards.shard_config(tmp_path, url, broker.url)
    server_yaml = config / "server.yaml"
    server_yaml.write_text(server_yaml.read_text().replace(
        "server:\n", f"server:\n  portals: 2\n  metrics:\n    host: 127.0.0.1\n    port: {first}\n", 1))
    try:
        with portal_helpers.serving(tmp_path, url, ["--config", str(config)], portals.Portals,
                                    within=90) as server:
            for port in range(first, first + 5):
                until(f"/metrics on {port}", lambda: serves(port))
            expected = {("supervisor", "", first), ("game", "floor", first + 1), ("game", "back", first + 2),
                        ("portal", "0", first + 3), ("portal", "1", first + 4)}
            got = {(t["process"], t.get("shard", t.get("index", "")), int(t["port"])) for t in told(server.log_text())}
            assert got == expected, server.log_text()
            assert "casino_game_up" in get(f"http://127.0.0.1:{first}/metrics")       # the supervisor's
            assert "casino_players" in get(f"http://127.0.0.1:{first + 1}/metrics")   # a game process's
            assert "casino_connections" in get(f"http://127.0.0.1:{first + 3}/metrics")   # a portal's

            started = re.findall(r"event=portal_started index=(\d+) pid=(\d+)", server.log_text())
            index, pid = started[0]
            os.kill(int(pid), signal.SIGKILL)
            until("the portal started again", lambda: len(re.findall(
                r"event=portal_started", server.log_text())) > len(started))
            until("its /metrics again", lambda: len(told(server.log_text())) == 6, 30)
            again = told(server.log_text())[-1]
            assert (again["process"], again["index"], int(again["port"])) == ("portal", index, first + 3 + int(index))
            until(f"/metrics on {first + 3 + int(index)}", lambda: serves(first + 3 + int(index)))
            assert server.stop() == 0
    finally:
        postgres.drop_database(url)

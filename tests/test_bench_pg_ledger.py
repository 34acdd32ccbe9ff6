"""The PostgreSQL group-commit bench (bench/bench_pg_ledger.py), run with tiny numbers so it cannot rot."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import bench_pg_ledger  # noqa: E402
from support.postgres import bindir  # noqa: E402


@pytest.mark.skipif(bindir() is None, reason="PostgreSQL is not installed")
def test_both_sides_run_on_one_server_and_report_every_round():
    m = bench_pg_ledger.measure(runs=2, players=4, rounds=2, plain_transfers=10)
    assert len(m["plain"]) == len(m["transfers"]) == len(m["ops"]) == len(m["shard"]) == 2
    assert all(rate > 0 for rate in m["plain"] + m["transfers"] + m["ops"] + m["shard"])
    assert all(per >= 1 for per in m["per_commit"])

"""The shards bench (bench/bench_shards.py), run with tiny numbers so it cannot rot."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import bench_shards  # noqa: E402
from support.nats import binary  # noqa: E402
from support.postgres import bindir  # noqa: E402


@pytest.mark.skipif(bindir() is None or binary() is None, reason="needs PostgreSQL and nats-server")
def test_it_times_both_kinds_of_walk_and_prints_a_verdict(capsys):
    bench_shards.main(["--clients", "2", "--walks", "2"])
    out = capsys.readouterr().out
    assert "2 players, 8 walks of each kind" in out, out
    assert "walk to a room of this shard : p50" in out and "walk to another shard (handoff): p50" in out, out
    assert "(target <= 50 ms) -> PASS" in out or "(target <= 50 ms) -> FAIL" in out, out   # timing is noisy here

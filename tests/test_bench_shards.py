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
    bench_shards.main(["--clients", "2", "--walks", "2", "--cpu-players", "4", "--cpu-seconds", "0.5",
                       "--kill-seconds", "0.5"])
    out = capsys.readouterr().out
    assert "2 players, 8 walks of each kind" in out, out
    assert "walk to a room of this shard : p50" in out and "walk to another shard (handoff): p50" in out, out
    assert "(target <= 50 ms) -> PASS" in out or "(target <= 50 ms) -> FAIL" in out, out   # timing is noisy here
    assert "tell to this shard           : p50" in out and "tell to another shard (bus)  : p50" in out, out
    assert "(target <= 5 ms) -> PASS" in out or "(target <= 5 ms) -> FAIL" in out, out
    for line in ("  1 shard :", "  2 shards:", "  4 shards:"):
        assert line in out, out
    assert "of one shard -> PASS" in out or "of one shard -> FAIL" in out, out
    assert "a kill stays on its shard: p99 within 1.5x -> " in out, out

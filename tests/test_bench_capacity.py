"""The capacity bench (bench/bench_capacity.py), run with tiny numbers so it cannot rot."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import bench_capacity  # noqa: E402
from support.nats import binary  # noqa: E402
from support.postgres import bindir  # noqa: E402


@pytest.mark.skipif(bindir() is None or binary() is None, reason="needs PostgreSQL and nats-server")
def test_it_steps_both_layouts_and_prints_the_ratio(capsys):
    carried = bench_capacity.main(["--clients", "12", "--rates", "1", "--seconds", "1", "--procs", "1"])
    out = capsys.readouterr().out
    assert "  1 shard, 1 portal :" in out and "  2 shards, 2 portals:" in out, out
    assert "errors    0" in out, out            # 12 commands a second: every reply comes
    assert "2 shards + 2 portals against 1 + 1: " in out, out
    assert set(carried) == set(bench_capacity.LAYOUTS), carried

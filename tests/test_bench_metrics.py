"""The metrics bench (bench/bench_metrics.py) with tiny numbers, so it cannot rot:
both servers answer every command, the metered one is scraped every second, and
the histogram's p99 is read from two scrapes as histogram_quantile reads it."""
from __future__ import annotations

import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import bench_metrics  # noqa: E402

INF = float("inf")


def test_the_quantile_is_linear_within_its_bucket_over_what_came_between_two_scrapes():
    before = [(0.001, 10.0), (0.002, 10.0), (0.004, 10.0), (INF, 10.0)]
    after = [(0.001, 60.0), (0.002, 100.0), (0.004, 110.0), (INF, 110.0)]    # 50, 40, 10 new
    assert bench_metrics.quantile(0.5, before, after) == 0.001                 # the 50th of 100
    assert math.isclose(bench_metrics.quantile(0.99, before, after), 0.002 + 0.002 * 9 / 10)
    assert math.isnan(bench_metrics.quantile(0.99, before, before))           # nothing observed


def test_a_small_crowd_with_metrics_off_and_scraped(capsys):
    out = bench_metrics.main(["--clients", "10", "--seconds", "2", "--runs", "1"])
    run = out["runs"][0]
    for kind in bench_metrics.KINDS:
        r = run[kind]
        assert r.clients == 10 and r.errors == 0 and r.unanswered == {}, (kind, r.unanswered)
    assert run["scrapes"] >= 4 and run["scrape_failures"] == 0          # both processes, each second
    assert run["histogram_p99"] > 0 and out["cpux"] > 0
    assert "targets (issue #41)" in capsys.readouterr().out

"""The leaderboard bench (bench/bench_top.py), run with tiny numbers so it cannot rot."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import bench_top  # noqa: E402


def test_the_bench_reads_every_board_through_its_index_and_passes(capsys):
    bench_top.main(["--accounts", "1500", "--reads", "3", "--no-postgres"])
    out = capsys.readouterr().out
    for index in ("wallets_by_balance", "totals_by_wins", "totals_by_wagered", "totals_by_net"):
        assert f"USING INDEX {index}" in out
    assert "TEMP B-TREE" not in out            # no sort: the ORDER BY is the index's order
    # the bench judges its own timing (`make bench`); a test under four workers on two
    # shared cores does not (it once read 10.8 ms against the 10 ms limit): the verdict is printed
    assert "PASS: slowest median" in out or "FAIL: slowest median" in out

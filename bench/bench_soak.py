"""`make bench`: a bounded soak (bench/soak.py) with more bots and longer.

BOTS bots play every game with random disconnects, takeovers and bad input
for BEFORE seconds, the server is killed with SIGKILL and restarted, they
play AFTER seconds more, the server stops on SIGTERM; then the ledger check
must show no open holds and every wallet must equal its own statement.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

from bench.soak import describe, run_soak

BOTS, BEFORE, AFTER = 16, 30.0, 30.0


def main() -> None:
    print(f"{BOTS} bots, {BEFORE:.0f} s, kill -9 and restart, {AFTER:.0f} s, SIGTERM")
    with tempfile.TemporaryDirectory() as tmp:
        report = run_soak(Path(tmp), bots=BOTS, before_kill=BEFORE, after_kill=AFTER, seed=14)
    for line in describe(report):
        print(" ", line)
    for line in report.log_errors[:10]:
        print("  log:", line)


if __name__ == "__main__":
    main()

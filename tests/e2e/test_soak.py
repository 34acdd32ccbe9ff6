"""A short soak in CI (the long one is `make bench`, bench_soak): bots play
every game against the real server process with random disconnects,
takeovers and bad input, a kill -9 mid-play with a bet live and a restart,
then SIGTERM. Afterwards the ledger check is ok with no open holds, every
player's wallet equals the sum of their own statement, nobody was told
"Something went wrong" and the server logged no error."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.soak import describe, run_soak  # noqa: E402


def test_short_soak_with_a_kill_9(tmp_path):
    report = run_soak(tmp_path, bots=8, before_kill=3.5, after_kill=3.0, seed=3)
    summary = "\n".join(describe(report) + report.log_errors[:10])
    assert report.games and set(report.games) <= set(report.visits), summary     # every game played
    assert report.live_at_kill and report.kill_recovered > 0, summary
    assert report.stop_exit == 0, summary
    assert report.check["ok"] and report.check["open_holds"] == 0, summary
    assert report.wallets and all(w == s for w, s in report.wallets.values()), summary
    assert report.went_wrong == 0 and not report.log_errors, summary
    assert report.ok, summary

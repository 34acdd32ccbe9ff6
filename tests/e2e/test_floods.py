"""Floods through the shipped server (issue 42, attacks 4 and 5), small: anonymous
sockets from several addresses sending bare CR LF, then logged-in players sending
`look`, each as fast as the server takes it, while another player types `look`.

Every one of the victim's looks is answered in each phase, the server outlives
both floods, and neither grows the portal: its memory is its connections' and
nothing of what they type (telnet sockets are the game process's to read, with
its byte and line budgets). After both, `ledger check` is ok: no chip lost. The full sizes and the latency are the bench's:
`python -m bench floods` (bench/bench_floods.py, in docs/performance.md)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bench import bench_floods  # noqa: E402
from support.siblings import sibling  # noqa: E402

ph = sibling("portal_helpers", Path(__file__).with_name("test_portal.py"))


def test_floods_leave_the_victim_answered_and_the_portal_small(tmp_path):
    figures = bench_floods.run_floods(tmp_path, anon=40, logged_in=40, seconds=3.0, baseline=1.0)
    assert set(figures) == {"alone", "blank", "look"}, figures
    alone = figures["alone"]
    for phase in ("blank", "look"):
        f = figures[phase]
        assert f["looks"] >= 5, (phase, f)                 # answered all along, none lost
        assert f["lines"] > 0 and f["closed"] == 0, (phase, f)
        assert f["portal_mib"] - alone["portal_mib"] <= 100, (phase, f)
    report = ph.ledger_check(f"sqlite:///{tmp_path / 'floods.db'}")
    assert report["ok"] and report["open_holds"] == 0, report
    assert report["balances"] == report["minted"], report

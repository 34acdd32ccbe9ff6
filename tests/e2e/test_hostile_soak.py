"""A short hostile soak in the suite (the long one, with the latency target,
is `make bench`: bench_hostile_soak). Honest players (telnet and one over
the WebSocket, from 127.0.0.1) play bank craps, a craps variant, simplified
craps, alley craps, Pig and roulette against the real server process while
127.0.0.2-51 attack at once: line floods, tiny WebSocket frames, negotiation
toggles, silent login slots, slow HTTP, bad charsets and GMCP junk.

Asserted: no honest player is refused or disconnected, nobody is told
"Something went wrong" and the server logs no error, its open files and
memory stay bounded, SIGTERM exits 0, the ledger check is ok and every
honest wallet equals what its player read from `balance` once nothing was
at stake, and the sum of its own statement. Not the `look` latency: on a
loaded machine it would flake (the bench reports it against a baseline)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.hostile_soak import CORE, describe, run_hostile_soak  # noqa: E402


def test_honest_players_play_through_every_attack_at_once(tmp_path):
    report = run_hostile_soak(tmp_path, players=6, web_players=1, baseline=1.5, seconds=8.0, seed=5,
                              per_kind=1, after_wait=1.0)
    summary = "\n".join(describe(report, latency=False))
    targets = report.targets(latency=False)
    assert {p.game.title for p in report.players} == set(CORE), summary
    assert report.attack and all(report.attack.get(f"{kind} connections") for kind in
                                 ("line_flood", "tiny_frames", "toggles", "silent_slots", "slow_http",
                                  "bad_charset", "gmcp_junk")), summary           # every attack ran
    assert report.attack.get("silent_slots refused"), summary      # past login_connections_per_ip
    assert report.looks("attack") and all(p.logins for p in report.players), summary
    assert report.refused == 0 and report.dropped == 0, summary
    assert report.stop_exit == 0, summary
    assert report.check["ok"] and report.check["open_holds"] == 0, summary
    assert report.wallets_exact(), summary
    assert all(targets.values()), summary

"""`make bench`: the hostile soak (bench/hostile_soak.py, issue 27).

20 honest players (17 over telnet, 3 over the WebSocket, all from 127.0.0.1)
play every game, first alone (the baseline), then for --seconds (default
60) while 127.0.0.2-51 attack at once: line floods, tiny WebSocket frames,
negotiation toggles, silent login slots, slow HTTP, bad charsets, GMCP junk.
Printed: refusals and disconnects of honest players, their `look` p50/p99
alone and under attack, the server's RSS and open fds, SIGTERM's exit code,
the ledger check and every honest wallet; PASS/FAIL per target.

`python -m bench hostile_soak --seconds 20 --runs 2`
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from bench.hostile_soak import describe, p99, run_hostile_soak


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench hostile_soak")
    ap.add_argument("--seconds", type=float, default=60.0, help="seconds of attacks (default 60)")
    ap.add_argument("--baseline", type=float, default=15.0, help="seconds without attackers first (default 15)")
    ap.add_argument("--players", type=int, default=20)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=27)
    args = ap.parse_args(argv or [])
    figures = []
    passed = True
    for run in range(args.runs):
        print(f"-- run {run + 1} of {args.runs}", flush=True)
        with tempfile.TemporaryDirectory() as tmp:
            report = run_hostile_soak(Path(tmp), players=args.players, baseline=args.baseline,
                                      seconds=args.seconds, seed=args.seed + run)
        for line in describe(report):
            print(" ", line, flush=True)
        passed = passed and all(report.targets().values())
        base, attack = report.looks("baseline"), report.looks("attack")
        figures.append((statistics.median(base), p99(base), statistics.median(attack), p99(attack),
                        report.phase_max("attack", 2), report.phase_max("attack", 3)))
    if args.runs > 1:
        med = [statistics.median(f[i] for f in figures) for i in range(6)]
        print(f"medians of {args.runs} runs: look alone p50 {med[0]:.1f} ms p99 {med[1]:.1f} ms; "
              f"under attack p50 {med[2]:.1f} ms p99 {med[3]:.1f} ms; RSS max {med[4]:.1f} MiB; "
              f"fds max {med[5]:.0f}")
    print("RESULT: " + ("PASS" if passed else "FAIL"))


if __name__ == "__main__":
    main()

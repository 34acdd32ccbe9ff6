"""`make bench`: the hostile soak (bench/hostile_soak.py, issue 27).

20 honest players (17 over telnet, 3 over the WebSocket, all from 127.0.0.1)
play every game, first alone (the baseline), then for --seconds (default
60) while 127.0.0.2-51 attack at once: line floods, tiny WebSocket frames,
negotiation toggles, silent login slots, slow HTTP, bad charsets, GMCP junk.
Printed: refusals and disconnects of honest players, their `look` p50/p99
alone and under attack, the server's RSS and open fds, SIGTERM's exit code,
the ledger check and every honest wallet; PASS/FAIL per target.

Each run soaks both servers, one after the other (their order alternating
from run to run): the casino as `casino serve` runs it (the portal and its
game process) and with `--one-process`, and prints what the attack costs an
honest player's `look` through each (issue #36: through the portal at most
what it costs in one process). `--only portal` or `--only one` soaks one.

Then part three (bench/hostile42.py): the six attacks of issue 42, one after
another against `casino serve` (on PostgreSQL when installed), an honest
player's `look` timed before (this run's baseline) and after each, `ledger
check` after each. `--part soak` or `--part issue42` runs one part.

`python -m bench hostile_soak --seconds 20 --runs 2`
"""
from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path

from bench import hostile42
from bench.hostile_soak import describe, p99, run_hostile_soak

SERVERS = {"portal": "casino serve (the portal and its game process)", "one": "casino serve --one-process"}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench hostile_soak")
    ap.add_argument("--seconds", type=float, default=60.0, help="seconds of attacks (default 60)")
    ap.add_argument("--baseline", type=float, default=15.0, help="seconds without attackers first (default 15)")
    ap.add_argument("--players", type=int, default=20)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--only", choices=tuple(SERVERS), default=None, help="soak one server only")
    ap.add_argument("--part", choices=("all", "soak", "issue42"), default="all",
                    help="the soak (issue 27), the six attacks of issue 42, or both (default)")
    ap.add_argument("--flood-anon", type=int, default=200, help="issue 42's attack 4: CR LF sockets (200)")
    ap.add_argument("--flood-logged-in", type=int, default=200,
                    help="attack 5: logged-in players sending look (200; `bench floods` runs 800)")
    ap.add_argument("--flood-seconds", type=float, default=10.0, help="each flood's seconds (10)")
    args = ap.parse_args(argv or [])
    passed = True
    if args.part != "soak":
        runs42 = []
        for run in range(args.runs):
            print(f"-- issue 42's attacks against casino serve, run {run + 1} of {args.runs}", flush=True)
            with tempfile.TemporaryDirectory() as tmp:
                runs42.append(hostile42.run_issue42(Path(tmp), floods=(args.flood_anon, args.flood_logged_in,
                                                                       args.flood_seconds)))
            for line in hostile42.describe42(runs42[-1]):
                print(" ", line, flush=True)
        if args.runs > 1:
            print(f"-- issue 42's attacks, medians of {args.runs} runs", flush=True)
            for line in hostile42.describe42(hostile42.medians(runs42)):
                print(" ", line, flush=True)
        passed = all(hostile42.passed(figures42) for figures42 in runs42)
        if args.part == "issue42":
            print("RESULT: " + ("PASS" if passed else "FAIL"))
            return
    modes = ("portal", "one") if args.only is None else (args.only,)
    figures: dict[str, list[tuple[float, ...]]] = {m: [] for m in modes}
    for run in range(args.runs):
        for mode in (modes if run % 2 == 0 else tuple(reversed(modes))):
            print(f"-- run {run + 1} of {args.runs}: {SERVERS[mode]}", flush=True)
            with tempfile.TemporaryDirectory() as tmp:
                report = run_hostile_soak(Path(tmp), players=args.players, baseline=args.baseline,
                                          seconds=args.seconds, seed=args.seed + run, one_process=mode == "one")
            for line in describe(report):
                print(" ", line, flush=True)
            passed = passed and all(report.targets().values())
            base, attack = report.looks("baseline"), report.looks("attack")
            figures[mode].append((statistics.median(base), p99(base), statistics.median(attack), p99(attack),
                                  report.phase_max("attack", 2), report.phase_max("attack", 3)))
    for mode in modes:
        med = [statistics.median(f[i] for f in figures[mode]) for i in range(6)]
        print(f"{SERVERS[mode]}, medians of {args.runs} run{'s' if args.runs > 1 else ''}: look alone "
              f"p50 {med[0]:.1f} ms p99 {med[1]:.1f} ms; under attack p50 {med[2]:.1f} ms p99 {med[3]:.1f} ms; "
              f"RSS max {med[4]:.1f} MiB; fds max {med[5]:.0f}")
    if len(modes) == 2:
        portal, one = (statistics.median(f[3] for f in figures[m]) for m in ("portal", "one"))
        print(f"under attack, look p99 portal : one process = {portal / one:.2f}x ({portal:.1f} vs {one:.1f} ms); "
              f"target (issue #36): at most 1x, what it costs in one process: {'PASS' if portal <= one else 'FAIL'}")
    print("RESULT: " + ("PASS" if passed else "FAIL"))


if __name__ == "__main__":
    main()

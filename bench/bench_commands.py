"""The command path alone: CPU per command in one process, no sockets.

The crowd bench (bench_crowd) times what a player sees, and on this shared
2-core machine identical runs of it differ by up to 2x. This one isolates the
part that is ours: N logged-in Sessions in a real Casino (real config, rooms,
ledger and SQLite file, its clock stopped) whose writer only counts bytes, and
the crowd's command mix (bench_crowd.MIX) fed through `Casino.on_input`, the
way the telnet shell feeds a read line, with the event loop run until every
reply and every line told to others has been written. Measured: CPU
microseconds per command (process time over ROUNDS passes of all N clients),
the median of RUNS, overall and by command, and the deliveries (lines told to
others: speech) written per command. What it leaves out is everything below
the Writer: telnetlib3's input path, the socket write, the kernel.

    python -m bench commands                      # N = 5000
    python -m bench commands --clients 1000 --runs 5
"""
from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_crowd import LINES, MIX, NAME, ROOT, make_accounts, parse_mix

ROUNDS = 3
RUNS = 5
AT_TABLE = 0.10


class CountingWriter:
    """A Session's Writer that keeps nothing: it counts the writes and bytes
    a socket would have been given."""

    def __init__(self) -> None:
        self.writes = 0
        self.bytes = 0

    def write(self, text: str) -> None:
        self.writes += 1
        self.bytes += len(text)

    write_prompt = write

    def echo(self, on: bool) -> None:
        pass

    def get_extra_info(self, key: str) -> Any:
        return None

    def unsent(self) -> int:
        return 0

    def abort(self) -> None:
        pass

    def close(self) -> None:
        pass


async def _settle(app: Any) -> None:
    """Until everything queued has been written: replies, flushes, the crier."""
    await asyncio.sleep(0)
    await app.crier.idle()
    await asyncio.sleep(0)


async def measure(n: int, runs: int, rounds: int, mix: dict[str, int], profile: Any = None) -> dict[str, Any]:
    from server.app import Casino
    from server.commands import login
    from server.config.load import load_config
    from server.net.session import Session
    from server.net.throttle import TokenBucket

    tmp = Path(tempfile.mkdtemp(prefix="bench-commands-"))
    db = tmp / "casino.db"
    await asyncio.to_thread(make_accounts, db, n)
    config = load_config(ROOT / "config", ROOT / "rooms")
    app = Casino(config, db, seed=1, config_dir=ROOT / "config", rooms_dir=ROOT / "rooms")
    await app.start("127.0.0.1", 0, run_clock=False)
    try:
        loop = asyncio.get_running_loop()
        sessions = []
        for i in range(n):
            writer = CountingWriter()
            s = Session(writer, f"127.0.{i // 250}.{i % 250 + 1}")
            app.sessions.admit(s)
            s.bucket = TokenBucket(1_000_000, loop.time())
            account = await app.accounts.get(NAME.format(i=i))
            await login.enter(app, s, account)
            sessions.append(s)
        rng = random.Random(16)
        for s in rng.sample(sessions, int(n * AT_TABLE)):
            await app.on_input(s, ["north"], loop.time())
        await _settle(app)
        names = list(mix)
        plans = [rng.choices(names, weights=[mix[k] for k in names], k=rounds) for _ in sessions]
        per_command: dict[str, list[float]] = {k: [] for k in names}
        totals, deliveries, per_line = [], [], []
        if profile is not None:
            profile.enable()
        for _ in range(runs):
            spent = {k: 0.0 for k in names}
            counts = {k: 0 for k in names}
            writes0 = sum(s.writer.writes for s in sessions)
            commands = rounds * n
            start = time.process_time()
            for r in range(rounds):
                for s, plan in zip(sessions, plans):
                    word = plan[r]
                    t0 = time.process_time()
                    await app.on_input(s, [LINES[word]], loop.time())
                    spent[word] += time.process_time() - t0
                    counts[word] += 1
                app.manager.ticks += app.manager.tick_hz     # a round is a second of the crowd's
            handled = time.process_time()
            await _settle(app)
            elapsed = time.process_time() - start
            told = sum(s.writer.writes for s in sessions) - writes0 - commands
            totals.append(elapsed / commands * 1e6)
            deliveries.append(told / commands)
            if told:
                per_line.append((elapsed - (handled - start)) / told * 1e6)
            for k in names:
                if counts[k]:
                    per_command[k].append(spent[k] / counts[k] * 1e6)
        if profile is not None:
            profile.disable()
        return {"n": n, "total": statistics.median(totals), "totals": totals,
                "deliveries": statistics.median(deliveries),
                "per_line": statistics.median(per_line) if per_line else 0.0,
                "by": {k: statistics.median(v) for k, v in per_command.items() if v}}
    finally:
        await app.stop()
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench commands", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=RUNS)
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="commands per client per run")
    parser.add_argument("--mix", default=None, help="e.g. look=30,who=15 (default: bench_crowd.MIX)")
    parser.add_argument("--cprofile", type=int, metavar="K", default=0,
                        help="also print cProfile's K costliest functions (by own time) of the timed runs")
    args = parser.parse_args(argv or [])
    profile = cProfile.Profile() if args.cprofile else None
    r = asyncio.run(measure(args.clients, args.runs, args.rounds,
                             parse_mix(args.mix) if args.mix else dict(MIX), profile))
    print(f"{r['n']} sessions, {args.rounds} commands each per run, median of {args.runs} runs")
    print(f"CPU per command, all in: {r['total']:.1f} us (runs: "
          + ", ".join(f"{t:.1f}" for t in r["totals"]) + ")")
    print(f"lines told to others per command: {r['deliveries']:.2f}, "
          f"{r['per_line']:.1f} us each (those the crier tells after the commands)")
    print("by command (us, its own handling only): "
          + "; ".join(f"{k} {v:.1f}" for k, v in r["by"].items()))
    if profile is not None:
        pstats.Stats(profile).sort_stats("tottime").print_stats(args.cprofile)
    return r

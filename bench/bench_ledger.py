"""Ledger throughput: group-committed settlements against plain one-commit-per-transfer.

What is measured, in the same run, median of RUNS runs, both with WAL and
synchronous=FULL on a fresh file in a temporary directory:
- plain: sqlite3 from one thread, one transfer per commit (BEGIN IMMEDIATE,
  2 entry inserts, 2 balance updates, COMMIT): transfers per second.
- ledger: 64 concurrent asyncio settlers, each awaiting `ledger.settle` one
  after another on stakes held beforehand (the holds are not timed); each
  settlement closes one stake and pays the player (wins, pushes, losses in
  turn, so 1-3 transfers each): settlement operations per second, counted
  when the await returns, i.e. when durable.
- ledger hold+settle: the same 64 settlers doing hold then settle each round
  (two awaited operations per round): rounds per second, for context.
The target is ledger settlements/s >= 5x plain transfers/s.
"""
from __future__ import annotations

import asyncio
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

SETTLERS = 64
PER_SETTLER = 150
PLAIN_TRANSFERS = 3000
RUNS = 5


def plain_rate(path: Path) -> float:
    conn = sqlite3.connect(str(path), isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA synchronous = FULL")
    conn.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER NOT NULL)")
    conn.execute("CREATE TABLE entries (id INTEGER PRIMARY KEY, transfer INTEGER, account INTEGER, amount INTEGER)")
    conn.executemany("INSERT INTO accounts VALUES (?, 0)", [(i,) for i in range(64)])
    start = time.perf_counter()
    for t in range(PLAIN_TRANSFERS):
        a, b = t % 64, (t * 7 + 1) % 64
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO entries (transfer, account, amount) VALUES (?, ?, ?)", (t, a, -5))
        conn.execute("INSERT INTO entries (transfer, account, amount) VALUES (?, ?, ?)", (t, b, 5))
        conn.execute("UPDATE accounts SET balance = balance - 5 WHERE id = ?", (a,))
        conn.execute("UPDATE accounts SET balance = balance + 5 WHERE id = ?", (b,))
        conn.execute("COMMIT")
    elapsed = time.perf_counter() - start
    conn.close()
    return PLAIN_TRANSFERS / elapsed


PAYS = (20, 10, 0)   # win (house pays 10), push, loss


async def ledger_rates(path: Path) -> tuple[float, float]:
    from server.ledger import Ledger

    ledger = await Ledger.open(path)
    try:
        players = [f"p{i}" for i in range(SETTLERS)]
        await asyncio.gather(*(ledger.mint(f"m-{p}", p, 1_000_000, "bench") for p in players))

        async def hold_all(p: str) -> None:
            for j in range(PER_SETTLER):
                await ledger.hold(f"h-{p}-{j}", p, f"t{hash(p) % 8}", 10)

        await asyncio.gather(*(hold_all(p) for p in players))

        async def settle_all(p: str) -> None:
            for j in range(PER_SETTLER):
                await ledger.settle(f"s-{p}-{j}", f"t{hash(p) % 8}", [f"h-{p}-{j}"], {p: PAYS[j % 3]})

        start = time.perf_counter()
        await asyncio.gather(*(settle_all(p) for p in players))
        settle_rate = SETTLERS * PER_SETTLER / (time.perf_counter() - start)

        async def rounds(p: str) -> None:
            for j in range(PER_SETTLER):
                await ledger.hold(f"rh-{p}-{j}", p, "r", 10)
                await ledger.settle(f"rs-{p}-{j}", "r", [f"rh-{p}-{j}"], {p: PAYS[j % 3]})

        start = time.perf_counter()
        await asyncio.gather(*(rounds(p) for p in players))
        round_rate = SETTLERS * PER_SETTLER / (time.perf_counter() - start)
    finally:
        await ledger.close()
    from server.ledger import check
    assert check(path).ok
    return settle_rate, round_rate


def measure() -> dict[str, float]:
    plain, settle, rounds = [], [], []
    for run in range(RUNS):
        with tempfile.TemporaryDirectory() as d:
            plain.append(plain_rate(Path(d) / "plain.db"))
            s, r = asyncio.run(ledger_rates(Path(d) / "ledger.db"))
            settle.append(s)
            rounds.append(r)
    return {"plain": statistics.median(plain), "settle": statistics.median(settle),
            "rounds": statistics.median(rounds)}


def main() -> None:
    m = measure()
    print(f"plain sqlite3, 1 transfer/commit (WAL, FULL): {m['plain']:>9,.0f} transfers/s")
    print(f"ledger, {SETTLERS} concurrent settlers (WAL, FULL): {m['settle']:>9,.0f} settlements/s")
    print(f"ledger, {SETTLERS} concurrent hold+settle rounds:  {m['rounds']:>9,.0f} rounds/s")
    print(f"ratio settlements/s : plain transfers/s = {m['settle'] / m['plain']:.1f}x (target >= 5x);"
          f" median of {RUNS} runs")


if __name__ == "__main__":
    main()

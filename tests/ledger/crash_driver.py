"""Crash-test driver: a stream of wagers and settlements until it is killed.

Run as `python crash_driver.py DB RUN SEED` (DB: an SQLite file or a database URL). It opens the ledger (running
start-up recovery), prints `ready`, then 16 concurrent workers hold, settle,
refund and forfeit forever. A line `ack ...` is printed and flushed only after
the awaited call has returned, i.e. only for durable operations: the test
kills this process with SIGKILL and checks every acked operation survived.
"""
from __future__ import annotations

import asyncio
import random
import sys

from server.ledger import InsufficientFunds, Ledger

PLAYERS = [f"p{i}" for i in range(8)]
TABLES = ["craps", "alley", "pig"]
START = 1000


def ack(*words: object) -> None:
    sys.stdout.write(" ".join(str(w) for w in ("ack", *words)) + "\n")
    sys.stdout.flush()


async def worker(ledger: Ledger, run: int, w: int, rng: random.Random) -> None:
    i = 0
    while True:
        i += 1
        table = rng.choice(TABLES)
        a, b = rng.sample(PLAYERS, 2)
        ka, kb = f"r{run}-w{w}-{i}-a", f"r{run}-w{w}-{i}-b"
        try:
            await ledger.hold(ka, a, table, rng.randint(1, 20))
            ack("hold", table, ka)
            await ledger.hold(kb, b, table, rng.randint(1, 20))
            ack("hold", table, kb)
        except InsufficientFunds:
            continue
        roll = rng.random()
        key = f"r{run}-w{w}-{i}-end"
        if roll < 0.5:            # player versus player, the house takes a cut
            await ledger.settle(key, table, [ka, kb], {a: rng.randint(0, 30)})
            ack("settle", table, key, ka, kb)
        elif roll < 0.8:          # banked: pays may exceed the stakes
            await ledger.settle(key, table, [ka], {a: rng.randint(0, 40)})
            ack("settle", table, key, ka)
            await ledger.refund(key + "-r", table, kb)
            ack("refund", table, key + "-r", kb)
        elif roll < 0.9:
            await ledger.forfeit(key, table, ka)
            ack("forfeit", table, key, ka)
        # else: leave both stakes open for recovery to refund


async def main(path: str, run: int, seed: int) -> None:
    ledger = await Ledger.open(path)
    for p in PLAYERS:
        await ledger.mint(f"start-{p}", p, START, "starting chips")
    print(f"ready recovered={len(ledger.recovered)}", flush=True)
    await asyncio.gather(*(worker(ledger, run, w, random.Random(seed * 100 + w)) for w in range(16)))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))

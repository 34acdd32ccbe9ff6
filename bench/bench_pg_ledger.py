"""The ledger on PostgreSQL: group commit against one transaction per transfer.

Both sides run in the same run on the same server: a PostgreSQL of Debian's
package started for the bench (tests/support/postgres.py, on a free port of
127.0.0.1, in a temporary directory on this machine's disk) with fsync=on
and synchronous_commit=on, so every COMMIT waits for its WAL to be flushed
to disk: that flush is what group commit amortises. Each round gets fresh
databases; baseline and candidate rounds alternate; medians of RUNS rounds.

- plain (the baseline): one psycopg connection, one transfer per
  transaction, on the ledger's own schema: BEGIN; the operation's row; its
  two entries; the two accounts' balances; COMMIT. These are the statements
  the ledger writes for a transfer, without its judging in Python, so the
  baseline is the cheapest way to commit transfers one at a time; what it
  pays per transfer is the round trips and the WAL flush.
- ledger (the candidate): the real `Ledger.open(url)` (`PostgresStore`, the
  group-commit writer thread), PLAYERS concurrent asyncio players each doing
  ROUNDS rounds of hold then settle (wins, pushes and losses in turn, as
  bench_ledger does on SQLite), every await returning once durable.
  Operations/s counts the awaited holds and settlements; transfers/s counts
  the transfers written during the timed part (entries / 2: a hold is one
  transfer, a settlement one to three).

- shard: the same ledger as one shard's writer (`Ledger.open(url,
  shard=...)`, docs/ledger.md "Shards"): its wallets updated at their epoch
  and the row count checked in every batch. Its ratio to the ledger is what
  fencing costs a writer (issue 37: sharding costs little per command).

The target is ledger transfers/s >= 5x plain transfers/s.
`python -m bench pg_ledger [--runs N] [--players N] [--rounds N]`.
"""
from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PLAYERS = 500
ROUNDS = 20
PLAIN_TRANSFERS = 2000
RUNS = 5
TARGET = 5.0
PAYS = (20, 10, 0)   # win (the house adds 10), push, loss
ACCOUNTS = 64


def plain_rate(url: str, transfers: int) -> float:
    """Transfers/s, one transaction each, on the ledger's schema."""
    import psycopg

    from server.db.connection import PgConn, dialect_of
    from server.db.url import Database
    from server.ledger.schema import migrate

    setup = PgConn(url)
    migrate(setup, dialect_of(Database.parse(url)))
    setup.close()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("INSERT INTO accounts (id, kind, owner, balance) SELECT 10 + i, 'wallet', 'p' || i, 1000000"
                     " FROM generate_series(0, %s) AS i", (ACCOUNTS - 1,))
        cur = conn.cursor()
        start = time.perf_counter()
        for t in range(1, transfers + 1):
            a, b = 10 + t % ACCOUNTS, 10 + (t * 7 + 1) % ACCOUNTS
            cur.execute("BEGIN")
            cur.execute("INSERT INTO operations (id, scope, key, kind, table_id, args, time)"
                        " VALUES (%s, %s, %s, %s, %s, %s, %s)",
                        (t, "bench", f"k{t}", "transfer", "t", '{"amount": 5}', time.time()))
            cur.execute("INSERT INTO entries (op_id, transfer, account, amount) VALUES (%s, %s, %s, %s)",
                        (t, t, a, -5))
            cur.execute("INSERT INTO entries (op_id, transfer, account, amount) VALUES (%s, %s, %s, %s)",
                        (t, t, b, 5))
            cur.execute("UPDATE accounts SET balance = balance + %s WHERE id = %s", (-5, a))
            cur.execute("UPDATE accounts SET balance = balance + %s WHERE id = %s", (5, b))
            cur.execute("COMMIT")
        elapsed = time.perf_counter() - start
        (written,) = conn.execute("SELECT count(*) FROM entries").fetchone() or (0,)
    assert written == 2 * transfers
    return transfers / elapsed


def _entries(url: str) -> int:
    import psycopg
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT count(*) FROM entries").fetchone()
    return int(row[0]) if row else 0


async def ledger_rates(url: str, players: int, rounds: int, shard: bool = False) -> tuple[float, float, float]:
    """(transfers/s, operations/s, mean operations per COMMIT) of the real ledger (as one
    shard's writer when `shard`)."""
    from server.ledger import Ledger, check
    from server.ledger.shards import LedgerShard

    tables = frozenset(f"t{i}" for i in range(16))
    ledger = await Ledger.open(url, shard=LedgerShard("floor", tables) if shard else None)
    try:
        names = [f"p{i}" for i in range(players)]
        await asyncio.gather(*(ledger.mint(f"m-{p}", p, 1_000_000, "bench") for p in names))
        before = await asyncio.to_thread(_entries, url)
        batches = 0
        apply_batch = ledger.store.apply_batch

        def counted(*args, **kwargs):   # one call of the store, one transaction
            nonlocal batches
            batches += 1
            return apply_batch(*args, **kwargs)

        ledger.store.apply_batch = counted  # type: ignore[method-assign]

        async def play(i: int, p: str) -> None:
            table = f"t{i % 16}"
            for j in range(rounds):
                await ledger.hold(f"h-{p}-{j}", p, table, 10)
                await ledger.settle(f"s-{p}-{j}", table, [f"h-{p}-{j}"], {p: PAYS[(i + j) % 3]})

        start = time.perf_counter()
        await asyncio.gather(*(play(i, p) for i, p in enumerate(names)))
        elapsed = time.perf_counter() - start
        after = await asyncio.to_thread(_entries, url)
        commits = batches
    finally:
        await ledger.close()
    assert check(url).ok
    ops = 2 * players * rounds
    return (after - before) / 2 / elapsed, ops / elapsed, ops / max(commits, 1)


def measure(runs: int, players: int, rounds: int, plain_transfers: int) -> dict[str, list[float]]:
    sys.path.insert(0, str(ROOT / "tests"))
    from support.postgres import Cluster

    cluster = Cluster(fsync=True, settings={"synchronous_commit": "on"}).start()
    out: dict[str, list[float]] = {"plain": [], "transfers": [], "ops": [], "per_commit": [], "shard": []}
    try:
        for run in range(runs):
            # alternate which side goes first, so neither always meets a warmer server
            sides = ["plain", "ledger", "shard"] if run % 2 == 0 else ["shard", "ledger", "plain"]
            for side in sides:
                url = cluster.create_database()
                if side == "plain":
                    out["plain"].append(plain_rate(url, plain_transfers))
                elif side == "shard":
                    out["shard"].append(asyncio.run(ledger_rates(url, players, rounds, shard=True))[0])
                else:
                    t, o, per = asyncio.run(ledger_rates(url, players, rounds))
                    out["transfers"].append(t)
                    out["ops"].append(o)
                    out["per_commit"].append(per)
                cluster.drop_database(url)
            print(f"  round {run + 1}: plain {out['plain'][-1]:,.0f} transfers/s;"
                  f" ledger {out['transfers'][-1]:,.0f} transfers/s, {out['ops'][-1]:,.0f} ops/s"
                  f" ({out['per_commit'][-1]:.0f} ops a commit); as a shard {out['shard'][-1]:,.0f} transfers/s",
                  flush=True)
    finally:
        cluster.stop()
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench pg_ledger")
    ap.add_argument("--runs", type=int, default=RUNS)
    ap.add_argument("--players", type=int, default=PLAYERS)
    ap.add_argument("--rounds", type=int, default=ROUNDS, help="hold+settle rounds per player")
    ap.add_argument("--plain-transfers", type=int, default=PLAIN_TRANSFERS)
    args = ap.parse_args(argv or [])
    sys.path.insert(0, str(ROOT / "tests"))
    from support.postgres import bindir
    if bindir() is None:
        print("SKIP: PostgreSQL's server binaries are not installed"
              " (Debian: apt-get install postgresql; /usr/lib/postgresql/*/bin)")
        return
    m = measure(args.runs, args.players, args.rounds, args.plain_transfers)
    plain, transfers = statistics.median(m["plain"]), statistics.median(m["transfers"])
    ops, per = statistics.median(m["ops"]), statistics.median(m["per_commit"])
    ratio = transfers / plain
    print(f"plain psycopg, 1 transfer/transaction (fsync, synchronous_commit=on): {plain:>9,.0f} transfers/s")
    print(f"ledger, {args.players} players x {args.rounds} hold+settle rounds, group commit:"
          f" {transfers:>9,.0f} transfers/s, {ops:,.0f} operations/s, {per:.0f} operations a COMMIT")
    ratios = ", ".join(f"{t / p:.1f}x" for t, p in zip(m["transfers"], m["plain"]))
    print(f"ratio ledger transfers/s : plain transfers/s = {ratio:.1f}x (target >= {TARGET:.0f}x);"
          f" median of {args.runs} rounds (per round: {ratios}) -> {'PASS' if ratio >= TARGET else 'FAIL'}")
    shard = statistics.median(m["shard"])
    print(f"ledger as one shard's writer (epochs checked in every batch): {shard:,.0f} transfers/s,"
          f" {shard / transfers:.2f}x the ledger naming no shards")


if __name__ == "__main__":
    main(sys.argv[1:])

"""`top`'s boards with 100,000 accounts: each page one indexed query, whatever the casino's size.

What is measured: the time of `boards.read` (one read transaction: the page's
query, the asker's figure, the asker's rank) for each board's first and last
page (page 100: boards end at rank 1,000), median of many, on SQLite and, when
PostgreSQL's binaries are installed, on PostgreSQL (tests/support/postgres.py).
The asker is a player near the middle of the board: their rank walk is the
longest there is (it stops at rank 1,000). PASS when every median is under
LIMIT_MS. The query plans are printed: each board is a walk down its index
(SQLite: SCAN ... USING INDEX, no TEMP B-TREE for the ORDER BY; PostgreSQL:
Index Scan on the board's index, no Sort).

How: the schema is the ledger's own (migrate), filled directly with bulk
inserts (a wallet and a totals row per player, random figures, 1% hidden),
then ANALYZEd; a real casino's history is not needed to time a read.

    python -m bench top                  # 100,000 accounts, 200 reads a page
    python -m bench top --accounts 10000 --reads 20   # a CI-sized run
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from server.db.connection import Conn, Dialect, connect, dialect_of
from server.db.url import Database
from server.ledger import boards
from server.ledger.schema import migrate

ROOT = Path(__file__).resolve().parents[1]
ACCOUNTS = 100_000
READS = 200
LIMIT_MS = 10.0
OPERATORS = ["p000007", "p000042"]      # skipped by every walk


def fill(conn: Conn, dialect: Dialect, n: int) -> str:
    """n players with wallets and totals; returns a player near the middle of every board."""
    migrate(conn, dialect)
    rng = random.Random(31)
    wallets, totals = [], []
    for i in range(n):
        p = f"p{i:06}"
        wallets.append((3 + i, "wallet", p, rng.randint(0, 10**6)))
        wagered = rng.randint(0, 10**7)
        won = rng.randint(0, wagered)
        totals.append((p, wagered, won, won - rng.randint(0, wagered), rng.randint(0, 5000),
                       1 if rng.random() < 0.01 else 0))
    conn.execute(dialect.begin_write)
    for i in range(0, n, 10_000):
        conn.executemany("INSERT INTO accounts (id, kind, owner, balance) VALUES (?, ?, ?, ?)",
                         wallets[i:i + 10_000])
        conn.executemany("INSERT INTO player_totals (player, wagered, won, net, wins, hidden)"
                         " VALUES (?, ?, ?, ?, ?, ?)", totals[i:i + 10_000])
    conn.execute("COMMIT")
    conn.execute("ANALYZE")
    return next(p for p, *_, hidden in totals[n // 2:] if not hidden)


def time_reads(conn: Conn, dialect: Dialect, asker: str, reads: int) -> dict[tuple[str, int], float]:
    """board, page -> median ms of one read (page + asker's figure + rank)."""
    out = {}
    for board in boards.BOARDS:
        for page in (1, boards.MAX_RANK // boards.PAGE):
            found = boards.read(conn, dialect, board, page, asker, OPERATORS)
            assert len(found.rows) == boards.PAGE and found.listed
            took = []
            for _ in range(reads):
                t = time.perf_counter()
                boards.read(conn, dialect, board, page, asker, OPERATORS)
                took.append((time.perf_counter() - t) * 1000)
            out[(board, page)] = statistics.median(took)
    return out


def plans(conn: Conn, dialect: Dialect) -> list[str]:
    lines = []
    for board in boards.BOARDS:
        sql = boards.page_query(board, OPERATORS)
        params = (*OPERATORS, boards.PAGE, boards.MAX_RANK - boards.PAGE)
        if dialect.name == "sqlite":
            rows = conn.execute("EXPLAIN QUERY PLAN " + sql, params).fetchall()
            lines.append(f"  {board:<8} " + "; ".join(r[-1] for r in rows))
        else:
            rows = conn.execute("EXPLAIN " + sql, params).fetchall()
            lines.append(f"  {board:<8} " + " / ".join(r[0].strip() for r in rows if "Scan" in r[0] or "Sort" in r[0]))
    return lines


def report(name: str, took: dict[tuple[str, int], float], plan: list[str]) -> bool:
    print(f"{name}: median ms of one `top` read (page + own rank), first and last page")
    print(f"{'board':<10}{'page 1':>9}{'page ' + str(boards.MAX_RANK // boards.PAGE):>10}")
    for board in boards.BOARDS:
        print(f"{board:<10}{took[(board, 1)]:>9.3f}{took[(board, boards.MAX_RANK // boards.PAGE)]:>10.3f}")
    print("query plans (last page):")
    print("\n".join(plan))
    worst = max(took.values())
    ok = worst < LIMIT_MS
    print(f"{'PASS' if ok else 'FAIL'}: slowest median {worst:.3f} ms (limit {LIMIT_MS:.0f} ms)")
    return ok


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench top")
    ap.add_argument("--accounts", type=int, default=ACCOUNTS)
    ap.add_argument("--reads", type=int, default=READS, help="reads of each page (median taken)")
    ap.add_argument("--no-postgres", action="store_true")
    args = ap.parse_args(argv or [])
    with tempfile.TemporaryDirectory() as tmp:
        db = Database.parse(str(Path(tmp) / "top.db"))
        conn = connect(db)
        t = time.perf_counter()
        asker = fill(conn, dialect_of(db), args.accounts)
        print(f"SQLite: {args.accounts:,} accounts filled in {time.perf_counter() - t:.1f} s")
        report("SQLite", time_reads(conn, dialect_of(db), asker, args.reads), plans(conn, dialect_of(db)))
        conn.close()
    if args.no_postgres:
        return
    sys.path.insert(0, str(ROOT / "tests"))
    from support.postgres import Cluster, bindir
    if bindir() is None:
        print("PostgreSQL: SKIP (server binaries not installed)")
        return
    cluster = Cluster().start()
    try:
        url = cluster.create_database()
        pg = Database.parse(url)
        conn = connect(pg)
        t = time.perf_counter()
        asker = fill(conn, dialect_of(pg), args.accounts)
        print(f"\nPostgreSQL: {args.accounts:,} accounts filled in {time.perf_counter() - t:.1f} s")
        report("PostgreSQL", time_reads(conn, dialect_of(pg), asker, args.reads), plans(conn, dialect_of(pg)))
        conn.close()
    finally:
        cluster.stop()


if __name__ == "__main__":
    main(sys.argv[1:])

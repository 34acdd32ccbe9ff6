"""`casino odds`: the exact house edge of every bet at every table that has one.

Each game says what its sheet is (its catalogue entry's `odds`: craps by
exact Markov chains, simplified craps by playing its engine, roulette by
settling every bet on all 37 pockets, blackjack by basic strategy's exact
expectation for an infinite shoe and a seeded simulation of the table's own
shoe), so an operator sees what a config change does (odds, field_12, a
simplified table's bar, la partage, soft 17 or 6:5) before serving it. Games without a house edge (alley craps, Pig) have no sheet.
"""
from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "odds", help="exact house edge of each bet at each table against the house",
        description="Print the exact house edge of each bet at every table in the config "
                    "whose game has one (bank and simplified craps, roulette, blackjack).")
    parser.add_argument("--config", type=Path, default=Path("config"), metavar="DIR",
                        help="directory of server and table config (default: ./config)")
    parser.add_argument("--rooms", type=Path, default=None, metavar="DIR",
                        help="directory of room files (default: rooms/ beside the config directory)")
    parser.add_argument("--table", metavar="ID", help="only this table")
    parser.add_argument("--json", action="store_true",
                        help='print [{"table": id, "bet": name, "house_edge": float, "exact": "p/q"}, ...]')
    parser.set_defaults(func=run)


def rooms_dir(config: Path, rooms: Path | None) -> Path:
    """--rooms, else rooms/ beside the config directory, else ./rooms."""
    if rooms is not None:
        return rooms
    beside = config.resolve().parent / "rooms"
    return beside if beside.is_dir() else Path("rooms")


def run(args: argparse.Namespace) -> int:
    import json

    from server.cli._config import load_or_report
    from server.games.catalogue import entry_for

    cfg = load_or_report(args.config, rooms_dir(args.config, args.rooms))
    if cfg is None:
        return 1
    # each table with a house edge, and the function that works out its sheet
    tables = [(t, odds) for t in cfg.tables.values() if (odds := entry_for(t).odds) is not None]
    if args.table:
        tables = [(t, odds) for t, odds in tables if t.id == args.table]
        if not tables:
            print(f"no table {args.table!r} with a house edge in {args.config}")
            return 1
    rows: list[dict[str, object]] = []
    for table, odds in tables:
        sheet = odds(table)
        if args.json:
            rows += [{"table": table.id, "bet": bet, "house_edge": float(e),
                      "exact": f"{e.numerator}/{e.denominator}"} for bet, e in sheet.edges]
            continue
        print(sheet.heading)
        for bet, e in sheet.edges:
            exact = f"   ({e.numerator}/{e.denominator})" if e.denominator < 10**7 else ""
            print(f"  {bet:<16} {float(e) * 100:8.3f}%{exact}")
        print()
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0

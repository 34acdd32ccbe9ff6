"""`casino odds`: the exact house edge of every bet at every craps table.

Computed by the rules engine itself (server.games.craps.edge: exact Markov
chains in fractions), so an operator sees what a config change does (odds,
field_12, a simplified table's bar) before serving it.
"""
from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "odds", help="exact house edge of each bet at each craps table",
        description="Print the exact house edge of each bet at every craps table in the config.")
    parser.add_argument("--config", type=Path, default=Path("config"), metavar="DIR",
                        help="directory of server and table config (default: ./config)")
    parser.add_argument("--rooms", type=Path, default=None, metavar="DIR",
                        help="directory of room files (default: rooms/ beside the config directory)")
    parser.add_argument("--table", metavar="ID", help="only this table")
    parser.add_argument("--json", action="store_true",
                        help='print [{"table": id, "bet": name, "house_edge": fraction}, ...]')
    parser.set_defaults(func=run)


def rooms_dir(config: Path, rooms: Path | None) -> Path:
    """--rooms, else rooms/ beside the config directory, else ./rooms."""
    if rooms is not None:
        return rooms
    beside = config.resolve().parent / "rooms"
    return beside if beside.is_dir() else Path("rooms")


def edges_for(table):  # -> list[tuple[str, Fraction]] | None
    """The edges of one craps table, or None when this build cannot compute them."""
    from server.games.craps.options import CrapsOptions

    opts = table.options
    if table.game != "craps" or not isinstance(opts, CrapsOptions):
        return None
    if opts.variant == "bank":
        from server.games.craps.edge import house_edges
        return house_edges(table)
    if opts.variant == "simplified":
        try:
            from server.games.simplified.odds import house_edges as simplified_edges
        except ImportError:
            return None
        return simplified_edges(table)
    return None


def describe(table) -> str:
    opts = table.options
    if opts.variant == "bank":
        odds = "3-4-5x (6x laid)" if opts.odds == 0 else f"{opts.odds}x"
        return (f"{table.id}: bank craps, odds {odds}, field 12 pays {opts.field_12}:1, "
                f"bets {table.min_bet}..{table.max_bet}")
    return f"{table.id}: {opts.variant} craps, bets {table.min_bet}..{table.max_bet}"


def run(args: argparse.Namespace) -> int:
    import json

    from server.cli._config import load_or_report

    cfg = load_or_report(args.config, rooms_dir(args.config, args.rooms))
    if cfg is None:
        return 1
    tables = [t for t in cfg.tables.values() if t.game == "craps"]
    if args.table:
        tables = [t for t in tables if t.id == args.table]
        if not tables:
            print(f"no craps table {args.table!r} in {args.config}")
            return 1
    rows: list[dict] = []
    for table in tables:
        edges = edges_for(table)
        if edges is None:
            if not args.json:
                print(f"{table.id}: variant {table.options.variant!r}: no edge calculator available\n")
            continue
        if args.json:
            rows += [{"table": table.id, "bet": bet, "house_edge": float(e)} for bet, e in edges]
            continue
        print(describe(table))
        for bet, e in edges:
            exact = f"   ({e.numerator}/{e.denominator})" if e.denominator < 10**7 else ""
            print(f"  {bet:<16} {float(e) * 100:8.3f}%{exact}")
        print()
    if args.json:
        print(json.dumps(rows, indent=1))
    return 0

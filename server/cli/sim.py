"""`casino sim`: play a strategy for N rolls at a craps table, fast (or basic
strategy for N rounds at a blackjack table: server.sim.blackjack).

Uses the real rules (server.games.craps.outcome) through the simulator in
server.sim, with a seeded PRNG for the dice, and prints what it measured,
including rolls per second.
"""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.config.model import GameOptions, TableConfig


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "sim", help="simulate a craps or blackjack strategy",
        description="Play a strategy at a bank craps table (or a variant's) for N rolls and report the result. "
                    "Strategies: pass, pass-odds, many, or module:Name / file.py:Name "
                    "(see docs/craps-engine.md). At a blackjack table: basic, for N rounds.")
    parser.add_argument("--table", required=True, metavar="ID", help="a bank craps or craps variant table id")
    parser.add_argument("--strategy", required=True, metavar="NAME")
    parser.add_argument("--rolls", required=True, type=int, metavar="N")
    parser.add_argument("--seed", required=True, type=int, metavar="S")
    parser.add_argument("--config", type=Path, default=Path("config"), metavar="DIR",
                        help="directory of server and table config (default: ./config)")
    parser.add_argument("--rooms", type=Path, default=None, metavar="DIR",
                        help="directory of room files (default: rooms/ beside the config directory)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.cli.odds import rooms_dir
    from server.cli._config import load_or_report
    from server.games.craps.options import CrapsOptions
    from server.sim import craps as sim
    from server.sim import strategies

    if args.rolls < 1:
        print("--rolls must be at least 1")
        return 2
    cfg = load_or_report(args.config, rooms_dir(args.config, args.rooms))
    if cfg is None:
        return 1
    def played(t: TableConfig[GameOptions]) -> bool:
        """Bank craps and its variants (the solo simplified table is another engine)."""
        return t.game == "craps" and t.options.variant != "simplified"

    table = cfg.tables.get(args.table)
    if table is not None and table.game == "blackjack":
        return blackjack(table, args)
    if table is None or not played(table):
        ids = sorted(t.id for t in cfg.tables.values() if played(t))
        print(f"no bank craps table {args.table!r}; bank craps tables (and variants): {', '.join(ids) or 'none'}")
        return 1
    try:
        strategy = strategies.load(args.strategy)
    except (ValueError, ImportError, OSError) as exc:
        print(exc)
        return 2
    result = sim.run(table.narrowed(CrapsOptions), strategy, args.rolls, args.seed)
    print(f"table {table.id}, strategy {args.strategy}, seed {args.seed}")
    print(f"rolls            {result.rolls}")
    print(f"chips wagered    {result.wagered}")
    print(f"net              {result.net:+d}")
    print(f"measured edge    {float(result.edge) * 100:.3f}%")
    print(f"open bets        {result.open_bets} (undecided at the end, not counted)")
    print(f"rolls per second {result.rolls_per_second:,.0f}")
    return 0


def blackjack(table: TableConfig[GameOptions], args: argparse.Namespace) -> int:
    """A blackjack table: basic strategy for --rolls rounds (server.sim.blackjack)."""
    from server.games.blackjack.options import BlackjackOptions
    from server.sim import blackjack as sim

    try:
        result = sim.run(table.narrowed(BlackjackOptions), args.strategy, args.rolls, args.seed)
    except ValueError as exc:
        print(exc)
        return 2
    print(f"table {table.id}, strategy {args.strategy}, seed {args.seed}")
    for line in result.lines():
        print(line)
    return 0

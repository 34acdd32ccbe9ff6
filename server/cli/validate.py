"""`casino validate`: check config/ and rooms/ without starting the server.

Operators run it before `reload` or a restart; it prints exactly what the
server would refuse, one `file:line: key: problem` per line, or a one-line
summary of what would be served.
"""
from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = subparsers.add_parser(
        "validate", help="check the config and room files",
        description="Check the config and room files; exit 0 if they are valid, 1 if not.")
    parser.add_argument("--config", type=Path, default=Path("config"), metavar="DIR",
                        help="directory of server and table config (default: ./config)")
    parser.add_argument("--rooms", type=Path, default=Path("rooms"), metavar="DIR",
                        help="directory of room files (default: ./rooms)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.cli._config import load_or_report

    cfg = load_or_report(args.config, args.rooms)
    if cfg is None:
        return 1
    tables = ", ".join(cfg.tables) or "none"          # the tables by id, as rooms list them
    shards = cfg.settings.shards
    laid = ("; shards: " + ", ".join(f"{s.name} ({len(s.rooms)} room{'s' if len(s.rooms) > 1 else ''})" for s in shards)) if shards else ""
    print(f"OK: {len(cfg.rooms)} rooms, {len(cfg.tables)} tables ({tables}), "
          f"start room {cfg.settings.start_room!r}, port {cfg.settings.port}{laid}")
    return 0

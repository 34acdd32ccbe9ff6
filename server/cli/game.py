"""`casino game`: the game process behind a portal (started by `casino serve`, not by hand).

It serves the connections the portal hands it on the socket whose descriptor
is in CASINO_LINK_FD (server/portal/game.py), and exits when told to stop or
restart, or when the portal goes away.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from server.net import arrival

if TYPE_CHECKING:
    from server.config.model import Metrics


def metrics_address(text: str) -> Metrics:
    """`--metrics`' value (server.metrics.serving.address, imported when given)."""
    from server.metrics.serving import address
    return address(text)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from server.cli._database import add_options as add_database_options
    p = sub.add_parser("game", help="the game process behind the portal (casino serve starts it)")
    p.add_argument("--config", default="config", help="config directory (default ./config)")
    p.add_argument("--rooms", default="rooms", help="rooms directory (default ./rooms)")
    add_database_options(p)
    p.add_argument("--seed", type=int, default=None, help="make every table's dice deterministic")
    p.add_argument("--log-json", action="store_true", help="log one JSON object per line")
    p.add_argument("--shard", default=None,
                   help="host this shard's rooms of server.shards (casino serve names it)")
    p.add_argument("--metrics", type=metrics_address, default=None, metavar="HOST:PORT",
                   help="serve /metrics there (casino serve gives each game process its own)")
    p.add_argument("--links", default=None, metavar="PATH",
                   help="also serve the portals that dial this Unix socket (casino serve names it)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server import logs
    from server.cli._config import load_or_report
    from server.portal.game import handover_fd_from_env, link_fd_from_env
    logs.configure(as_json=args.log_json)
    try:
        fds = (link_fd_from_env(), handover_fd_from_env())
    except (KeyError, ValueError):
        print("casino game: run by `casino serve` (no portal link: CASINO_LINK_FD, CASINO_HANDOVER_FD)",
              file=sys.stderr)
        return 2
    # A terminal's Ctrl-C and hang-up go to the whole process group: the portal, which
    # stops this process cleanly with its `stop`. Taken here too, they would kill it
    # mid-stop (a traceback, the stakes left to recovery).
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    config = load_or_report(Path(args.config), Path(args.rooms), sys.stderr)
    if config is None:
        return 1
    if config.settings.log_format == "json" and not args.log_json:
        logs.configure(as_json=True)
    return arrival.run(_game(config, args, fds))


async def _game(config: object, args: argparse.Namespace, fds: tuple[int, int]) -> int:
    from server.app import Casino
    from server.cli._database import chosen, open_errors, refuse
    from server.config.model import CasinoConfig
    from server.db.url import DatabaseError
    from server.portal.game import serve_game
    assert isinstance(config, CasinoConfig)
    from server.portal.portal import DATABASE_ENV
    if args.database is None and DATABASE_ENV in os.environ:
        args.database = os.environ[DATABASE_ENV]      # what the portal chose (kept out of `ps`)
    try:
        database = chosen(args, config.settings.database)
    except DatabaseError as e:
        print(refuse("casino serve", None, e), file=sys.stderr, flush=True)
        return 1
    if args.shard is not None and args.shard not in {s.name for s in config.settings.shards}:
        print(f"casino game: no shard {args.shard!r} in server.shards", file=sys.stderr, flush=True)
        return 1
    app = Casino(config, database, seed=args.seed, config_dir=args.config, rooms_dir=args.rooms,
                 shard=args.shard)
    app.metrics = args.metrics               # where the portal said, or nowhere
    return await serve_game(app, *fds, lambda e: refuse("casino serve", database, e)
                            if isinstance(e, open_errors()) else None, links_path=args.links)

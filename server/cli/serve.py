"""`casino serve`: run the casino until SIGINT or SIGTERM.

Two processes by default: the portal (this one) holds every connection and
starts the game process (`casino game`), which can then restart without
dropping anyone (server/portal). `--one-process` runs everything in this
process, as before the portal: a restart then disconnects everyone.
"""
from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
from pathlib import Path

from server.net import arrival
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from server.config.model import CasinoConfig, Settings
    from server.db.url import Database

PID_NAME = "casino.pid"


def pid_default(database: Database) -> Path:
    """Where the portal's pid is kept unless told: beside the SQLite file (data/ of
    `make run`), else in the current directory; `casino restart` looks there too."""
    return database.path.parent / PID_NAME if database.path is not None else Path(PID_NAME)


class ReloadApp(Protocol):
    """What SIGHUP uses of the casino (server.app.Casino): its reload."""

    async def reload(self) -> tuple[bool, list[str]]: ...


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from server.cli._database import add_options as add_database_options
    from server.cli.game import metrics_address
    p = sub.add_parser("serve", help="run the casino server")
    p.add_argument("--host", default=None, help="address to listen on (default 127.0.0.1, or config)")
    p.add_argument("--port", type=int, default=None, help="port (default 4000, or config)")
    p.add_argument("--web-port", type=int, default=None,
                   help="port of the browser page (default 4080, or config; 0 turns it off)")
    p.add_argument("--config", default="config", help="config directory (default ./config)")
    p.add_argument("--rooms", default="rooms", help="rooms directory (default ./rooms)")
    add_database_options(p)
    p.add_argument("--seed", type=int, default=None, help="make every table's dice deterministic")
    p.add_argument("--log-json", action="store_true", help="log one JSON object per line")
    p.add_argument("--metrics", type=metrics_address, default=None, metavar="[HOST:]PORT",
                   help="serve /metrics there: the portal on PORT, its game processes on the ports after it"
                        " (default: the config's server.metrics; none when it has none)")
    p.add_argument("--one-process", action="store_true",
                   help="no portal: connections, games and the ledger in this one process"
                        " (a restart then disconnects everyone)")
    p.add_argument("--pid-file", default=None,
                   help=f"where the portal writes its pid, for `casino restart` (default: {PID_NAME} beside"
                        f" the SQLite file, or in the current directory on PostgreSQL)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server import logs
    from server.cli._config import load_or_report, settings_or_report
    logs.configure(as_json=args.log_json)
    # the portal reads the settings alone (it imports no game): its game process
    # reads and checks the whole config, and says what is wrong as this would
    config = (load_or_report(Path(args.config), Path(args.rooms), sys.stderr) if args.one_process
              else settings_or_report(Path(args.config), sys.stderr))
    if config is None:
        return 1
    if config.settings.log_format == "json" and not args.log_json:   # the config's key and the flag agree
        args.log_json = True
        logs.configure(as_json=True)
    if args.metrics is None:
        args.metrics = config.settings.metrics      # the flag wins over the config, as --port does
    return arrival.run(_serve(config, args))


async def _serve(config: CasinoConfig, args: argparse.Namespace) -> int:
    from server.casino.listeners import CannotListen, check_free
    from server.cli._database import chosen, open_errors, refuse
    from server.db.url import DatabaseError
    settings = config.settings
    try:
        database = chosen(args, settings.database)
    except DatabaseError as e:
        print(refuse("casino serve", None, e), file=sys.stderr, flush=True)
        return 1
    refused = shards_refusal(settings, database, args.one_process)
    if not refused and args.one_process and settings.portals > 1:
        refused = (f"server.portals: {settings.portals} portals are processes beside the game processes:"
                   " --one-process has none")
    if refused:
        print(f"casino serve: {refused}", file=sys.stderr, flush=True)
        return 1
    host = args.host or settings.host
    port = args.port if args.port is not None else settings.port
    web_port = args.web_port if args.web_port is not None else settings.web_port
    try:                          # before the ledger, the tables or a game process open
        check_free(host, port, web_port or None)
    except CannotListen as e:
        print(e, file=sys.stderr, flush=True)
        return 1
    if not args.one_process:
        return _exec_portal(args, settings, database, host, port, web_port or None)
    from server.app import Casino              # the portal imports none of the casino
    app = Casino(config, database, seed=args.seed, config_dir=args.config, rooms_dir=args.rooms)
    app.metrics = args.metrics
    try:
        await app.start(host, port, web_port=web_port or None)
    except CannotListen as e:     # one line, not a traceback
        print(e, file=sys.stderr, flush=True)
        return 1
    except open_errors() as e:    # the database is down, refuses us, or another casino holds it
        await app.stop("The casino could not start.")
        print(refuse("casino serve", database, e), file=sys.stderr, flush=True)
        return 1
    if not args.log_json:   # JSON logs carry the same in their `listening` event
        print(f"Listening: {app.addresses}", file=sys.stderr, flush=True)
    if args.seed is not None and not args.log_json:   # JSON logs: the seed is in `listening`
        print(f"Deterministic dice: every table's dice derive from --seed {args.seed}.", file=sys.stderr)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, app.request_stop, "The casino is closing for the night.")
    loop.add_signal_handler(signal.SIGHUP, lambda: asyncio.ensure_future(_reload(app)))
    await app.stop_requested.wait()
    await app.stop(app.stop_reason)
    return 0


async def _reload(app: ReloadApp) -> None:
    """SIGHUP: the same as an operator's `reload`; the outcome goes to the log."""
    applied, lines = await app.reload()
    for line in lines:
        print(("reload: " if applied else "reload refused: ") + line, file=sys.stderr)


def shards_refusal(settings: Settings, database: Database, one_process: bool = False) -> str:
    """Why `casino serve` will not run these shards on this database ('' if it will).
    --database or --data may put a config validated for PostgreSQL on SQLite; shards
    are game processes behind a portal, which --one-process has none of."""
    from server.config.shards import sharded, sqlite_refusal
    from server.db.url import SQLITE
    if not sharded(settings):
        return ""
    if database.kind == SQLITE:
        return sqlite_refusal(settings)
    if one_process:
        return (f"{len(settings.shards)} shards are {len(settings.shards)} game processes behind the portal:"
                " --one-process cannot serve them")
    return ""


def _exec_portal(args: argparse.Namespace, settings: Settings, database: Database, host: str,
                 port: int, web_port: int | None) -> int:
    """Become the portal (server/portal/__main__.py): this process, checked and with
    its options read, is replaced by a fresh interpreter that loads only what the
    portal uses (the same pid: signals, the pid file and a service manager see no
    change). The database URL goes in the environment, out of `ps`."""
    import dataclasses

    from server.config.model import plain_settings
    from server.config.shards import door
    from server.portal.main import Plan, plan_env
    from server.portal.portal import DATABASE_ENV, games
    plan: Plan = {"config": str(args.config), "rooms": str(args.rooms), "host": host, "port": port,
                  "web_port": web_port,
                  "pid_file": str(Path(args.pid_file) if args.pid_file else pid_default(database)),
                  "games": games(args, settings), "door": door(settings),
                  "log_json": bool(args.log_json), "seed": args.seed,
                  # the portal serves /metrics where --metrics or the config says
                  "settings": plain_settings(dataclasses.replace(settings, metrics=args.metrics)),
                  "portals": settings.portals}
    os.environ.update(plan_env(plan))
    os.environ[DATABASE_ENV] = database.url
    sys.stdout.flush()
    sys.stderr.flush()
    # what `casino serve` was given follows, unread: for `ps` and `casino restart` (its --config)
    os.execv(sys.executable, [sys.executable, "-m", "server.portal", *sys.argv[1:]])

"""Which database a sub-command uses, and why it could not use it, in one line.

Shared by every sub-command that touches chips or accounts (serve, account
create, ledger check), so they all read the same URL the same way:
`--database URL` first; then `--data FILE`, an SQLite file, kept so earlier
command lines and `make run` work unchanged; then the config's
`server.database` (sqlite:///data/casino.db as shipped).
"""
from __future__ import annotations

import argparse
import sqlite3

from server.db.url import Database, DatabaseError

DATABASE_HELP = ("where chips and accounts live: sqlite:///path/to/file.db or"
                 " postgresql://user:password@host:port/dbname (default: the config's server.database,"
                 " sqlite:///data/casino.db as shipped); wins over --data")
DATA_HELP = "an SQLite file, the older spelling of --database sqlite:///FILE (used when --database is not given)"


def add_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--database", metavar="URL", default=None, help=DATABASE_HELP)
    parser.add_argument("--data", metavar="FILE", default=None, help=DATA_HELP)


def chosen(args: argparse.Namespace, configured: str) -> Database:
    """The database named on the command line, else `configured` (the config's
    `server.database`); raises DatabaseError, whose message is one line."""
    if args.database is not None:
        return Database.parse(args.database)
    if args.data is not None:
        return Database.parse(f"sqlite:///{args.data}")     # always a file, whatever it looks like
    return Database.parse(configured)


def open_errors() -> tuple[type[BaseException], ...]:
    """What opening a database raises when the database, not the program, is at
    fault: a bad URL, a server that is down or refuses us, a file we cannot
    open or that another casino holds, a schema newer than this program."""
    import psycopg

    from server.ledger.errors import LedgerError
    return (DatabaseError, LedgerError, sqlite3.Error, psycopg.Error, OSError, RuntimeError)


def refuse(command: str, db: Database | None, exc: BaseException) -> str:
    """`command: why`, one line, never the password."""
    if db is None or isinstance(exc, DatabaseError):
        lines = str(exc).strip().splitlines() or [type(exc).__name__]
        return f"{command}: {lines[0].strip()}"
    return f"{command}: {db.problem(exc)}"

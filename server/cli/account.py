"""`casino account create NAME`: make an account from the server's machine.

Operator accounts are made this way: the names listed under `operators:`
cannot be created over telnet, so nobody can claim operator rights by being
first to type `create admin`. The password is read from standard input (a
prompt with echo off on a terminal). Run it while the server is stopped: a
ledger (an SQLite file or a PostgreSQL database) admits one process at a time.
"""
from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.config.model import Settings
    from server.db.url import Database


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from server.cli._database import add_options as add_database_options
    p = sub.add_parser("account", help="make an account (operators are made this way)")
    actions = p.add_subparsers(dest="action", metavar="ACTION", required=True)
    create = actions.add_parser("create", help="create an account; the password is read from stdin")
    create.add_argument("name")
    create.add_argument("--config", default="config", help="config directory (default ./config)")
    create.add_argument("--rooms", default="rooms", help="rooms directory (default ./rooms)")
    add_database_options(create)
    create.set_defaults(func=run)


def _read_password() -> str:
    if sys.stdin.isatty():
        first = getpass.getpass("Password: ")
        if getpass.getpass("Again: ") != first:
            raise SystemExit("The passwords did not match.")
        return first
    return sys.stdin.readline().rstrip("\r\n")


def run(args: argparse.Namespace) -> int:
    from server.accounts.names import new_name_problem
    from server.accounts.passwords import password_problem
    from server.cli._config import load_or_report
    from server.cli._database import chosen, open_errors, refuse
    from server.db.url import DatabaseError
    config = load_or_report(Path(args.config), Path(args.rooms), sys.stderr)
    if config is None:
        return 1
    try:
        database = chosen(args, config.settings.database)
    except DatabaseError as exc:
        print(refuse("casino account create", None, exc), file=sys.stderr)
        return 1
    problem = new_name_problem(args.name)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    password = _read_password()
    problem = password_problem(password)
    if problem:
        print(problem, file=sys.stderr)
        return 1
    try:
        return asyncio.run(_create(args, database, password, config.settings))
    except open_errors() as exc:     # down, refused, held by a running casino: one line
        print(refuse("casino account create", database, exc), file=sys.stderr)
        return 1


async def _create(args: argparse.Namespace, database: Database, password: str, settings: Settings) -> int:
    from server.accounts.create import create_account
    from server.accounts.passwords import Passwords
    from server.accounts.store import AccountStore, NameTaken
    from server.ledger import Ledger
    if database.path is not None:
        database.path.parent.mkdir(parents=True, exist_ok=True)
    ledger = await Ledger.open(database)
    try:
        accounts = AccountStore(database, settings.operators)
    except BaseException:
        await ledger.close()
        raise
    passwords = Passwords.of(settings)       # the server's cost, so its logins need no rehash
    chips = settings.starting_chips
    try:
        account = await create_account(accounts, ledger, passwords, args.name, password, chips)
    except NameTaken:
        print(f"The name {args.name} is taken.", file=sys.stderr)
        return 1
    finally:
        passwords.close()
        accounts.close()
        await ledger.close()
    print(f"Created account {account.name} with {chips} chips.")
    return 0

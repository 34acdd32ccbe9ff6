"""Shared fixtures: a fresh ledger per test on a real database, and the real CLI.

The ledger's promises are the same on SQLite and on PostgreSQL, so a test of
one takes `database` (the URL of a fresh, empty database; tests/conftest.py)
and its module is marked `both_stores`: it runs once on each. `raw(database)`
opens a plain connection to whichever it is, to look at or tamper with the
rows behind the ledger's back. Tests of what only an SQLite file has (its lock
file, PRAGMA user_version, migrations from older files) take `db_path`.
"""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest

from server.db.connection import Conn, connect, dialect_of
from server.db.url import Database
from server.db.connection import Dialect
from server.ledger import Ledger

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pg_url(postgres):
    """A fresh PostgreSQL database of its own, for a test of what only PostgreSQL does."""
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


@contextmanager
def raw(database: str | Path) -> Iterator[Conn]:
    """A plain autocommit connection to the ledger's database (either kind)."""
    conn = connect(Database.parse(database))
    try:
        yield conn
    finally:
        conn.close()


def url_of(where: str | Path) -> str:
    """A database URL: `where` as given, or an SQLite file's path as sqlite:///..."""
    return str(where) if "://" in str(where) else f"sqlite:///{where}"


def dialect(database: str | Path) -> Dialect:
    return dialect_of(Database.parse(database))


def casino_argv() -> list[str]:
    script = Path(sys.executable).parent / "casino"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from server.cli import main; sys.exit(main())"]


def ledger_check(where, *extra: str) -> subprocess.CompletedProcess:
    """`casino ledger check --data WHERE`: an SQLite file's path or any database URL."""
    return subprocess.run([*casino_argv(), "ledger", "check", "--database", url_of(where), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)


def ledger_check_json(where) -> tuple[int, dict]:
    done = ledger_check(where, "--json")
    return done.returncode, json.loads(done.stdout)


@pytest.fixture
def cli():
    """Runs the real `casino ledger check` (the installed script, else its entry point)."""
    return SimpleNamespace(argv=casino_argv, check=ledger_check, check_json=ledger_check_json)


@pytest.fixture
def db_path(tmp_path):
    """An SQLite file, for the tests of what only SQLite has."""
    return tmp_path / "casino.db"


@pytest.fixture
async def ledger(database):
    led = await Ledger.open(database)
    yield led
    await led.close()

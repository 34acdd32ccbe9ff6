"""Shared fixtures: a fresh ledger on a real SQLite file per test, and the real CLI."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from server.ledger import Ledger

ROOT = Path(__file__).resolve().parents[2]


def casino_argv() -> list[str]:
    script = Path(sys.executable).parent / "casino"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from server.cli import main; sys.exit(main())"]


def ledger_check(path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([*casino_argv(), "ledger", "check", "--data", str(path), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=60, check=False)


def ledger_check_json(path) -> tuple[int, dict]:
    done = ledger_check(path, "--json")
    return done.returncode, json.loads(done.stdout)


@pytest.fixture
def cli():
    """Runs the real `casino ledger check` (the installed script, else its entry point)."""
    return SimpleNamespace(argv=casino_argv, check=ledger_check, check_json=ledger_check_json)


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "casino.db"


@pytest.fixture
async def ledger(db_path):
    led = await Ledger.open(db_path)
    yield led
    await led.close()

"""Fixtures shared by the end-to-end tests: a real server on 127.0.0.1.

The server runs in the test's event loop with its real telnet listener and a
real SQLite file, but its clock loop is off: tests move time with
`app.manager.tick_elapsed(n)`. After each test the ledger's invariants must hold.
"""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))

from support.telnet import Client  # noqa: E402


def shipped_config(**settings_changes):
    from server.config.load import load_config
    config = load_config(ROOT / "config", ROOT / "rooms")
    if settings_changes:
        limits_changes = settings_changes.pop("limits", {})
        settings = config.settings
        if limits_changes:
            settings = dataclasses.replace(settings, limits=dataclasses.replace(settings.limits, **limits_changes))
        settings = dataclasses.replace(settings, **settings_changes)
        config = dataclasses.replace(config, settings=settings)
    return config


@pytest.fixture
async def casino_factory(tmp_path):
    """Start a casino with settings changes; stops it and checks the ledger afterwards."""
    from server.app import Casino
    from server.ledger import check
    started = []

    async def start(seed=None, web=False, **settings_changes):
        # Every test client connects from 127.0.0.1, and many tests sign up more
        # players than one address may per hour; tests of that limit set it.
        limits = settings_changes["limits"] = dict(settings_changes.get("limits", {}))
        limits.setdefault("accounts_per_ip_per_hour", 1000)
        # ... and many open more connections at once than one address may
        # have logging in; tests of that limit set it too.
        limits.setdefault("login_connections_per_ip", 1000)
        config = shipped_config(**settings_changes)
        app = Casino(config, tmp_path / "casino.db", seed=seed, config_dir=ROOT / "config", rooms_dir=ROOT / "rooms")
        # web=True also serves the browser page, on any free port (app.web_port).
        await app.start("127.0.0.1", 0, web_port=0 if web else None, run_clock=False)
        started.append(app)
        return app

    yield start
    for app in started:
        await app.stop()
        report = check(app.data_path)
        assert report.ok, report


@pytest.fixture
async def casino(casino_factory):
    return await casino_factory(operators=("admin",))


@pytest.fixture
def connect(casino):
    """Open telnet clients to the running casino; all closed after the test."""
    clients: list[Client] = []

    async def open_client(**kw) -> Client:
        client = await Client.open(casino.port, **kw)
        clients.append(client)
        return client

    yield open_client
    for c in clients:
        c.writer.close()

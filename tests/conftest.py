"""Fixtures shared by the end-to-end tests: a real server on 127.0.0.1.

The server runs in the test's event loop with its real telnet listener and a
real SQLite file, but its clock loop is off: tests move time with
`app.manager.tick_elapsed(n)`. After each test the ledger's invariants must hold.

The store: `database` is the URL of a fresh, empty database for one test, an
SQLite file by default. A module (or test) marked `both_stores` runs each test
twice, once on SQLite and once on a real PostgreSQL server, which the first such
test starts for the whole run (tests/support/postgres.py: initdb into a
temporary directory, a free port) and the run stops at its end.
"""
from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))

from support.postgres import Cluster  # noqa: E402
from support.telnet import Client  # noqa: E402

STORES = ("sqlite", "postgresql")


def pytest_configure(config):
    config.addinivalue_line("markers", "both_stores: run each test on SQLite and on PostgreSQL (the `store` param)")


def pytest_generate_tests(metafunc):
    """Tests that use `database` run on SQLite, and on PostgreSQL too where marked `both_stores`."""
    if "store" in metafunc.fixturenames:
        stores = STORES if metafunc.definition.get_closest_marker("both_stores") else ("sqlite",)
        metafunc.parametrize("store", stores, indirect=True)


@pytest.fixture
def store(request):
    """Which store this test runs on: "sqlite" or "postgresql"."""
    return getattr(request, "param", "sqlite")


@pytest.fixture(scope="session")
def postgres():
    """One real PostgreSQL server for the whole run, started on first use."""
    cluster = Cluster().start()
    yield cluster
    cluster.stop()


@pytest.fixture
def database(store, tmp_path, request):
    """The URL of a fresh database for this test: an SQLite file in tmp_path, or a new
    PostgreSQL database (dropped afterwards)."""
    if store == "sqlite":
        yield f"sqlite:///{tmp_path / 'casino.db'}"
        return
    cluster = request.getfixturevalue("postgres")
    url = cluster.create_database()
    yield url
    cluster.drop_database(url)


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
async def casino_factory(database):
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
        app = Casino(config, database, seed=seed, config_dir=ROOT / "config", rooms_dir=ROOT / "rooms")
        # web=True also serves the browser page, on any free port (app.web_port).
        await app.start("127.0.0.1", 0, web_port=0 if web else None, run_clock=False)
        started.append(app)
        return app

    yield start
    for app in started:
        await app.stop()
        report = check(app.database)
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

"""Fixtures of the end-to-end tests that run servers of their own: a NATS broker,
and a PostgreSQL server a test may stop and start (the session's shared one,
`postgres`, serves everyone else and is never stopped)."""
from __future__ import annotations

import pytest

from support.nats import Broker
from support.postgres import Cluster


@pytest.fixture
def broker():
    """A real nats-server on a free port, removed afterwards (the test may stop and start it)."""
    b = Broker().start()
    yield b
    b.remove()


@pytest.fixture
def cluster():
    """A PostgreSQL server for this test alone: the test may stop it, and start it again."""
    c = Cluster().start()
    try:
        yield c
    finally:
        c.stop()

"""What only a database server can do to the ledger, done for real (server/ledger/postgres_store.py).

A second casino on the same database; a casino killed while its session was
still busy; the server stopped (`pg_ctl stop -m immediate`) and started under
an open ledger; and a COMMIT whose connection broke, once after the server
had committed it and once before. The broken connection is a real one: the
ledger talks to PostgreSQL through a TCP relay (`Relay`) that cuts the
writer's connection around its next COMMIT, as a network fault would.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from server.ledger import Balance, Ledger, LedgerError, LedgerUnavailable, check
from server.ledger.mirror import Mirror
from server.ledger.postgres_store import PostgresStore
from support.postgres import Cluster

from .conftest import raw

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def pg(postgres):
    """A fresh database on the run's shared server (tests here never stop that one)."""
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


def fresh_mirror(url: str) -> tuple:
    with raw(url) as conn:
        return Mirror(conn).snapshot()


async def test_a_second_ledger_on_the_same_database_is_refused_naming_it_without_its_password(pg):
    with_password = pg.replace("casino@", "casino:s3cret@")      # trust auth: the password is unused
    led = await Ledger.open(with_password)
    try:
        await led.mint("m", "alice", 100, "start")
        await led.hold("h1", "alice", "t", 10)
        with pytest.raises(LedgerError, match="another process has this ledger open") as refused:
            await Ledger.open(with_password)                   # its recovery would refund h1
        assert "s3cret" not in str(refused.value) and "casino:***@" in str(refused.value)
        assert await led.balance("alice") == Balance(90, {"t": 10})
    finally:
        await led.close()
    report = check(pg)
    assert report.ok and report.open_holds == 1


BUSY_CASINO = """
import asyncio, sys
from server.ledger import Ledger

async def main():
    led = await Ledger.open(sys.argv[1])
    await led.mint("m", "alice", 100, "start")
    await led.hold("h1", "alice", "t", 10)
    print("busy", flush=True)
    led.store._w.execute("SELECT pg_sleep(2)")   # the session is busy when the process dies

asyncio.run(main())
"""


async def test_a_casino_restarted_at_once_after_kill_9_waits_for_its_dead_session(pg):
    """The killed process's backend finishes its statement before it notices the
    client is gone, and holds the ledger's lock until then; the restart waits."""
    proc = subprocess.Popen([sys.executable, "-c", BUSY_CASINO, pg], stdout=subprocess.PIPE, text=True,
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout.readline() == "busy\n"
        with raw(pg) as conn:
            for _ in range(500):
                if conn.execute("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep%'"
                                " AND state = 'active' AND datname = current_database()").fetchone()[0]:
                    break
                conn.execute("SELECT pg_sleep(0.01)")
            proc.send_signal(signal.SIGKILL)
            proc.wait()
            held = conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                                " AND granted AND database = (SELECT oid FROM pg_database"
                                " WHERE datname = current_database())").fetchone()[0]
        assert held == 1                                      # the dead casino's lock, still held
        led = await Ledger.open(pg)
    finally:
        proc.kill()
        proc.wait()
    try:
        assert [(r.action, r.stake) for r in led.recovered] == [("refunded", "h1")]
        assert await led.balance("alice") == Balance(100, {})
    finally:
        await led.close()
    assert check(pg).ok


async def test_the_server_stopped_and_started_under_an_open_ledger():
    """Calls fail while it is away (nothing recorded wrong); after it is back the next
    call reconnects, the mirror is reloaded, and a retried settlement pays once."""
    cluster = Cluster().start()          # its own server: stopping the run's would break other tests
    try:
        url = cluster.create_database()
        led = await Ledger.open(url)
        try:
            await led.mint("m-alice", "alice", 100, "start")
            await led.mint("m-bob", "bob", 100, "start")
            await led.hold("a1", "alice", "craps", 10)
            await led.hold("b1", "bob", "craps", 10)
            cluster.pg_ctl("stop", "-m", "immediate")
            with pytest.raises(LedgerUnavailable):
                await led.settle("win1", "craps", ["a1"], {"alice": 20})
            with pytest.raises(LedgerUnavailable):                 # still away: fails again, at once
                await led.hold("a2", "alice", "craps", 5)
            assert await led.balance("alice") == Balance(90, {"craps": 10})
            cluster.pg_ctl("start", "-w")
            report = check(url)                                    # nothing of the failed calls
            assert report.ok and report.operations == 4 and report.open_holds == 2
            assert report.pending_outcomes == 0                    # (it could not be recorded either)

            await led.settle("win1", "craps", ["a1"], {"alice": 20})   # the table's retry, same key
            await led.settle("win1", "craps", ["a1"], {"alice": 20})
            assert await led.balance("alice") == Balance(110, {})
            assert [(m.kind, m.amount) for m in await led.statement("alice", 1)] == [("settle", 20)]
            assert led.store.mirror.snapshot() == fresh_mirror(url)
            report = check(url)
            assert report.ok and report.operations == 5 and report.house == -10 and report.open_holds == 1
        finally:
            await led.close()
        again = await Ledger.open(url)                             # the lock was taken again, and let go
        try:
            assert [(r.action, r.stake) for r in again.recovered] == [("refunded", "b1")]
        finally:
            await again.close()
        report = check(url)
        assert report.ok and report.open_holds == 0 and report.minted == 200 == report.balances
    finally:
        cluster.stop()


class Relay:
    """A TCP relay to PostgreSQL that can cut one client's connection around its next
    COMMIT: "after" once the server has answered it (the COMMIT landed, the client
    never hears so), "before" without passing it on (it never reaches the server)."""

    def __init__(self, port: int) -> None:
        self.port_to = port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.cuts: dict[int, str] = {}          # client's port -> "after" | "before"
        self.cut_done = threading.Event()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, database_url: str) -> str:
        return database_url.replace(f":{self.port_to}/", f":{self.port}/")

    def cut(self, pg_conn, when: str) -> None:
        """Cut `pg_conn` (a PgConn) around its next COMMIT."""
        sock = socket.socket(fileno=os.dup(pg_conn.raw.pgconn.socket))
        try:
            self.cuts[sock.getsockname()[1]] = when
        finally:
            sock.close()
        self.cut_done.clear()

    def close(self) -> None:
        self.listener.close()

    def _accept(self) -> None:
        while True:
            try:
                client, (_, peer) = self.listener.accept()
            except OSError:
                return
            server = socket.create_connection(("127.0.0.1", self.port_to))
            committed = threading.Event()
            threading.Thread(target=self._up, args=(client, server, peer, committed), daemon=True).start()
            threading.Thread(target=self._down, args=(client, server, committed), daemon=True).start()

    def _drop(self, *socks: socket.socket) -> None:
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        self.cut_done.set()

    def _up(self, client, server, peer: int, committed: threading.Event) -> None:
        commits = CommitSpotter()
        try:
            while data := client.recv(65536):
                saw_commit = commits.feed(data)
                when = self.cuts.get(peer)
                if when and saw_commit:
                    del self.cuts[peer]
                    if when == "before":
                        self._drop(client, server)
                        return
                    committed.set()              # the server's answer to it is the proof
                server.sendall(data)
        except OSError:
            pass
        finally:
            server.close()

    def _down(self, client, server, committed: threading.Event) -> None:
        try:
            while data := server.recv(65536):
                if committed.is_set() and b"C\x00\x00\x00\x0bCOMMIT\x00" in data:   # CommandComplete
                    self._drop(client, server)
                    return
                client.sendall(data)
        except OSError:
            pass
        finally:
            client.close()


class CommitSpotter:
    """Reads a client's side of the PostgreSQL protocol and spots a COMMIT sent: as a
    simple query, or as the Bind of a statement prepared from "COMMIT" (psycopg
    prepares a statement it has run a few times)."""

    def __init__(self) -> None:
        self.buf = b""
        self.started = False
        self.prepared: dict[bytes, bytes] = {}

    def feed(self, data: bytes) -> bool:
        self.buf += data
        seen = False
        while True:
            if not self.started:                 # untyped: SSL/GSS requests, then the startup
                if len(self.buf) < 4 or len(self.buf) < (n := int.from_bytes(self.buf[:4], "big")):
                    return seen
                code = int.from_bytes(self.buf[4:8], "big")
                self.buf = self.buf[n:]
                self.started = code not in (80877103, 80877104)
                continue
            if len(self.buf) < 5 or len(self.buf) < 1 + (n := int.from_bytes(self.buf[1:5], "big")):
                return seen
            kind, body, self.buf = self.buf[:1], self.buf[5:1 + n], self.buf[1 + n:]
            if kind == b"Q":
                seen |= body.rstrip(b"\x00").strip().upper() == b"COMMIT"
            elif kind == b"P":
                name, query = body.split(b"\x00")[:2]
                self.prepared[name] = query.strip().upper()
            elif kind == b"B":
                statement = body.split(b"\x00")[1]
                seen |= self.prepared.get(statement) == b"COMMIT"


@pytest.fixture
def relay(postgres):
    r = Relay(postgres.port)
    yield r
    r.close()


def notices(url: str) -> list[tuple[str, str]]:
    with raw(url) as conn:
        return [(p, t) for p, t in conn.execute("SELECT player, text FROM notices ORDER BY id")]


async def test_a_wager_whose_commit_landed_unheard_is_refunded_and_balances_resynced(pg, relay):
    url = relay.url(pg)
    led = await Ledger.open(url)
    try:
        store = led.store
        assert isinstance(store, PostgresStore)
        await led.mint("m-alice", "alice", 100, "start")
        await led.mint("m-bob", "bob", 100, "start")
        await led.hold("a1", "alice", "craps", 10)

        relay.cut(store._w, "after")
        with pytest.raises(LedgerUnavailable):      # the table gives the wager back...
            await led.hold("a2", "alice", "craps", 30)
        assert relay.cut_done.wait(10)          # the relay thread sets it just after the cut
        with raw(pg) as conn:                       # ...but it is in the database, open
            assert conn.execute("SELECT closed_by FROM holds WHERE handle = 'a2'").fetchall() == [(None,)]
        assert await led.balance("alice") == Balance(90, {"craps": 10})   # the loop was told it failed

        await led.mint("m-carol", "carol", 100, "start")   # the next batch: reconnect, refund a2
        assert await led.balance("alice") == Balance(90, {"craps": 10})
        [(who, text)] = notices(pg)
        assert who == "alice" and "30 chips at table craps could not be confirmed" in text
        assert [(m.kind, m.amount) for m in await led.statement("alice", 2)] == [("hold", -30), ("refund", 30)]
        assert store.mirror.snapshot() == fresh_mirror(pg)

        relay.cut(store._w, "after")                # a grant that landed unheard stays granted:
        with pytest.raises(LedgerUnavailable):
            await led.mint("grant-alice", "alice", 5, "grant")
        assert await led.balance("alice") == Balance(90, {"craps": 10})   # stale on the loop
        await led.mint("m-dan", "dan", 100, "start")       # no write of alice's: she is resynced
        assert await led.balance("alice") == Balance(95, {"craps": 10})
        await led.mint("grant-alice", "alice", 5, "grant")  # and a retry is a retry
        assert await led.balance("alice") == Balance(95, {"craps": 10})
        assert len(notices(pg)) == 1

        relay.cut(store._w, "after")                # a settlement that landed unheard, retried
        with pytest.raises(LedgerUnavailable):
            await led.settle("win1", "craps", ["a1"], {"alice": 20})
        await led.settle("win1", "craps", ["a1"], {"alice": 20})
        assert await led.balance("alice") == Balance(115, {})
        report = check(pg)
        assert report.ok and report.open_holds == 0 and report.minted == 405 == report.balances
        assert report.house == -10
    finally:
        await led.close()
    again = await Ledger.open(pg)                   # nothing paid twice at the next start either
    try:
        assert again.recovered == [] and await again.balance("alice") == Balance(115, {})
    finally:
        await again.close()
    report = check(pg)
    assert report.ok and report.pending_outcomes == 0 and report.house == -10


async def test_a_wager_whose_commit_never_reached_the_server_is_not_refunded(pg, relay):
    led = await Ledger.open(relay.url(pg))
    try:
        await led.mint("m-alice", "alice", 100, "start")
        relay.cut(led.store._w, "before")
        with pytest.raises(LedgerUnavailable):
            await led.hold("a1", "alice", "craps", 30)
        await led.mint("m-bob", "bob", 100, "start")        # reconnects: nothing to refund
        assert notices(pg) == []
        assert await led.balance("alice") == Balance(100, {})
        await led.hold("a1", "alice", "craps", 30)           # the key was never used: a new wager
        assert await led.balance("alice") == Balance(70, {"craps": 30})
        report = check(pg)
        assert report.ok and report.operations == 3 and report.open_holds == 1
    finally:
        await led.close()

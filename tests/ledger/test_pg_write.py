"""PostgresStore's own batch writer: COPY for appended rows, one statement over arrays for changes.

`PostgresStore._write` replaces SQLStore's executemany per statement kind.
These tests pin what it must keep on a real PostgreSQL server: every kind of
row (new accounts, operations, holds, closings, entries, balances, pending
outcomes done) lands as the mirror expects, text with COPY's special
characters included; the number of statements does not grow with the batch;
a duplicate key refused by COPY is an IntegrityError, so an evicted key's
retry is recalled and a reused one is a KeyConflict while the rest of the
batch commits; a closing the database refuses is a MirrorMismatch.
"""
from __future__ import annotations

import copy
import logging
from typing import Any

import psycopg
import pytest

from server.db.connection import PgConn
from server.ledger import Balance, KeyConflict, UnknownStake, check
from server.ledger.mirror import Mirror
from server.ledger.ops import Op
from server.ledger.postgres_store import PostgresStore
from server.ledger.sql_store import MirrorMismatch

BOUND = 3
RECALLED = "ledger keys recalled from the database"
ODD = "a\tb\\c\nd\r'\"é\\N"          # COPY's text format escapes all of these


def fresh_mirror(url: str) -> tuple:
    conn = PgConn(url)
    try:
        return Mirror(conn).snapshot()
    finally:
        conn.close()


def db_ops(url: str) -> list[tuple[tuple[str, str], tuple[str, str]]]:
    with psycopg.connect(url) as conn:
        return [((s, k), (kind, a)) for s, k, kind, a in
                conn.execute("SELECT scope, key, kind, args FROM operations ORDER BY id")]


class Counting:
    """The store's psycopg cursor, counting the statements sent and the errors they raised."""

    def __init__(self, cur: Any) -> None:
        self.cur, self.statements, self.errors = cur, 0, []

    @property
    def rowcount(self) -> int:
        return int(self.cur.rowcount)

    def execute(self, *args: Any) -> Any:
        self.statements += 1
        try:
            return self.cur.execute(*args)
        except Exception as exc:
            self.errors.append(exc)
            raise

    def copy(self, sql: str) -> Any:
        self.statements += 1
        outer = self

        class Copy:
            def __enter__(self) -> Any:
                self.cm = outer.cur.copy(sql)
                return self.cm.__enter__()

            def __exit__(self, *exc: Any) -> Any:
                try:
                    return self.cm.__exit__(*exc)
                except Exception as err:
                    outer.errors.append(err)
                    raise
        return Copy()


def counting(store: PostgresStore) -> Counting:
    store._raw = spy = Counting(store._raw)
    return spy


def test_every_kind_of_row_lands_as_the_mirror_expects(pg_url):
    store = PostgresStore(pg_url)
    try:
        store.apply_batch([Op.mint(f"m-{ODD}", ODD, 100, ODD), Op.mint("m-b", "bob", 50, "start")])
        store.record_outcomes([Op.settle("s1", "t", ["h1"], {ODD: 80}),
                               Op.refund(f"r-{ODD}", ODD, f"h-{ODD}")])
        store.apply_batch([Op.hold("h1", ODD, "t", 40), Op.hold(f"h-{ODD}", "bob", ODD, 30)])
        assert store.mirror.pending
        results = store.apply_batch([
            Op.settle("s1", "t", ["h1"], {ODD: 80}),            # pays 80 from the house; pending done
            Op.refund(f"r-{ODD}", ODD, f"h-{ODD}"),               # pending done
            Op.mint("m-c", "carol", 5, "start"),                 # a new account
            Op.hold("h2", "carol", "t", 5),
            Op.hold("h3", "bob", "t", 51),                       # refused
        ])
        assert [type(r) if isinstance(r, Exception) else r for r in results][:4] == [None] * 4
        assert store.balance(ODD) == Balance(140, {})
        assert store.balance("bob") == Balance(50, {})
        assert store.balance("carol") == Balance(0, {"t": 5})
        assert store.mirror.snapshot() == fresh_mirror(pg_url)
        assert not store.mirror.pending
        with psycopg.connect(pg_url) as conn:
            assert conn.execute("SELECT count(*) FROM pending_outcomes").fetchone() == (0,)
            assert conn.execute("SELECT owner FROM accounts WHERE owner = %s", (ODD,)).fetchone() == (ODD,)
        report = check(pg_url)
        assert report.ok and report.operations == 8 and report.house == -40
    finally:
        store.close()


def test_a_batch_is_the_same_few_statements_whatever_its_size(pg_url):
    store = PostgresStore(pg_url)
    try:
        store.apply_batch([Op.mint(f"m{i}", f"p{i}", 100, "start") for i in range(200)])
        store.apply_batch([Op.hold(f"h{i}", f"p{i}", "t", 10) for i in range(200)])
        spy = counting(store)
        sizes = []
        for n in (1, 200):
            before = spy.statements
            store.apply_batch([Op.mint(f"n{n}", f"new{n}", 1, "start")]
                              + [Op.settle(f"s{i}", "t", [f"h{i}"], {f"p{i}": 20}) for i in range(n)])
            sizes.append(spy.statements - before)
        assert sizes[0] == sizes[1] <= 7
        assert store.balance("p199") == Balance(110, {})
        assert check(pg_url).ok
    finally:
        store.close()


def test_an_evicted_key_retried_or_reused_on_postgresql(pg_url, caplog):
    store = PostgresStore(pg_url, recent_keys=BOUND)
    try:
        store.apply_batch([Op.mint("start:alice", "alice", 100, "start")])
        store.apply_batch([Op.hold("h1", "alice", "t", 30), Op.hold("h2", "alice", "t", 20)])
        store.apply_batch([Op.settle("s1", "t", ["h1"], {"alice": 60})])      # alice 110, 20 held
        store.apply_batch([Op.mint(f"grant:{i}", "zoe", 1, "grant") for i in range(BOUND)])
        spy = counting(store)
        with caplog.at_level(logging.INFO, logger="casino.ledger"):
            assert store.apply_batch([Op.mint("start:alice", "alice", 100, "start")]) == [None]  # a retry
            results = store.apply_batch([
                Op.mint("start:alice", "alice", 999, "start"),      # reused mint key: UNIQUE path
                Op.hold("h3", "alice", "t", 5),                     # new: goes through
                Op.settle("s1", "t", ["h2"], {"alice": 40}),        # reused key on an open stake
                Op.settle("s1", "t", ["h1"], {"alice": 60}),        # the same key's true retry: no-op
                Op.hold("h1", "alice", "t", 31),                    # reused hold key, other amount
                Op.refund("r9", "t", "h1"),                         # new key, closed stake: refused
                Op.mint("start:carol", "carol", 10, "start"),       # new: goes through
            ])
        assert sum(RECALLED in r.getMessage() for r in caplog.records) == 2
        assert spy.errors and all(isinstance(e, psycopg.errors.UniqueViolation) for e in spy.errors)
        kinds = [type(r) if isinstance(r, Exception) else r for r in results]
        assert kinds == [KeyConflict, None, KeyConflict, None, KeyConflict, UnknownStake, None]
        assert store.balance("alice") == Balance(105, {"t": 25})
        assert store.balance("carol") == Balance(10, {})
        report = check(pg_url)
        assert report.ok and report.open_holds == 2 and report.operations == 4 + BOUND + 2
        assert set(store.mirror.ops.items()) <= set(db_ops(pg_url))
    finally:
        store.close()


def test_a_closing_the_database_refuses_is_a_mirror_mismatch(pg_url):
    store = PostgresStore(pg_url)
    try:
        store.apply_batch([Op.mint("m-a", "alice", 100, "start"), Op.hold("h1", "alice", "t", 40)])
        with psycopg.connect(pg_url, autocommit=True) as other:      # behind the writer's back
            other.execute("UPDATE holds SET closed_by = 999 WHERE handle = 'h1'")
        before = copy.deepcopy(store.mirror.snapshot())
        with pytest.raises(MirrorMismatch):
            store.apply_batch([Op.settle("s1", "t", ["h1"], {"alice": 80})])
        assert store.mirror.snapshot() == before
        assert store.balance("alice") == Balance(60, {})
    finally:
        store.close()

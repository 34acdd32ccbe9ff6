"""The writer's in-memory mirror and batch judging (server/ledger/mirror.py).

A batch is judged in Python against the mirror plus the batch's own overlay
and written with a few bulk statements; these tests pin what that must keep,
on both stores: a refused operation between accepted ones changes nothing and
later ones see the earlier ones; a failed commit (injected, or refused by the
database's own constraints) leaves the mirror equal to the database; the
canonical argument text is byte-for-byte what every existing file stores;
SQLite files of earlier schema versions are checked and migrated.
"""
from __future__ import annotations

import asyncio
import copy
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from server.db.url import Database
from server.ledger import (
    Balance,
    InsufficientFunds,
    KeyConflict,
    Ledger,
    UnknownPlayer,
    UnknownStake,
    check,
)
from server.ledger.mirror import Mirror
from server.ledger.ops import _CANONICAL, Op
from server.ledger.schema import SCHEMA_VERSION
from server.ledger.sql_store import MirrorMismatch
from server.ledger.store import open_store

from .conftest import raw

pytestmark = pytest.mark.both_stores


def fresh_mirror(database) -> tuple:
    """What a new process would load from the database."""
    with raw(database) as conn:
        return Mirror(conn).snapshot()


@pytest.fixture
def opened(database):
    """The store itself, with no writer thread: batches are applied by hand."""
    s = open_store(Database.parse(database))
    s.apply_batch([Op.mint("m-a", "alice", 100, "start"), Op.mint("m-b", "bob", 50, "start")])
    yield s
    s.close()


def test_refused_ops_between_accepted_ones_change_nothing_and_later_ones_see_earlier(opened, database):
    results = opened.apply_batch([
        Op.hold("h1", "alice", "t", 100),                 # accepted: alice 100 -> 0
        Op.hold("h2", "alice", "t", 1),                   # refused: the batch already took it all
        Op.refund("r2", "t", "h2"),                       # refused: h2 was never held
        Op.settle("s1", "t", ["h1"], {"alice": 130}),     # accepted: closes h1 opened in this batch
        Op.settle("s2", "t", ["h1"], {"alice": 1}),       # refused: h1 closed earlier in this batch
        Op.hold("h3", "alice", "t", 130),                 # accepted: sees the win
        Op.settle("s3", "t", ["h3"], {"zed": 5}),         # refused: no such payee
        Op.settle("s1", "t", ["h1"], {"alice": 130}),     # a retry within the batch: no-op
        Op.settle("s1", "t", ["h1"], {"alice": 131}),     # same key, other arguments
        Op.hold("h4", "bob", "t", 50),                    # accepted
    ])
    kinds = [type(r) if isinstance(r, Exception) else r for r in results]
    assert kinds == [None, InsufficientFunds, UnknownStake, None, UnknownStake, None,
                     UnknownPlayer, None, KeyConflict, None]
    assert opened.balance("alice") == Balance(0, {"t": 130})
    assert opened.balance("bob") == Balance(0, {"t": 50})
    report = check(database)
    assert report.ok and report.operations == 2 + 4 and report.house == -30
    assert opened.mirror.snapshot() == fresh_mirror(database)
    assert opened.mirror.holds.keys() == {("t", "h3"), ("t", "h4")}


def test_failed_commit_leaves_the_mirror_unchanged_and_the_batch_can_be_retried(opened, database):
    opened.apply_batch([Op.hold("h1", "alice", "t", 40)])
    before = copy.deepcopy(opened.mirror.snapshot())
    batch = [Op.settle("s1", "t", ["h1"], {"alice": 80}), Op.hold("h2", "alice", "t2", 60),
             Op.mint("m-c", "carol", 10, "start")]
    opened.fail_next_commits(1)
    with pytest.raises(opened.dialect.operational_error):
        opened.apply_batch(batch)
    assert opened.mirror.snapshot() == before == fresh_mirror(database)
    assert opened.apply_batch(batch) == [None, None, None]
    assert opened.balance("alice") == Balance(80, {"t2": 60})
    assert opened.mirror.snapshot() == fresh_mirror(database)
    assert check(database).ok


def test_the_databases_constraints_still_guard_rows_the_mirror_accepted(opened, database):
    opened.apply_batch([Op.hold("h1", "alice", "t", 40)])
    with raw(database) as other:                                # the database changes behind the writer
        other.execute("UPDATE holds SET closed_by = 999 WHERE handle = 'h1'")
    before = copy.deepcopy(opened.mirror.snapshot())
    with pytest.raises(MirrorMismatch):
        opened.apply_batch([Op.settle("s1", "t", ["h1"], {"alice": 80})])
    assert opened.mirror.snapshot() == before
    assert opened.balance("alice") == Balance(60, {})            # the settlement moved nothing


async def test_results_of_a_batch_reach_every_caller_in_order(ledger, database):
    await ledger.mint("m", "alice", 1000, "start")
    holds = [ledger.hold(f"h{i}", "alice", "t", 100) for i in range(12)]
    results = await asyncio.gather(*holds, return_exceptions=True)
    assert results[:10] == [None] * 10
    assert all(isinstance(r, InsufficientFunds) for r in results[10:])
    assert await ledger.balance("alice") == Balance(0, {"t": 1000})
    assert ledger.store.mirror.snapshot() == fresh_mirror(database)


names = st.text(min_size=1, max_size=12)
chips = st.integers(min_value=1, max_value=10**12)


@settings(max_examples=200, deadline=None)
@given(key=names, table=names, player=names, amount=chips, reason=st.text(max_size=12),
       stakes=st.lists(names, min_size=1, max_size=4, unique=True),
       pays=st.dictionaries(names, st.integers(0, 10**9), max_size=4))
def test_canonical_arguments_are_exactly_what_existing_files_store(key, table, player, amount, reason,
                                                                   stakes, pays):
    for op in (Op.mint(key, player, amount, reason), Op.hold(key, player, table, amount),
               Op.settle(key, table, stakes, pays), Op.settle(key, table, stakes, pays, pays),
               Op.refund(key, table, stakes[0]),
               Op.forfeit(key, table, stakes[0])):
        assert op.args_json() == _CANONICAL.encode(op.args())
        again = Op.from_record(op.kind.value, op.scope, op.key, op.table, op.args_json())
        assert again.args_json() == op.args_json()


EARLIER_OPEN_HOLDS_INDEX = {     # what earlier versions indexed open holds with
    1: "CREATE INDEX holds_open ON holds (player, table_id) WHERE closed_by IS NULL",
    2: "CREATE INDEX holds_open_by_table ON holds (table_id) WHERE closed_by IS NULL",
}


def downgrade(path, version: int) -> None:
    """Make the file what an earlier release wrote: no wallet owners before 5 (shards), no
    totals before 4 (`top`), and the open holds indexed otherwise before 3."""
    conn = sqlite3.connect(path, isolation_level=None)
    for column in ("shard", "epoch"):
        conn.execute(f"ALTER TABLE accounts DROP COLUMN {column}")
    if version == 4:
        conn.execute("PRAGMA user_version = 4")
        conn.close()
        return
    conn.execute("DROP TABLE player_totals")
    conn.execute("DROP INDEX wallets_by_balance")
    if version in EARLIER_OPEN_HOLDS_INDEX:
        conn.execute("DROP INDEX holds_open_by_id")
        conn.execute(EARLIER_OPEN_HOLDS_INDEX[version])
    conn.execute(f"PRAGMA user_version = {version}")
    conn.close()


@pytest.mark.parametrize("version", [1, 2, 3, 4])
async def test_an_earlier_version_file_is_checked_then_migrated_on_open(db_path, cli, version):
    led = await Ledger.open(db_path)
    await led.mint("m", "alice", 100, "start")
    await led.mint("m2", "bob", 100, "start")
    await led.hold("h1", "alice", "t", 30)
    await led.settle("s1", "t", ["h1"], {"alice": 60})
    await led.hold("h3", "bob", "t", 10)
    await led.hold("h4", "bob", "t", 5)
    await led.hold("h5", "alice", "t", 7)
    await led.settle("s2", "t", ["h3", "h4", "h5"], {"bob": 8, "alice": 20})   # bob loses 7, alice wins 13
    await led.hold("h6", "bob", "t", 4)
    await led.forfeit("f1", "t", "h6")
    await led.hold("h7", "bob", "t", 9)
    await led.refund("r1", "t", "h7")                   # a refund was never played: no totals
    await led.close()
    downgrade(db_path, version)
    code, report = cli.check_json(db_path)
    assert code == 0 and report["ok"], report
    led = await Ledger.open(db_path)
    try:
        conn = sqlite3.connect(db_path)
        migrated = conn.execute("PRAGMA user_version").fetchone()[0]
        indexes = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
        totals = {r[0]: r[1:] for r in conn.execute(
            "SELECT player, wagered, won, net, wins, hidden FROM player_totals")}
        columns = {r[1] for r in conn.execute("PRAGMA table_info(accounts)")}
        conn.close()
        assert migrated == SCHEMA_VERSION == 6
        assert {"shard", "epoch"} <= columns
        assert "holds_open_by_id" in indexes and not {"holds_open", "holds_open_by_table"} & indexes
        assert {"totals_by_wins", "totals_by_net", "totals_by_wagered", "wallets_by_balance"} <= indexes
        # back-filled from the settlements: (wagered, won, net, wins, hidden)
        assert totals == {"alice": (37, 43, 43, 2, 0), "bob": (19, 0, -11, 0, 0)}
        await led.hold("h2", "alice", "t", 20)
        assert await led.balance("alice") == Balance(123, {"t": 20})
    finally:
        await led.close()
    assert check(db_path).ok

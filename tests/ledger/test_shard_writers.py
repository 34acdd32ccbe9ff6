"""Several shards write one PostgreSQL ledger: one writer per wallet, fenced by an epoch.

Each shard's writer is a PostgresStore of its own (its own connection, mirror and
group commit), as each shard's game process will hold one. These tests pin what
docs/ledger.md ("Shards") promises on a real server: the shards write together
without an id or a row in common (each its own house and mint; ids from blocks);
a claim moves a wallet and the shard that had it can write it no more, even
though it does not know (its next batch is fenced, judged again without that
wallet, and everything else in it lands); a batch in flight when the claim comes
is ordered before it by the row's lock, never lost; each shard recovers only its
own tables; and `ledger check` sees one casino, whose house is every shard's.
"""
from __future__ import annotations

import logging
import threading

import psycopg
import pytest

from server.ledger import Balance, check
from server.ledger.errors import LedgerError, NotOwned
from server.ledger.ops import Op
from server.ledger.postgres_store import PostgresStore
from server.ledger.shards import LedgerShard
from server.ledger.store import open_store
from server.db.url import Database

FLOOR = LedgerShard("floor", frozenset({"craps1"}))
BACK = LedgerShard("back", frozenset({"pig1"}))


@pytest.fixture
def shards(pg_url):
    """The floor's and the back room's writers, open on one database."""
    opened = [PostgresStore(pg_url, shard=FLOOR), PostgresStore(pg_url, shard=BACK)]
    yield opened
    for store in opened:
        store.close()


def ok(results: list[object]) -> None:
    assert results == [None] * len(results), results


def accounts(url: str) -> dict[tuple[str, str], tuple[int, str | None, int]]:
    with psycopg.connect(url) as conn:
        return {(k, o): (b, s, e) for k, o, b, s, e in
                conn.execute("SELECT kind, owner, balance, shard, epoch FROM accounts")}


def test_shards_write_together_each_with_its_own_house_and_mint(pg_url, shards):
    floor, back = shards
    ok(floor.apply_batch([Op.mint("m-a", "alice", 100, "start"), Op.hold("h1", "alice", "craps1", 40)]))
    ok(back.apply_batch([Op.mint("m-b", "bob", 100, "start"), Op.hold("h1", "bob", "pig1", 30)]))
    ok(floor.apply_batch([Op.settle("s1", "craps1", ["h1"], {"alice": 80})]))     # alice wins 40
    ok(back.apply_batch([Op.settle("s1", "pig1", ["h1"], {})]))                   # bob loses 30
    rows = accounts(pg_url)
    assert rows[("house", "floor")][0] == -40 and rows[("house", "back")][0] == 30
    assert rows[("mint", "floor")][0] == -100 and rows[("mint", "back")][0] == -100
    assert rows[("wallet", "alice")] == (140, "floor", 1)          # made by the floor, at epoch 1
    assert rows[("wallet", "bob")] == (70, "back", 1)
    report = check(pg_url)
    assert report.ok, report.broken
    assert report.house == -10 and report.minted == 200            # one casino: every shard's house


def test_ids_never_collide_across_shards(pg_url, shards):
    floor, back = shards
    for n in range(3):       # interleaved batches, each drawing from its own block
        ok(floor.apply_batch([Op.mint(f"m{n}", f"f{n}", 10, "start")]))
        ok(back.apply_batch([Op.mint(f"mb{n}", f"b{n}", 10, "start")]))
    with psycopg.connect(pg_url) as conn:
        ops = [r[0] for r in conn.execute("SELECT id FROM operations")]
        transfers = conn.execute("SELECT transfer, COUNT(*) FROM entries GROUP BY transfer").fetchall()
    assert len(ops) == len(set(ops)) == 6
    assert all(n == 2 for _, n in transfers) and len(transfers) == 6
    assert check(pg_url).ok


def test_one_writer_per_shard_and_no_unsharded_writer_beside_them(pg_url, shards):
    with pytest.raises(LedgerError, match="another process writes shard 'floor'"):
        PostgresStore(pg_url, shard=FLOOR)
    with pytest.raises(LedgerError, match="another process has this ledger open"):
        PostgresStore(pg_url)
    third = PostgresStore(pg_url, shard=LedgerShard("cage", frozenset()))     # a third shard may
    third.close()


def test_a_shard_needs_postgresql(tmp_path):
    with pytest.raises(LedgerError, match="several shards need PostgreSQL"):
        open_store(Database.parse(f"sqlite:///{tmp_path / 'c.db'}"), shard=FLOOR)


def test_a_claim_moves_the_wallet_and_fences_the_shard_that_had_it(pg_url, shards, caplog):
    floor, back = shards
    ok(floor.apply_batch([Op.mint("m-a", "alice", 100, "start"), Op.mint("m-c", "carol", 100, "start")]))
    # alice walks to the back room: it takes her wallet. The floor is not told (a pause, a
    # partition): its mirror still says alice is its own.
    assert back.claim(["alice"]) == {"alice": Balance(100, {})}
    assert accounts(pg_url)[("wallet", "alice")] == (100, "back", 2)
    with caplog.at_level(logging.WARNING, logger="casino.ledger"):
        results = floor.apply_batch([Op.hold("h1", "alice", "craps1", 10), Op.hold("h2", "carol", "craps1", 10)])
    assert isinstance(results[0], NotOwned) and results[1] is None          # carol's still lands
    assert "wallets taken by another shard count=1" in caplog.text
    # and from now on the floor refuses alice at once, without writing
    assert isinstance(floor.apply_batch([Op.mint("gift", "alice", 5, "x")])[0], NotOwned)
    ok(back.apply_batch([Op.hold("h1", "alice", "pig1", 25)]))
    rows = accounts(pg_url)
    assert rows[("wallet", "alice")][0] == 75 and rows[("wallet", "carol")][0] == 90
    assert back.balance("alice") == Balance(75, {"pig1": 25})
    assert check(pg_url).ok


def test_a_claim_back_reads_what_the_other_shard_wrote(pg_url, shards):
    floor, back = shards
    ok(floor.apply_batch([Op.mint("m-a", "alice", 100, "start")]))
    back.claim(["alice"])
    ok(back.apply_batch([Op.hold("h1", "alice", "pig1", 30), Op.settle("s1", "pig1", ["h1"], {"alice": 90})]))
    assert floor.claim(["alice"]) == {"alice": Balance(160, {})}   # the floor's mirror had 100
    ok(floor.apply_batch([Op.hold("h1", "alice", "craps1", 160)]))  # every chip of it, no more
    assert accounts(pg_url)[("wallet", "alice")] == (0, "floor", 3)
    assert check(pg_url).ok


def test_a_batch_in_flight_when_the_claim_comes_is_ordered_before_it(pg_url, shards):
    """The floor's batch has written alice's row and waits to COMMIT when the back room
    claims her: the claim waits on the row's lock, then reads the committed balance."""
    floor, back = shards
    ok(floor.apply_batch([Op.mint("m-a", "alice", 100, "start")]))
    claimed: dict[str, Balance] = {}
    claim = threading.Thread(target=lambda: claimed.update(back.claim(["alice"])))

    def claim_and_see_it_wait() -> None:
        claim.start()
        with psycopg.connect(pg_url, autocommit=True) as watch:
            for _ in range(2000):     # until the claim's backend waits on a lock (not a fixed time)
                waiting = watch.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                        " AND query LIKE 'UPDATE accounts SET shard%%'").fetchone()[0]
                if waiting:
                    break
                watch.execute("SELECT pg_sleep(0.005)")
            assert waiting == 1

    ok(floor.apply_batch([Op.hold("h1", "alice", "craps1", 40)], before_commit=claim_and_see_it_wait))
    claim.join(10)
    assert claimed == {"alice": Balance(60, {"craps1": 40})}
    assert isinstance(floor.apply_batch([Op.hold("h2", "alice", "craps1", 1)])[0], NotOwned)
    assert check(pg_url).ok


def test_each_shard_recovers_only_its_own_tables(pg_url):
    floor, back = PostgresStore(pg_url, shard=FLOOR), PostgresStore(pg_url, shard=BACK)
    ok(floor.apply_batch([Op.mint("m-a", "alice", 100, "start"), Op.hold("h1", "alice", "craps1", 40)]))
    ok(back.apply_batch([Op.mint("m-b", "bob", 100, "start"), Op.hold("h1", "bob", "pig1", 30)]))
    floor.close()                       # the floor dies with alice's chips on its table
    floor = PostgresStore(pg_url, shard=FLOOR)
    try:
        done = floor.recover()
        assert [(r.action, r.table, r.player, r.amount) for r in done] == [("refunded", "craps1", "alice", 40)]
        assert back.balance("bob") == Balance(70, {"pig1": 30})       # the back room's table is its own
        ok(back.apply_batch([Op.settle("s1", "pig1", ["h1"], {"bob": 60})]))
        assert check(pg_url).ok
    finally:
        floor.close()
        back.close()


def test_recovery_takes_back_a_wallet_whose_chips_are_on_its_table(pg_url):
    """A player handed on with chips on the old shard's table (the walk refuses that, but a
    crash may leave it): the old shard's recovery takes the wallet back to refund them."""
    floor, back = PostgresStore(pg_url, shard=FLOOR), PostgresStore(pg_url, shard=BACK)
    ok(floor.apply_batch([Op.mint("m-a", "alice", 100, "start"), Op.hold("h1", "alice", "craps1", 40)]))
    back.claim(["alice"])
    floor.close()
    floor = PostgresStore(pg_url, shard=FLOOR)
    try:
        assert [r.action for r in floor.recover()] == ["refunded"]
        assert accounts(pg_url)[("wallet", "alice")] == (100, "floor", 3)
        assert isinstance(back.apply_batch([Op.hold("h9", "alice", "pig1", 1)])[0], NotOwned)
        assert check(pg_url).ok
    finally:
        floor.close()
        back.close()


async def test_the_ledger_claims_through_its_writer(pg_url, tmp_path):
    from server.ledger import Ledger, Refused
    floor = await Ledger.open(pg_url, shard=FLOOR)
    back = await Ledger.open(pg_url, shard=BACK)
    try:
        await floor.mint("m-a", "alice", 100, "start")
        assert await back.claim(["alice", "nobody"]) == {"alice": Balance(100, {}), "nobody": Balance(0, {})}
        await back.hold("h1", "alice", "pig1", 10)
        assert await back.balance("alice") == Balance(90, {"pig1": 10})
        with pytest.raises(NotOwned):
            await floor.hold("h1", "alice", "craps1", 10)
    finally:
        await floor.close()
        await back.close()
    one = await Ledger.open(f"sqlite:///{tmp_path / 'c.db'}")
    try:
        with pytest.raises(Refused, match="only a shard's writer"):
            await one.claim(["alice"])
    finally:
        await one.close()
    assert check(pg_url).ok

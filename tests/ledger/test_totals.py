"""`top`'s data: the per-player totals the writer keeps, the boards read from them, and
the migration that back-fills them, on both stores."""
from __future__ import annotations

import random

import pytest

from server.ledger import Ledger, check
from server.ledger.boards import MAX_RANK, PAGE
from server.ledger.check import _count
from server.ledger.schema import SCHEMA_VERSION

from .conftest import dialect, raw

pytestmark = pytest.mark.both_stores


def totals(database) -> dict[str, tuple[int, ...]]:
    with raw(database) as conn:
        return {r[0]: tuple(int(x) for x in r[1:]) for r in
                conn.execute("SELECT player, wagered, won, net, wins FROM player_totals")}


async def test_random_play_keeps_totals_equal_to_the_settlements(database):
    """Many settlements in few batches (several players per settlement, payees who staked
    nothing, forfeits, refunds): the totals are what a plain recount of the calls says."""
    rng = random.Random(7)
    players = ["ann", "bob", "cid", "dee"]
    expected: dict[str, list[int]] = {}
    led = await Ledger.open(database)
    try:
        for p in players:
            await led.mint(f"m-{p}", p, 10_000, "start")
        for n in range(60):
            bettors = rng.sample(players, rng.randint(1, 3))
            stakes = {f"h{n}-{p}": (p, rng.randint(1, 50)) for p in bettors}
            for handle, (p, amount) in stakes.items():
                await led.hold(handle, p, "t", amount)
            staked: dict[str, int] = {}
            for p, amount in stakes.values():
                staked[p] = staked.get(p, 0) + amount
            what = rng.random()
            if what < 0.15 and len(stakes) == 1:
                await led.refund(f"r{n}", "t", next(iter(stakes)))
                continue
            if what < 0.3 and len(stakes) == 1:
                await led.forfeit(f"f{n}", "t", next(iter(stakes)))
                _count(expected, staked, {}, staked)
                continue
            pays = {p: rng.choice([0, a, 2 * a, a // 2]) for p, a in staked.items()}
            extra = rng.choice(players)                  # maybe one who staked nothing here
            pays[extra] = pays.get(extra, 0) + rng.randint(0, 30)
            pays = {p: a for p, a in pays.items() if a}
            # several settlements in one batch: the writer sums a player's part per batch
            await led.settle(f"s{n}", "t", list(stakes), pays)
            _count(expected, staked, pays, staked)
    finally:
        await led.close()
    assert totals(database) == {p: tuple(t) for p, t in expected.items()}
    assert check(database).ok


async def test_concurrent_settlements_in_one_batch_add_up(database):
    """Settlements of one player awaited together land in one batch: one row, their sum."""
    import asyncio
    led = await Ledger.open(database)
    try:
        await led.mint("m", "ann", 1000, "start")
        await asyncio.gather(*(led.hold(f"h{i}", "ann", "t", 10) for i in range(20)))
        await asyncio.gather(*(led.settle(f"s{i}", "t", [f"h{i}"], {"ann": 25 if i % 2 else 0})
                               for i in range(20)))
    finally:
        await led.close()
    assert totals(database) == {"ann": (200, 150, 50, 10)}
    assert check(database).ok


async def board_db(database, n: int = 25) -> Ledger:
    """p00..p{n-1}: wallet 100 + i, each one settlement, p_i winning i chips; op1 an operator."""
    led = await Ledger.open(database)
    for i in range(n):
        await led.mint(f"m{i}", f"p{i:02}", 100 + i, "start")
    await led.mint("mo", "op1", 10_000, "start")
    for i in range(n):
        await led.hold(f"h{i}", f"p{i:02}", "t", 10)
        await led.settle(f"s{i}", "t", [f"h{i}"], {f"p{i:02}": 10 + i})
    await led.hold("ho", "op1", "t", 10)
    await led.settle("so", "t", ["ho"], {"op1": 5000})
    return led


async def test_boards_rank_page_and_leave_out_operators_and_the_hidden(database):
    led = await board_db(database)
    try:
        page1 = await led.board("wealth", 1, "p03", ["op1"])
        # p24 holds 100 + 24 + 24 (won 24): highest first; op1 (richest) is not listed
        assert [(r, p) for r, p, _ in page1.rows] == [(k + 1, f"p{24 - k:02}") for k in range(PAGE)]
        assert page1.rows[0][2] == 148 and page1.mine == (22, 106) and page1.listed
        page3 = await led.board("wealth", 3, "p03", ["op1"])
        assert [p for _, p, _ in page3.rows] == ["p04", "p03", "p02", "p01", "p00"]
        assert (await led.board("wealth", 4, "p03", ["op1"])).rows == []
        # wins: every winning settlement counts once; p00 (paid back just the stake) never won
        wins = await led.board("wins", 1, "p00", ["op1"])
        assert wins.rows[0] == (1, "p01", 1) and wins.mine == (25, 0)
        net = await led.board("net", 1, "p01", [])                 # no operators configured
        assert net.rows[0] == (1, "op1", 4990) and net.rows[1] == (2, "p24", 24)
        wagered = await led.board("wagered", 1, "op1", ["op1"])
        assert wagered.mine is None and not wagered.listed          # an operator has no rank
        # ties rank by name: every player wagered 10
        assert [p for _, p, _ in wagered.rows] == [f"p{i:02}" for i in range(PAGE)]

        await led.show_on_boards("p24", False)
        for board in ("wealth", "wins", "wagered", "net"):
            shown = await led.board(board, 1, "p24", ["op1"])
            assert "p24" not in [p for _, p, _ in shown.rows] and not shown.listed
        assert (await led.board("wealth", 1, "x", ["op1"])).rows[0][1] == "p23"
        await led.show_on_boards("p24", True)
        assert (await led.board("net", 1, "p24", ["op1"])).rows[0] == (1, "p24", 24)
        await led.show_on_boards("nobody", False)                 # hiding before any play is kept
    finally:
        await led.close()
    assert totals(database)["p24"] == (10, 24, 24, 1)             # hiding changes no figure
    assert check(database).ok


async def test_a_page_beyond_the_boards_end_is_refused(database):
    led = await Ledger.open(database)
    try:
        with pytest.raises(ValueError):
            await led.board("wealth", MAX_RANK // PAGE + 1, "x", [])
        with pytest.raises(ValueError):
            await led.board("luck", 1, "x", [])
    finally:
        await led.close()


async def test_a_database_before_totals_is_back_filled_on_open(database):
    led = await board_db(database, n=3)
    await led.show_on_boards("p01", False)
    await led.close()
    before = totals(database)
    with raw(database) as conn:
        conn.execute("DROP TABLE player_totals")
        conn.execute("DROP INDEX wallets_by_balance")
        for column in ("shard", "epoch"):             # version 5's
            conn.execute(f"ALTER TABLE accounts DROP COLUMN {column}")
        if dialect(database).name == "sqlite":
            conn.execute("PRAGMA user_version = 3")
        else:
            conn.execute("DROP SEQUENCE ledger_id_blocks")
            conn.execute("UPDATE casino_schema SET version = 3")
    assert check(database).ok                       # a version-3 ledger has no totals to check
    led = await Ledger.open(database)
    await led.close()
    assert totals(database) == before and check(database).ok
    with raw(database) as conn:
        if dialect(database).name == "sqlite":
            assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        else:
            assert conn.execute("SELECT version FROM casino_schema").fetchone()[0] == SCHEMA_VERSION


async def test_a_settlement_that_names_its_wagers_counts_those(database):
    """Alley craps' escrow settles whole bankrolls after a pass: `risked` says what was at
    risk, and `top`'s wagered counts that (a player it does not name wagered nothing),
    while net and wins are still the bankroll's change; check recounts it so."""
    led = await Ledger.open(database)
    try:
        for p in ("ann", "bob", "cid"):
            await led.mint(f"m-{p}", p, 1000, "start")
            await led.hold(f"b-{p}", p, "alley", 100)
        # a pass: ann shot 20, bob faded it and lost; cid sat it out
        await led.settle("pass1", "alley", ["b-ann", "b-bob", "b-cid"],
                         {"ann": 120, "bob": 80, "cid": 100}, risked={"ann": 20, "bob": 20})
        for p, a in (("ann", 120), ("bob", 80), ("cid", 100)):
            await led.hold(f"c-{p}", p, "alley", a)
        # nobody's pass: the bankrolls paid out as they are
        await led.settle("out", "alley", ["c-ann", "c-bob", "c-cid"],
                         {"ann": 120, "bob": 80, "cid": 100}, risked={})
    finally:
        await led.close()
    assert totals(database) == {"ann": (20, 20, 20, 1), "bob": (20, 0, -20, 0), "cid": (0, 0, 0, 0)}
    assert check(database).ok


async def test_a_charge_is_no_wager_on_the_board(database):
    """New York's charge (a stake whose handle ends ':charge', settled to the house) is
    chips lost: in net, never in wagered."""
    led = await Ledger.open(database)
    try:
        await led.mint("m", "nyla", 1000, "start")
        await led.hold("run:g:7:charge", "nyla", "ny", 2)
        await led.settle("run:c7", "ny", ["run:g:7:charge"], {"nyla": 0})
        await led.hold("run:g:7", "nyla", "ny", 40)
        await led.settle("run:s8", "ny", ["run:g:7"], {"nyla": 80})
    finally:
        await led.close()
    assert totals(database) == {"nyla": (40, 40, 38, 1)}
    assert check(database).ok


async def test_totals_before_version_6_lose_their_charges_on_open(database):
    """A version-5 ledger counted a charge as wagered (and `ledger check` of it still
    does); opening it migrates the totals to leave charges out."""
    await test_a_charge_is_no_wager_on_the_board(database)
    with raw(database) as conn:
        conn.execute("UPDATE player_totals SET wagered = wagered + 2 WHERE player = 'nyla'")
        if dialect(database).name == "sqlite":
            conn.execute("PRAGMA user_version = 5")
        else:
            conn.execute("UPDATE casino_schema SET version = 5")
    assert check(database).ok                     # version 5's rule: the charge was wagered
    assert totals(database) == {"nyla": (42, 40, 38, 1)}
    led = await Ledger.open(database)
    await led.close()
    assert totals(database) == {"nyla": (40, 40, 38, 1)} and check(database).ok


def test_the_migration_names_the_charge_suffix_the_ledger_uses():
    """schema.py imports nothing of ops: its SQL spells the suffix and its length."""
    from server.ledger.ops import CHARGE_SUFFIX
    from server.ledger.schema import UNCHARGE_TOTALS
    assert f"length(h.handle) - {len(CHARGE_SUFFIX) - 1}) = '{CHARGE_SUFFIX}'" in UNCHARGE_TOTALS

"""Unit tests of the money operations: what moves, what is refused, what a retry does,
the same on SQLite and on PostgreSQL."""
from __future__ import annotations

import asyncio

import pytest

from server.ledger import (
    Balance,
    InsufficientFunds,
    InvalidOperation,
    KeyConflict,
    Ledger,
    UnknownPlayer,
    UnknownStake,
    check,
)

pytestmark = pytest.mark.both_stores


async def test_mint_creates_wallet_and_counts_as_minted(ledger, database):
    await ledger.mint("start:alice", "alice", 1000, "starting chips")
    assert await ledger.balance("alice") == Balance(1000, {})
    report = check(database)
    assert report.ok and report.minted == 1000 and report.balances == 1000


async def test_wager_larger_than_wallet_is_refused_and_moves_nothing(ledger, database):
    await ledger.mint("m", "alice", 100, "start")
    with pytest.raises(InsufficientFunds) as info:
        await ledger.hold("h1", "alice", "t1", 101)
    assert info.value.balance == 100 and info.value.amount == 101
    assert await ledger.balance("alice") == Balance(100, {})
    report = check(database)
    assert report.ok and report.operations == 1 and report.open_holds == 0


async def test_wallet_never_goes_below_zero(ledger, database):
    await ledger.mint("m", "alice", 30, "start")
    await ledger.hold("h1", "alice", "t1", 20)
    with pytest.raises(InsufficientFunds):
        await ledger.hold("h2", "alice", "t1", 11)
    await ledger.hold("h3", "alice", "t2", 10)
    assert await ledger.balance("alice") == Balance(0, {"t1": 20, "t2": 10})
    with pytest.raises(InsufficientFunds):
        await ledger.hold("h4", "alice", "t1", 1)
    with pytest.raises(InsufficientFunds):          # no wallet at all is a zero wallet
        await ledger.hold("h5", "nobody", "t1", 1)
    assert check(database).ok


async def test_concurrent_wagers_cannot_overdraw_within_one_batch(ledger):
    await ledger.mint("m", "alice", 50, "start")
    results = await asyncio.gather(*(ledger.hold(f"h{i}", "alice", "t1", 20) for i in range(5)),
                                   return_exceptions=True)
    refused = [r for r in results if isinstance(r, InsufficientFunds)]
    assert len(refused) == 3 and results.count(None) == 2
    assert await ledger.balance("alice") == Balance(10, {"t1": 40})


async def test_refused_op_in_a_batch_does_not_roll_back_the_others(ledger, database):
    await ledger.mint("m", "alice", 100, "start")
    await ledger.hold("h1", "alice", "t1", 10)
    results = await asyncio.gather(
        ledger.hold("h2", "alice", "t1", 10),
        ledger.settle("s-bad", "t1", ["h1", "nope"], {"alice": 5}),
        ledger.hold("h3", "alice", "t1", 1000),
        ledger.refund("r1", "t1", "h1"),
        return_exceptions=True)
    assert results[0] is None and results[3] is None
    assert isinstance(results[1], UnknownStake) and isinstance(results[2], InsufficientFunds)
    assert await ledger.balance("alice") == Balance(90, {"t1": 10})
    assert check(database).ok


async def test_retries_are_idempotent(ledger, database):
    await ledger.mint("m", "alice", 100, "start")
    await ledger.mint("m", "alice", 100, "start")
    await ledger.hold("h1", "alice", "t1", 40)
    await ledger.hold("h1", "alice", "t1", 40)
    assert await ledger.balance("alice") == Balance(60, {"t1": 40})
    await ledger.settle("s1", "t1", ["h1"], {"alice": 80})
    await ledger.settle("s1", "t1", ["h1"], {"alice": 80})
    await asyncio.gather(*(ledger.settle("s1", "t1", ["h1"], {"alice": 80}) for _ in range(5)))
    assert await ledger.balance("alice") == Balance(140, {})
    report = check(database)
    assert report.ok and report.operations == 3 and report.house == -40


async def test_same_key_different_arguments_is_a_key_conflict(ledger):
    await ledger.mint("m", "alice", 100, "start")
    with pytest.raises(KeyConflict):
        await ledger.mint("m", "alice", 200, "start")
    await ledger.hold("h1", "alice", "t1", 10)
    with pytest.raises(KeyConflict):
        await ledger.hold("h1", "alice", "t1", 11)
    with pytest.raises(KeyConflict):
        await ledger.refund("h1", "t1", "h1")      # a table's keys share one namespace
    await ledger.hold("h1", "alice", "t2", 10)     # ...but each table has its own
    assert await ledger.balance("alice") == Balance(80, {"t1": 10, "t2": 10})


async def test_settle_with_pays_exceeding_stakes_the_house_pays(ledger, database):
    await ledger.mint("m", "alice", 100, "start")
    await ledger.hold("pass", "alice", "craps", 10)
    await ledger.hold("odds", "alice", "craps", 20)
    await ledger.settle("roll7", "craps", ["pass", "odds"], {"alice": 70})
    assert await ledger.balance("alice") == Balance(140, {})
    report = check(database)
    assert report.ok and report.house == -40 and report.balances == 100


async def test_one_settlement_for_a_whole_roll_pays_each_player_once(ledger, database):
    """A bank craps roll: several players' wins, losses and a push closed by one
    operation. Pays come from the pooled stakes first, the house pays the rest."""
    for p in ("alice", "bob", "carol"):
        await ledger.mint(f"m-{p}", p, 100, "start")
    await ledger.hold("a-field", "alice", "craps", 10)      # wins 20: 30 back
    await ledger.hold("a-dp", "alice", "craps", 10)         # push: 10 back
    await ledger.hold("b-pass", "bob", "craps", 20)         # lost
    await ledger.hold("b-12", "bob", "craps", 5)            # wins 150: 155 back
    await ledger.hold("c-any7", "carol", "craps", 5)        # lost: nothing back
    stakes = ["a-field", "a-dp", "b-pass", "b-12", "c-any7"]
    pays = {"alice": 40, "bob": 155, "carol": 0}
    await ledger.settle("roll12", "craps", stakes, pays)
    await ledger.settle("roll12", "craps", stakes, pays)    # a retry pays nothing twice
    balances = [await ledger.balance(p) for p in ("alice", "bob", "carol")]
    assert balances == [Balance(120, {}), Balance(230, {}), Balance(95, {})]
    report = check(database)
    # staked 50, paid 195: the house pays 145 (wins 170, less the 25 chips it took)
    assert report.ok and report.house == -145 and report.open_holds == 0
    assert report.balances == report.minted == 300 == sum(b.wallet for b in balances) + report.house
    assert report.operations == 3 + 5 + 1


async def test_losing_settlement_and_forfeit_go_to_the_house(ledger, database):
    await ledger.mint("m", "alice", 100, "start")
    await ledger.hold("h1", "alice", "t", 10)
    await ledger.hold("h2", "alice", "t", 5)
    await ledger.settle("s1", "t", ["h1"], {})
    await ledger.forfeit("f1", "t", "h2")
    assert await ledger.balance("alice") == Balance(85, {})
    assert check(database).house == 15


async def test_player_versus_player_settlement_pays_from_stakes(ledger, database):
    for p in ("alice", "bob", "carol"):
        await ledger.mint(f"m-{p}", p, 100, "start")
    await ledger.hold("a1", "alice", "alley", 30)
    await ledger.hold("b1", "bob", "alley", 30)
    await ledger.hold("c1", "carol", "alley", 20)
    await ledger.settle("roll1", "alley", ["a1", "b1", "c1"], {"alice": 60, "carol": 20})
    balances = [await ledger.balance(p) for p in ("alice", "bob", "carol")]
    assert balances == [Balance(130, {}), Balance(70, {}), Balance(100, {})]
    report = check(database)
    assert report.ok and report.house == 0 and report.open_holds == 0


async def test_pig_commission_the_house_keeps_what_is_not_paid(ledger, database):
    await ledger.mint("m-a", "alice", 100, "start")
    await ledger.mint("m-b", "bob", 100, "start")
    await ledger.hold("a", "alice", "pig", 50)
    await ledger.hold("b", "bob", "pig", 50)
    await ledger.settle("end", "pig", ["a", "b"], {"bob": 95})
    assert (await ledger.balance("bob")).wallet == 145
    assert check(database).house == 5


async def test_refund_and_forfeit(ledger):
    await ledger.mint("m", "alice", 100, "start")
    await ledger.hold("h1", "alice", "t", 10)
    await ledger.hold("h2", "alice", "t", 10)
    await ledger.refund("r1", "t", "h1")
    await ledger.forfeit("f1", "t", "h2")
    assert await ledger.balance("alice") == Balance(90, {})
    with pytest.raises(UnknownStake):               # a stake ends exactly once
        await ledger.refund("r2", "t", "h1")
    await ledger.hold("h9", "alice", "other", 5)
    with pytest.raises(UnknownStake):               # stakes belong to their table
        await ledger.refund("r3", "t", "h9")


async def test_settle_refuses_unknown_payee_and_wrong_table(ledger):
    await ledger.mint("m", "alice", 100, "start")
    await ledger.hold("h1", "alice", "t1", 10)
    with pytest.raises(UnknownPlayer):
        await ledger.settle("s1", "t1", ["h1"], {"mallory": 10})
    with pytest.raises(UnknownStake):
        await ledger.settle("s2", "t2", ["h1"], {"alice": 10})
    assert await ledger.balance("alice") == Balance(90, {"t1": 10})


@pytest.mark.parametrize("call", [
    lambda l: l.mint("k", "alice", 0, "zero"),
    lambda l: l.mint("k", "alice", -5, "negative"),
    lambda l: l.hold("k", "alice", "t", 1.5),
    lambda l: l.hold("", "alice", "t", 1),
    lambda l: l.settle("k", "t", [], {}),
    lambda l: l.settle("k", "t", ["a", "a"], {}),
    lambda l: l.settle("k", "t", ["a"], {"alice": -1}),
])
async def test_malformed_calls_are_rejected_before_queueing(ledger, call):
    with pytest.raises(InvalidOperation):
        await call(ledger)


async def test_balance_and_statement_are_readable(ledger):
    await ledger.mint("m", "alice", 1000, "starting chips")
    await ledger.hold("h1", "alice", "craps1", 10)
    await ledger.hold("h2", "alice", "craps1", 25)
    await ledger.settle("s1", "craps1", ["h1"], {"alice": 20})
    await ledger.settle("s2", "craps1", ["h2"], {})
    await ledger.hold("h3", "alice", "pig", 5)
    bal = await ledger.balance("alice")
    assert bal == Balance(wallet=980, held={"pig": 5}) and bal.total == 985
    assert str(bal) == "980 chips in your wallet, 5 held at pig"
    moves = await ledger.statement("alice", 10)
    assert [(m.kind, m.amount, m.table) for m in moves] == [
        ("mint", 1000, None), ("hold", -10, "craps1"), ("hold", -25, "craps1"),
        ("settle", 20, "craps1"), ("settle", 0, "craps1"), ("hold", -5, "pig")]
    assert moves[0].memo == "starting chips"
    assert "won" in moves[3].memo and "lost" in moves[4].memo
    line = str(moves[3])
    assert "settle" in line and "+20" in line and "craps1" in line and "\n" not in line
    last2 = await ledger.statement("alice", 2)
    assert last2 == moves[-2:]
    assert await ledger.statement("nobody", 5) == []
    assert await ledger.balance("nobody") == Balance(0, {})


async def test_a_whole_roll_is_one_short_statement_line_per_player(ledger):
    for p in ("alice", "bob"):
        await ledger.mint(f"m-{p}", p, 1000, "start")
    handles = [f"run1:bank_craps:{i}" for i in range(20)]
    for h in handles:
        await ledger.hold(h, "alice", "bank_craps", 10)
    await ledger.hold("run1:bank_craps:99", "bob", "bank_craps", 5)
    await ledger.settle("run1:bank_craps:100", "bank_craps", [*handles, "run1:bank_craps:99"],
                        {"alice": 250, "bob": 0})
    [alice] = (await ledger.statement("alice", 1))
    [bob] = (await ledger.statement("bob", 1))
    assert alice.memo == "won: staked 200, paid back 250" and alice.amount == 250
    assert bob.memo == "lost: staked 5, paid back 0" and bob.amount == 0
    assert len(str(alice)) < 100


async def test_data_survives_reopen(database):
    led = await Ledger.open(database)
    await led.mint("m", "alice", 100, "start")
    await led.close()
    led = await Ledger.open(database)
    try:
        assert await led.balance("alice") == Balance(100, {})
        assert led.recovered == []
    finally:
        await led.close()


async def test_a_notice_left_for_a_player_survives_a_restart_and_is_read_once(ledger, database):
    await ledger.notify("alice", "Your bets rode and were settled.")
    await ledger.notify("alice", "A second notice.")
    await ledger.close()
    again = await Ledger.open(database)
    try:
        assert await again.take_notices("bob") == []
        assert await again.take_notices("alice") == ["Your bets rode and were settled.", "A second notice."]
        assert await again.take_notices("alice") == []
    finally:
        await again.close()
    assert check(database).ok

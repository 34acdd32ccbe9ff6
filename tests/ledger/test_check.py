"""`casino ledger check`: passes on a sound ledger, names each broken invariant, on
both stores (the CLI's --data takes a PostgreSQL URL as well as a file)."""
from __future__ import annotations

import pytest

from server.ledger import Ledger, check
from server.ledger.schema import SCHEMA_VERSION

from .conftest import dialect, raw

pytestmark = pytest.mark.both_stores


@pytest.fixture
async def busy_db(database):
    led = await Ledger.open(database)
    await led.mint("m-a", "alice", 100, "start")
    await led.mint("m-b", "bob", 50, "start")
    await led.hold("a1", "alice", "craps", 10)
    await led.hold("a2", "alice", "craps", 20)
    await led.hold("b1", "bob", "pig", 5)
    await led.settle("s1", "craps", ["a1"], {"alice": 30})
    await led.close()
    return database


def tamper(database, *sql: str) -> None:
    """Run `sql` behind the ledger's back, its CHECK constraints off (a corrupted database)."""
    with raw(database) as conn:
        if dialect(database).name == "sqlite":
            conn.execute("PRAGMA ignore_check_constraints = ON")
        else:
            conn.execute("ALTER TABLE accounts DROP CONSTRAINT accounts_check")   # wallet >= 0
        for s in sql:
            conn.execute(s)


def test_cli_check_passes_and_reports_json(busy_db, cli):
    code, report = cli.check_json(busy_db)
    assert code == 0
    assert report["ok"] is True and report["open_holds"] == 2 and report["minted"] == 150
    assert report["balances"] == 150 and report["house"] == -20 and report["broken"] == []
    done = cli.check(busy_db)
    assert done.returncode == 0 and done.stdout.startswith("ledger check: ok open_holds=2")


def test_cli_check_without_database_exits_2(tmp_path, cli):
    done = cli.check(tmp_path / "missing.db")
    assert done.returncode == 2 and "no ledger database" in done.stderr


def test_cli_check_names_a_broken_invariant(busy_db, cli):
    tamper(busy_db, "UPDATE accounts SET balance = balance + 7 WHERE kind = 'wallet' AND owner = 'bob'")
    done = cli.check(busy_db)
    assert done.returncode == 1
    assert "broken invariant conservation" in done.stdout
    assert "broken invariant balance_equals_entries: wallet:bob" in done.stdout
    code, report = cli.check_json(busy_db)
    assert code == 1 and report["ok"] is False


@pytest.mark.parametrize("sql, invariant", [
    (["INSERT INTO entries (op_id, transfer, account, amount) VALUES (1, 999, 2, 5)",
      "UPDATE accounts SET balance = balance + 5 WHERE id = 2",
      "UPDATE accounts SET balance = balance - 5 WHERE id = 1"], "transfer_legs"),
    (["UPDATE accounts SET balance = -3 WHERE kind = 'wallet' AND owner = 'bob'",
      "UPDATE accounts SET balance = balance + 48 WHERE id = 2",
      ("INSERT INTO entries (op_id, transfer, account, amount) SELECT 1, 1000, id, -48 FROM accounts"
       " WHERE kind = 'wallet' AND owner = 'bob'"),
      "INSERT INTO entries (op_id, transfer, account, amount) VALUES (1, 1000, 2, 48)"], "wallet_non_negative"),
    ([("INSERT INTO operations (id, scope, key, kind, table_id, args, time) VALUES"
       " ((SELECT MAX(id) + 1 FROM operations), 'table:craps', 'again', 'refund', 'craps',"
       " '{\"stake\":\"a1\"}', 0)")], "hold_closed_once"),
    (["UPDATE holds SET closed_by = NULL WHERE handle = 'a1'"], "hold_closed_once"),
    (["UPDATE holds SET amount = 6 WHERE handle = 'b1'"], "pending_equals_open_holds"),
    ([("UPDATE operations SET args = '{\"amount\":99,\"player\":\"bob\",\"reason\":\"start\"}'"
       " WHERE key = 'm-b'")], "mint_only_mints"),
    (["UPDATE player_totals SET net = net + 1 WHERE player = 'alice'"], "totals_equal_settlements"),
    (["UPDATE player_totals SET wins = 0 WHERE player = 'alice'"], "totals_equal_settlements"),
    (["INSERT INTO player_totals (player, wagered) VALUES ('mallory', 5)"], "totals_equal_settlements"),
    (["DELETE FROM player_totals"], "totals_equal_settlements"),
])
def test_check_detects_each_broken_invariant(busy_db, sql, invariant):
    assert check(busy_db).ok
    tamper(busy_db, *sql)
    report = check(busy_db)
    assert not report.ok
    assert any(b.startswith(invariant + ":") for b in report.broken), report.broken


def test_check_refuses_a_schema_version_it_does_not_know(busy_db, store, cli):
    """SQLite keeps the version in PRAGMA user_version, PostgreSQL in casino_schema."""
    tamper(busy_db, "PRAGMA user_version = 99" if store == "sqlite" else "UPDATE casino_schema SET version = 99")
    report = check(busy_db)
    assert not report.ok and report.broken == (f"schema_version: found 99, expected 1 to {SCHEMA_VERSION}",)
    code, shown = cli.check_json(busy_db)
    assert code == 1 and shown["broken"] == [f"schema_version: found 99, expected 1 to {SCHEMA_VERSION}"]


def test_check_names_the_tampered_total(busy_db):
    """alice staked 10 and was paid 30 (s1): wagered 10, won 20, net 20, one win."""
    tamper(busy_db, "UPDATE player_totals SET wagered = 11 WHERE player = 'alice'")
    assert check(busy_db).broken == ("totals_equal_settlements: alice totals (wagered, won, net, wins)"
                                     " are (11, 20, 20, 1), settlements say (10, 20, 20, 1)",)


async def test_check_on_a_live_database_counts_open_holds(database, cli):
    led = await Ledger.open(database)
    try:
        await led.mint("m", "alice", 100, "start")
        await led.hold("h", "alice", "t", 40)
        code, report = cli.check_json(database)
        assert code == 0 and report["ok"] and report["open_holds"] == 1
    finally:
        await led.close()

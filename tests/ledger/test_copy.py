"""`casino ledger copy`: a stopped casino moved SQLite -> PostgreSQL -> SQLite, proven on both sides.

Real databases throughout (an SQLite file, the test run's PostgreSQL server)
and the real CLI as a subprocess. A copy must be the same casino: every row
equal, and opened as a casino it recovers, pays and logs in exactly as the
original does.
"""
from __future__ import annotations

import socket
import subprocess
from pathlib import Path

import pytest

from server.accounts.create import create_account
from server.accounts.passwords import Passwords
from server.accounts.table_time import TableTimeStore
from server.accounts.store import SERVER, AccountStore
from server.db.connection import connect
from server.db.url import Database
from server.ledger import Ledger, LedgerUnavailable, check
from server.ledger.copy import LEDGER_TABLES, PLAYERS, TABLE_TIME

ROOT = Path(__file__).resolve().parents[2]
TABLES = [t[0] for t in (*LEDGER_TABLES, PLAYERS, TABLE_TIME)]
PEOPLE = ("alice", "bob", "carol")
PASSWORD = "correct-horse-7"


@pytest.fixture
def pg_url2(postgres):
    url = postgres.create_database()
    yield url
    postgres.drop_database(url)


async def build_casino(where: str) -> None:
    """A stopped casino with a bit of everything: closed holds of every kind, an open
    hold and a pending outcome (it stopped mid-hand after a failed write), notices, prefs."""
    led = await Ledger.open(where)
    accounts = AccountStore(where)
    passwords = Passwords()
    try:
        await create_account(accounts, led, passwords, "Carol", PASSWORD, 1000)     # an operator's, made on the server
        for name in ("Alice", "Bob"):
            await create_account(accounts, led, passwords, name, PASSWORD, 1000, owner="10.0.0.9")
        await accounts.save_prefs("Alice", {"color": False})
        await led.show_on_boards("bob", False)                  # `top`'s hidden flag is copied too
        await led.hold("a1", "alice", "craps", 10)
        await led.hold("a2", "alice", "craps", 20)
        await led.settle("s1", "craps", ["a1"], {"alice": 30})
        await led.hold("b1", "bob", "pig", 5)
        await led.refund("r1", "pig", "b1")
        await led.hold("c1", "carol", "roulette", 15)
        await led.forfeit("f1", "roulette", "c1")
        await led.hold("b2", "bob", "pig", 12)
        led.fail_next_commits(1)
        with pytest.raises(LedgerUnavailable):
            await led.settle("s2", "pig", ["b2"], {"bob": 24})     # recorded as a pending outcome
        await led.notify("carol", "Welcome back, Carol.")
        times = TableTimeStore(where)            # `stats`' time at the tables goes too
        try:
            await times.add("alice", "craps", 61_000)
            await times.add("bob", "pig", 5_000)
            await times.add("bob", "craps", 7_250)
        finally:
            times.close()
    finally:
        passwords.close()
        accounts.close()
        await led.close()


def dump(url: str) -> dict[str, list[tuple]]:
    conn = connect(Database.parse(url))
    try:
        return {t: [tuple(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2")] for t in TABLES}
    finally:
        conn.close()


def copy_cli(cli, source: str, target: str) -> subprocess.CompletedProcess:
    return subprocess.run([*cli.argv(), "ledger", "copy", "--from", source, "--to", target],
                          capture_output=True, text=True, cwd=ROOT, timeout=120, check=False)


async def opened(url: str) -> dict:
    """What a casino started on `url` sees: recovery, balances, notices, logins."""
    led = await Ledger.open(url)
    accounts = AccountStore(url)
    passwords = Passwords()
    try:
        seen = {"recovered": sorted(map(repr, led.recovered)),
                "balances": {p: await led.balance(p) for p in PEOPLE},
                "notices": {p: await led.take_notices(p) for p in PEOPLE}}
        for p in PEOPLE:
            account = await accounts.get(p)
            assert account is not None and await passwords.verify(account.pwhash, PASSWORD)
            seen[p] = (account.name, account.origin, account.prefs)
        return seen
    finally:
        passwords.close()
        accounts.close()
        await led.close()


async def test_sqlite_to_postgres_and_back_is_the_same_casino(tmp_path, pg_url, cli):
    original = f"sqlite:///{tmp_path / 'casino.db'}"
    back = f"sqlite:///{tmp_path / 'back' / 'casino.db'}"
    await build_casino(original)
    report = check(original)
    assert report.ok and report.open_holds == 2 and report.pending_outcomes == 1

    there = copy_cli(cli, original, pg_url)
    assert there.returncode == 0, there.stderr
    assert "3 players" in there.stdout and "5 holds (2 open)" in there.stdout, there.stdout
    assert "ok on both: minted=3000" in there.stdout and "recovery" in there.stdout
    again = copy_cli(cli, pg_url, back)
    assert again.returncode == 0, again.stderr

    rows = dump(original)
    assert rows["holds"] and rows["pending_outcomes"] and rows["notices"] and len(rows["players"]) == 3
    assert dump(pg_url) == rows and dump(back) == rows           # every row, ids and all
    assert check(pg_url) == report and check(back) == report

    # Started on, each copy is the casino the original would have been.
    want = await opened(original)
    assert want["recovered"] and want["notices"]["bob"] and want["carol"][1] == SERVER
    assert want["alice"] == ("Alice", "player", {"color": False})
    assert await opened(pg_url) == want
    assert await opened(back) == want
    for url in (original, pg_url, back):
        assert check(url).ok


async def test_the_copy_goes_on_where_the_original_stopped(tmp_path, pg_url, cli):
    """New rows on the copy get new ids: PostgreSQL's identity sequences start past the copied ones."""
    original = f"sqlite:///{tmp_path / 'casino.db'}"
    await build_casino(original)
    assert copy_cli(cli, original, pg_url).returncode == 0
    led = await Ledger.open(pg_url)
    accounts = AccountStore(pg_url)
    passwords = Passwords()
    try:
        await create_account(accounts, led, passwords, "Dave", PASSWORD, 500, owner="10.0.0.8")
        await led.hold("d1", "dave", "craps", 50)
        await led.settle("sd1", "craps", ["d1"], {"dave": 100})
        await led.notify("dave", "Nice roll.")
        assert await led.take_notices("dave") == ["Nice roll."]
        assert (await led.balance("dave")).wallet == 550
    finally:
        passwords.close()
        accounts.close()
        await led.close()
    report = check(pg_url)
    assert report.ok and report.minted == 3500 and report.open_holds == 0


async def test_a_target_with_anything_in_it_is_refused_and_left_alone(tmp_path, pg_url, pg_url2, cli):
    original = f"sqlite:///{tmp_path / 'casino.db'}"
    await build_casino(original)
    assert copy_cli(cli, original, pg_url).returncode == 0
    before = dump(pg_url)
    done = copy_cli(cli, original, pg_url)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "is not empty" in done.stderr and "3 players" in done.stderr
    assert dump(pg_url) == before

    accounts = AccountStore(pg_url2)             # players only, no ledger yet: still not empty
    await accounts.create("Eve", "not-a-real-hash")
    accounts.close()
    done = copy_cli(cli, original, pg_url2)
    assert done.returncode == 1 and "1 players" in done.stderr

    other = tmp_path / "other.db"
    led = await Ledger.open(other)
    await led.mint("m", "zed", 5, "start")
    await led.close()
    done = copy_cli(cli, pg_url, f"sqlite:///{other}")
    assert done.returncode == 1 and "is not empty" in done.stderr
    assert check(other).minted == 5

    done = copy_cli(cli, original, original)
    assert done.returncode == 1 and "the same database" in done.stderr


async def test_a_running_casino_is_not_copied(tmp_path, pg_url, cli):
    original = f"sqlite:///{tmp_path / 'casino.db'}"
    target = tmp_path / "copy.db"
    await build_casino(original)
    led = await Ledger.open(original)             # a casino running on it holds its lock
    try:
        done = copy_cli(cli, original, f"sqlite:///{target}")
        assert done.returncode == 1 and "is in use: stop the casino" in done.stderr
    finally:
        await led.close()
    assert not target.exists()                   # refused before the target was touched
    assert copy_cli(cli, original, pg_url).returncode == 0
    led = await Ledger.open(pg_url)               # and on PostgreSQL: its advisory lock
    try:
        done = copy_cli(cli, pg_url, f"sqlite:///{target}")
        assert done.returncode == 1 and "is in use" in done.stderr
    finally:
        await led.close()


async def test_a_broken_source_is_not_copied(tmp_path, cli):
    original = tmp_path / "casino.db"
    await build_casino(f"sqlite:///{original}")
    conn = connect(Database.parse(original))
    conn.execute("UPDATE accounts SET balance = balance + 7 WHERE kind = 'wallet' AND owner = 'bob'")
    conn.close()
    target = tmp_path / "copy.db"
    done = copy_cli(cli, f"sqlite:///{original}", f"sqlite:///{target}")
    assert done.returncode == 1 and "the source's ledger is broken (conservation" in done.stderr
    assert not target.exists()


async def test_a_source_from_before_the_totals_is_refused_until_started_once(tmp_path, cli):
    """A schema-3 file has no player_totals: the copy would have no totals to prove."""
    original = tmp_path / "casino.db"
    await build_casino(f"sqlite:///{original}")
    conn = connect(Database.parse(original))
    conn.execute("DROP TABLE player_totals")
    conn.execute("PRAGMA user_version = 3")
    conn.close()
    target = tmp_path / "copy.db"
    done = copy_cli(cli, f"sqlite:///{original}", f"sqlite:///{target}")
    assert done.returncode == 1 and "predates this version (schema 3)" in done.stderr
    assert "start the casino on it once" in done.stderr and not target.exists()


def test_bad_urls_and_unreachable_servers_are_one_line_without_the_password(tmp_path, cli):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]             # nobody listens here once closed
    down = f"postgresql://casino:hunter2secret@127.0.0.1:{port}/casino"
    cases = [
        ([f"sqlite:///{tmp_path / 'none.db'}", f"sqlite:///{tmp_path / 'x.db'}"], "no ledger database at"),
        (["mysql://u:hunter2secret@h/db", f"sqlite:///{tmp_path / 'x.db'}"], "--from: 'mysql' is not a database"),
        ([down, f"sqlite:///{tmp_path / 'x.db'}"], "the source: postgresql://casino:***@127.0.0.1"),
        ([f"sqlite:///{tmp_path / 'none.db'}", "postgresql://h"], "--to: "),
    ]
    for (source, target), says in cases:
        done = copy_cli(cli, source, target)
        assert done.returncode == 1, done
        assert done.stderr.count("\n") == 1 and says in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and "hunter2secret" not in done.stderr + done.stdout

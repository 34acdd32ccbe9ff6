"""The real process: `python -m server`, the real telnet client, and shutdown."""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pexpect
import pytest
from support.process import crash, reap

ROOT = Path(__file__).resolve().parents[2]

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def url_of(db: Path | str) -> str:
    """A database URL: `db` as given, or an SQLite file's path as sqlite:///..."""
    return str(db) if "://" in str(db) else f"sqlite:///{db}"


def start_server(db: Path | str, *extra: str) -> tuple[subprocess.Popen, int]:
    """`python -m server` on a free port (its browser page off unless `extra`
    names a --web-port) on `db`, an SQLite file or a database URL; returns once
    it accepts connections. Its processes (the portal and the game process) are a
    process group of their own, for `crash`; its pid file is not the repository's."""
    port = free_port()
    web = () if "--web-port" in extra else ("--web-port", "0")
    pid_file = Path(tempfile.gettempdir()) / f"casino-test-{port}.pid"
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--database", url_of(db), *web,
         "--pid-file", str(pid_file), *extra],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
    )
    deadline = time.monotonic() + 20
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return proc, port
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                reap(proc)
                raise RuntimeError(proc.stdout.read())
            time.sleep(0.05)     # polling for a real process to listen, not game time


@contextlib.contextmanager
def running(db: Path | str, *extra: str):
    """A server process for the block; killed afterwards (both processes) if still alive."""
    proc, port = start_server(db, *extra)
    try:
        yield proc, port
    finally:
        reap(proc)


def stop_cleanly(proc: subprocess.Popen) -> None:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0


@pytest.fixture
def server_process(tmp_path):
    with running(tmp_path / "casino.db") as (proc, port):
        yield proc, port, tmp_path / "casino.db"

def spawn_telnet(port: int) -> pexpect.spawn:
    telnet = shutil.which("telnet")
    assert telnet, "the inetutils telnet client must be installed (make test installs it)"
    env = {**os.environ, "TERM": "xterm", "LANG": "C.UTF-8"}
    child = pexpect.spawn(telnet, ["127.0.0.1", str(port)], env=env, encoding="utf-8",
                          timeout=10, dimensions=(40, 100))
    return child

def telnet_at_craps(port: int, login_line: str) -> pexpect.spawn:
    """The real telnet client, logged in with `login_line`, seated at bank craps."""
    child = spawn_telnet(port)
    child.expect("Name: ")
    child.sendline(login_line)
    child.expect("Exits:")
    child.sendline("north")
    child.expect("Exits:")
    child.sendline("play craps")
    child.expect("joins the table")
    return child


def ledger_check_json(db: Path | str) -> str:
    check = subprocess.run([sys.executable, "-m", "server.cli", "ledger", "check", "--database", url_of(db), "--json"],
                           cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stdout + check.stderr
    return check.stdout


def test_real_telnet_client_logs_in_with_password_not_echoed(server_process):
    proc, port, _ = server_process
    child = spawn_telnet(port)
    child.expect("Name: ")
    child.sendline("yuri")
    child.expect("New password: ")
    child.sendline("s3cretpw")
    child.expect("again: ")
    child.sendline("s3cretpw")
    child.expect("Welcome, yuri!")
    child.expect("Exits:")
    child.expect("> ")
    assert "s3cretpw" not in child.before
    child.sendline("quit")
    child.expect("Goodbye")
    child.expect(pexpect.EOF)

    child = spawn_telnet(port)
    child.expect("Name: ")
    child.sendline("yuri")
    child.expect("Password: ")
    child.sendline("s3cretpw")
    child.expect("You have 1000 chips.")
    seen = child.before
    child.expect("> ")
    assert "s3cretpw" not in seen + child.before
    child.sendline("north")
    child.expect("Bank Craps")
    child.expect("Exits: ")
    child.expect("> ")
    child.sendline("balance")
    child.expect("Wallet: 1000 chips.")
    child.expect("> ")
    child.sendline("say hi from telnet")
    child.expect('You say, "hi from telnet"')
    child.sendline("quit")
    child.expect(pexpect.EOF)

def test_sigterm_tells_everyone_and_exits_zero(server_process):
    proc, port, db = server_process
    child = spawn_telnet(port)
    child.expect("Name: ")
    child.sendline("create zack secret123")
    child.expect("> ")
    proc.send_signal(signal.SIGTERM)
    child.expect("closing")
    child.expect(pexpect.EOF)
    assert proc.wait(timeout=10) == 0
    log = proc.stdout.read()
    assert "event=shutdown" in log
    assert "secret123" not in log
    ledger_check_json(db)


def test_log_json_is_one_object_per_line_and_never_a_password(tmp_path):
    import json
    with running(tmp_path / "c.db", "--log-json") as (proc, port):
        child = spawn_telnet(port)
        child.expect("Name: ")
        child.sendline("connect nobody wrongpass1")
        child.expect("Wrong name or password")
        child.sendline("create jsonpal pw123456")
        child.expect("Exits:")
        child.sendline("quit")
        child.expect(pexpect.EOF)
        stop_cleanly(proc)
    lines = [line for line in proc.stdout.read().splitlines() if line.strip()]
    events = [json.loads(line) for line in lines]          # every line is one JSON object
    names = [e.get("event") for e in events]
    for wanted in ("listening", "connect", "login_failed", "account_created", "login", "logout", "shutdown"):
        assert wanted in names, wanted
    assert all("pw123456" not in line and "wrongpass1" not in line for line in lines)


def test_operator_shutdown_refunds_and_exits_zero_and_seed_is_announced(tmp_path):
    db = tmp_path / "c.db"
    made = subprocess.run([sys.executable, "-m", "server.cli", "account", "create", "admin", "--data", str(db)],
                          cwd=ROOT, input="opsecret1\n", capture_output=True, text=True)
    assert made.returncode == 0 and "Created account admin with 1000 chips." in made.stdout
    again = subprocess.run([sys.executable, "-m", "server.cli", "account", "create", "Admin", "--data", str(db)],
                           cwd=ROOT, input="opsecret1\n", capture_output=True, text=True)
    assert again.returncode == 1 and "taken" in again.stderr
    with running(db, "--seed", "5") as (proc, port):
        player = telnet_at_craps(port, "create bettor secret123")
        player.sendline("fair")
        player.expect("deterministic: dice derived from --seed 5")
        player.sendline("bet dontpass 40")
        player.expect("Bet accepted")
        admin = spawn_telnet(port)
        admin.expect("Name: ")
        admin.sendline("admin")
        admin.expect("Password: ")
        admin.sendline("opsecret1")
        admin.expect("Exits:")
        admin.sendline("shutdown 1 end of the night")
        admin.expect("Shutdown in 1 seconds")
        player.expect("refunded")
        player.expect(pexpect.EOF)
        assert proc.wait(timeout=15) == 0
    log = proc.stdout.read()
    assert "Deterministic dice: every table's dice derive from --seed 5." in log
    assert '"open_holds": 0' in ledger_check_json(db)


@pytest.mark.both_stores
def test_kill_9_with_live_bets_is_refunded_at_restart_and_the_players_told(database):
    """SIGKILL of `casino serve` (the machine's crash: the portal and the game process
    both) with three stakes held by two players: the holds outlive the process (the ledger check in between counts them), and the next
    start refunds every one, tells each player at login and leaves none open."""
    import json
    db = database
    with running(db, "--seed", "3") as (proc, port):
        rita = telnet_at_craps(port, "create rita secret123")
        rita.sendline("bet pass 25")
        rita.expect("Bet accepted: pass 25.")     # shown only once the hold is durable
        rita.sendline("bet fire 5")
        rita.expect("Bet accepted: fire 5.")
        sam = telnet_at_craps(port, "create sam secret123")
        sam.sendline("bet dontpass 40")
        sam.expect("Bet accepted: dontpass 40.")
        crash(proc)
    between = json.loads(ledger_check_json(db))
    assert between["open_holds"] == 3, between
    with running(db) as (proc, port):
        for name, stakes in (("rita", (25, 5)), ("sam", (40,))):
            child = spawn_telnet(port)
            child.expect("Name: ")
            child.sendline(f"connect {name} secret123")
            told = []
            for _ in stakes:
                child.expect(r"Notice: Your stake of (\d+) chips at table bank_craps was still open")
                told.append(int(child.match.group(1)))
            assert sorted(told) == sorted(stakes)
            child.expect("You have 1000 chips.")
            child.sendline("quit")
            child.expect(pexpect.EOF)
        stop_cleanly(proc)
    assert "event=recovery" in proc.stdout.read()
    after = json.loads(ledger_check_json(db))
    assert after["ok"] and after["open_holds"] == 0, after


@pytest.mark.both_stores
async def test_sigterm_while_bets_arrive_leaves_no_stake_held(database):
    """SIGTERM with three players betting as fast as they may: exit 0, and the
    ledger check right after finds every stake refunded (0 open holds)."""
    import asyncio
    import json

    from support.telnet import Client, login
    db = database
    with running(db, "--seed", "9") as (proc, port):
        players = []
        for name in ("tra", "trb", "trc"):
            c = await Client.open(port)
            await login(c, name)
            await c.cmd("north")
            await c.cmd_expect("play craps", "joins the table")
            players.append(c)

        async def keep_betting(c: Client) -> None:
            try:
                while True:
                    await c.send("bet field 1")
                    await asyncio.sleep(0.02)
            except (ConnectionError, OSError):
                pass
        bettors = [asyncio.create_task(keep_betting(c)) for c in players]
        await players[0].expect("Bet accepted")
        await players[0].expect("Bet accepted")
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, 15) == 0
        for task in bettors:
            task.cancel()
    report = json.loads(ledger_check_json(db))
    assert report["ok"] and report["open_holds"] == 0, report


def test_serve_prints_the_telnet_and_web_addresses_and_serves_the_page(tmp_path):
    import urllib.request
    web = free_port()
    with running(tmp_path / "w.db", "--web-port", str(web)) as (proc, port):
        with urllib.request.urlopen(f"http://127.0.0.1:{web}/", timeout=5) as page:
            assert page.status == 200 and "casino.js" in page.read().decode()
        stop_cleanly(proc)
    out = proc.stdout.read()
    assert f"Listening: telnet 127.0.0.1:{port}, web http://127.0.0.1:{web}/" in out

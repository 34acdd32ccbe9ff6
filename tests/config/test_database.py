"""`server.database` and `--database URL`: every `casino` command finds the same database.

Real processes, real databases: an SQLite file, and the test run's PostgreSQL
server. Precedence: --database, then --data FILE, then the config's key. A bad
URL or a database that cannot be reached is one line and a non-zero exit,
never a traceback, never the password.
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pexpect
import pytest

from server.config.load import load_config
from server.ledger import Ledger, check

ROOT = Path(__file__).resolve().parents[2]
CASINO = "import sys; from server.cli import main; sys.exit(main(sys.argv[1:]))"
SECRET = "hunter2secret"


def casino(*args: str, cwd: Path = ROOT, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", CASINO, *args], cwd=cwd, input=stdin,
                          capture_output=True, text=True, timeout=60, env=env)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def config_with(tmp_path: Path, database: str) -> Path:
    """A copy of the shipped config whose server.database is `database`."""
    cfg = tmp_path / "cfg"
    shutil.copytree(ROOT / "config", cfg)
    server = cfg / "server.yaml"
    text = server.read_text()
    assert "  database: sqlite:///data/casino.db\n" in text
    server.write_text(text.replace("  database: sqlite:///data/casino.db\n", f"  database: {database}\n"))
    return cfg


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line saying why; `casino serve` may log its shutdown before it (as for a taken port)."""
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and SECRET not in done.stderr + done.stdout, done.stderr
    lines = [line for line in done.stderr.splitlines() if " event=" not in line]
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_the_shipped_default_is_the_sqlite_file() -> None:
    assert load_config(ROOT / "config", ROOT / "rooms").settings.database == "sqlite:///data/casino.db"


@pytest.mark.parametrize("url, says", [
    ("mysql://casino:hunter2secret@db/casino", "'mysql' is not a database we support"),
    ("postgresql://casino:hunter2secret@db", "name the database"),
    ("sqlite:data/casino.db", "an SQLite URL reads sqlite:///path/to/file.db"),
])
def test_a_bad_url_in_the_config_is_one_config_error(tmp_path: Path, url: str, says: str) -> None:
    cfg = config_with(tmp_path, url)
    done = casino("validate", "--config", str(cfg), "--rooms", str(ROOT / "rooms"))
    assert done.returncode == 1
    line = next(i for i, text in enumerate((cfg / "server.yaml").read_text().splitlines(), 1)
                if text.startswith("  database:"))
    lines = done.stdout.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{cfg / 'server.yaml'}:{line}: server.database: ")
    assert says in lines[0] and SECRET not in done.stdout


async def test_database_then_data_then_the_config(tmp_path: Path) -> None:
    """`ledger check` with each way of naming the database: a different ledger behind each."""
    for name, chips in (("a.db", 5), ("b.db", 7), ("c.db", 9)):
        led = await Ledger.open(tmp_path / name)
        await led.mint("m", "zed", chips, "start")
        await led.close()
    cfg = config_with(tmp_path, "sqlite:///a.db")             # relative: from the working directory
    runs = [
        ((), 5),
        (("--data", "b.db"), 7),
        (("--data", "b.db", "--database", f"sqlite:///{tmp_path / 'c.db'}"), 9),
    ]
    for extra, minted in runs:
        done = casino("ledger", "check", "--config", str(cfg), "--json", *extra, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["minted"] == minted, extra
    shutil.move(str(cfg), str(tmp_path / "config"))          # ./config is read when it exists
    assert json.loads(casino("ledger", "check", "--json", cwd=tmp_path).stdout)["minted"] == 5
    (tmp_path / "config" / "server.yaml").write_text("server:\n  database: mysql://x/y\n")
    done = casino("ledger", "check", cwd=tmp_path)
    assert done.returncode == 2 and "server.database: 'mysql' is not a database" in done.stderr


def test_unreachable_postgres_is_one_line_from_every_command(tmp_path: Path) -> None:
    down = f"postgresql://casino:{SECRET}@127.0.0.1:{free_port()}/casino"
    shown = down.replace(SECRET, "***")
    serve = casino("serve", "--database", down, "--port", "0", "--web-port", "0")
    assert one_line(serve).startswith(f"casino serve: {shown}: connection failed")
    assert serve.returncode == 1
    made = casino("account", "create", "admin", "--database", down, stdin="opsecret1\n")
    assert one_line(made).startswith(f"casino account create: {shown}: connection failed")
    checked = casino("ledger", "check", "--database", down)
    assert one_line(checked).startswith(f"ledger check: {shown}: connection failed")
    assert checked.returncode == 2
    bad = casino("serve", "--database", "postgresql://casino:hunter2secret@db", "--port", "0")
    assert one_line(bad) == "casino serve: 'postgresql://casino:***@db': name the database, as in postgresql://host/casino"


def test_a_casino_on_postgres_from_the_config(tmp_path: Path, postgres) -> None:
    """account create, serve (the config's key), a real telnet login, a second casino refused,
    SIGTERM, then ledger check: every command on the same PostgreSQL database."""
    url = postgres.create_database()
    try:
        made = casino("account", "create", "admin", "--database", url, stdin="opsecret1\n")
        assert made.returncode == 0 and "Created account admin with 1000 chips." in made.stdout, made.stderr
        cfg = config_with(tmp_path, url)
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-c", CASINO, "serve", "--config", str(cfg), "--rooms",
                                 str(ROOT / "rooms"), "--port", str(port), "--web-port", "0"],
                                cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                env={**os.environ, "PYTHONPATH": str(ROOT)})
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert proc.poll() is None and time.monotonic() < deadline, proc.stdout.read()  # type: ignore[union-attr]
                    time.sleep(0.05)     # polling for a real process to listen, not game time
            child = pexpect.spawn(shutil.which("telnet") or "telnet", ["127.0.0.1", str(port)],
                                  env={**os.environ, "TERM": "xterm", "LANG": "C.UTF-8"},
                                  encoding="utf-8", timeout=15, dimensions=(40, 100))
            child.expect("Name: ")
            child.sendline("connect admin opsecret1")
            child.expect("Exits:")
            child.sendline("ledger check")
            child.expect("ledger check: ok")            # the CLI's line, in the game too
            child.sendline("quit")
            child.expect(pexpect.EOF)
            second = casino("serve", "--database", url, "--port", "0", "--web-port", "0")
            assert "is held: another process has this ledger open" in one_line(second)
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=20) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        assert not (tmp_path / "data").exists()          # nothing went to the SQLite default
        done = casino("ledger", "check", "--database", url, "--json")
        assert done.returncode == 0, done.stderr
        report = json.loads(done.stdout)
        assert report["ok"] and report["minted"] == 1000 and report["open_holds"] == 0
        assert check(url).balances == 1000
    finally:
        postgres.drop_database(url)


async def test_a_changed_database_waits_for_a_restart(tmp_path: Path, monkeypatch) -> None:
    """A reload never moves a running casino to another database: it says a restart is needed."""
    from server.app import Casino
    cfg = config_with(tmp_path, "sqlite:///casino.db")
    monkeypatch.chdir(tmp_path)
    app = Casino(load_config(cfg, ROOT / "rooms"), "sqlite:///casino.db", config_dir=cfg, rooms_dir=ROOT / "rooms")
    await app.start("127.0.0.1", 0, run_clock=False)
    try:
        server = cfg / "server.yaml"
        server.write_text(server.read_text().replace("database: sqlite:///casino.db", "database: sqlite:///other.db"))
        applied, lines = await app.reload()
        assert applied and "Needs a restart to take effect: database." in lines
        assert app.config.settings.database == "sqlite:///casino.db"
        assert str(app.database.path) == "casino.db" and not (tmp_path / "other.db").exists()
    finally:
        await app.stop()
    assert check(app.database).ok

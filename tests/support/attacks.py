"""The attacks of issue 42, one copy for the end-to-end tests (tests/e2e/test_hostile_three.py,
test_casino_waits.py) and the hostile soak (bench/hostile42.py, `python -m bench hostile_soak`).

Each is what a hostile client (or a failing database) does, against a real
server on 127.0.0.1; what the casino must do about it is checked by the
caller. Attacks 4 and 5 (floods of lines) are bench/bench_floods.py's
`attack`, run as a process of their own.

1. `long_ttypes`: sockets that each answer TTYPE with 9,000 bytes of 0x01
   (each byte six in JSON): before the fix, a restart's hello was 4.3 MB.
2. `huge_ttype`: one 360,000-byte TTYPE IS from a logged-in player.
3. `lone_surrogate`: a browser's `say` with "\\ud800", escaped in the JSON frame.
6. `refuse_connections` (the database takes no new connection, as when
   another client holds them all) and `stop_database` (PostgreSQL stopped,
   then the game process killed).
"""
from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from support.telnet import IAC, SB, SE, TTYPE, Client
from support.web import WebClient

ROOT = Path(__file__).resolve().parents[2]
IS = 0
LONG_TTYPE = "\x01" * 9000
HUGE_TTYPE = 360_000
SURROGATE_SAY = '{"t": "line", "d": "say odd \\ud800 text"}'      # the raw frame: "\ud800" in JSON
SURROGATE_HEARD = "odd \ufffd text"


async def long_ttypes(port: int, count: int = 40) -> list[Client]:
    """Attack 1: `count` anonymous sockets, each answering TTYPE with LONG_TTYPE,
    read up to their Name: prompt."""
    clients = [await Client.open(port, ttype=LONG_TTYPE) for _ in range(count)]
    for c in clients:
        await c.read_until_prompt(timeout=30)
    return clients


def huge_ttype(client: Client, size: int = HUGE_TTYPE) -> None:
    """Attack 2: one TTYPE IS subnegotiation of `size` bytes."""
    client.send_raw(bytes([IAC, SB, TTYPE, IS]) + b"x" * size + bytes([IAC, SE]))


async def lone_surrogate(speaker: WebClient) -> None:
    """Attack 3: a `say` whose text holds a lone surrogate (the others hear SURROGATE_HEARD)."""
    await speaker.ws.send_str(SURROGATE_SAY)


def casino_cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=120)


async def restart_from_the_shell(pid_file: Path) -> None:
    """`casino restart`, as an operator types it in a shell."""
    done = await asyncio.to_thread(casino_cli, "restart", "--pid-file", str(pid_file))
    assert done.returncode == 0, done.stderr


def refuse_connections(admin_url: str, database: str, refuse: bool = True) -> None:
    """Attack 6, first half: `database` takes no new connection (or takes them again)."""
    import psycopg
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{database}" ALLOW_CONNECTIONS {"false" if refuse else "true"}')


def stop_database(cluster, game_pid: int) -> None:
    """Attack 6, second half: PostgreSQL stops at once, then the game process is killed
    (tests/support/postgres.py Cluster: its `pg_ctl("start", "-w")` brings it back)."""
    cluster.pg_ctl("stop", "-m", "immediate")
    os.kill(game_pid, signal.SIGKILL)

"""The compose file: the casino on a PostgreSQL service, built and run for real.

Runs where a compose can run containers: `docker compose` with a Docker
engine, or the command in CASINO_COMPOSE (e.g. `CASINO_COMPOSE=podman-compose`,
given a `postgres:15` image it can use). Skipped otherwise, as on the
development machines, which have no Docker engine (docs/operating.md,
"Docker"). Takes a minute or two: it builds the image.
"""
from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
import time
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> list[str] | None:
    chosen = os.environ.get("CASINO_COMPOSE")
    if chosen:
        return shlex.split(chosen)
    if shutil.which("docker") is None:
        return None
    for probe in (["docker", "info"], ["docker", "compose", "version"]):
        if subprocess.run(probe, capture_output=True, timeout=30).returncode != 0:
            return None
    return ["docker", "compose"]


COMPOSE = _compose()
pytestmark = pytest.mark.skipif(COMPOSE is None, reason="no docker engine with compose (or CASINO_COMPOSE)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _banner(port: int, wait: float) -> str:
    """The text the casino sends a client that refuses every telnet option ("" if nothing)."""
    end = time.monotonic() + wait
    while time.monotonic() < end:
        try:
            s = socket.create_connection(("127.0.0.1", port), 2)
        except OSError:
            time.sleep(1)
            continue
        with s:
            s.settimeout(1.0)
            data, stop = b"", time.monotonic() + 6
            while time.monotonic() < stop:
                try:
                    chunk = s.recv(4096)
                except socket.timeout:
                    if data.replace(b"\xff", b"").strip():
                        break
                    continue
                if not chunk:
                    break
                for i in range(len(chunk) - 2):
                    if chunk[i] == 255 and chunk[i + 1] in (251, 253):
                        s.send(bytes([255, 254 if chunk[i + 1] == 251 else 252, chunk[i + 2]]))
                data += chunk
            text = bytes(b for b in data if b < 240).decode("utf-8", "replace")
            if text.strip():
                return text
        time.sleep(1)
    return ""


def test_compose_runs_the_casino_on_its_postgres_service():
    assert COMPOSE is not None
    project = "casino-smoke-" + uuid.uuid4().hex[:8]
    env = {**os.environ, "CASINO_PORT": str(_free_port()), "CASINO_WEB_PORT": str(_free_port())}

    def compose(*args: str, timeout: float = 600, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*COMPOSE, "-p", project, "-f", str(ROOT / "compose.yaml"), *args],
                              cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=check)

    try:
        compose("build")
        compose("up", "-d")
        text = _banner(int(env["CASINO_PORT"]), wait=120)
        assert "Welcome" in text, compose("logs", check=False).stdout[-3000:]
        # the ledger is in PostgreSQL: the casino made its schema there
        out = compose("exec", "-T", "postgres", "psql", "-U", "casino", "-d", "casino", "-Atc",
                      "SELECT version FROM casino_schema").stdout
        assert [int(line) for line in out.splitlines() if line.strip().isdigit()][-1] >= 1, out
        dump = compose("exec", "-T", "postgres", "pg_dump", "-U", "casino", "casino").stdout
        assert "CREATE TABLE public.accounts" in dump
    finally:
        compose("down", "-v", check=False, timeout=300)

"""The compose file: the casino on a PostgreSQL service, built and run for real,
with its metrics on (that much is also checked from the file alone, everywhere).

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
import urllib.request
import uuid
from pathlib import Path

import pytest
import yaml

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
needs_compose = pytest.mark.skipif(COMPOSE is None, reason="no docker engine with compose (or CASINO_COMPOSE)")


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


def _casino_service() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["casino"]


def test_compose_turns_metrics_on_and_publishes_each_process_port():
    """Without a Docker engine too: `--metrics` on the casino's command line (the image's
    config has none), the portal's port and its one game process's, the next, published
    on the host's loopback only (docs/running.md, "Docker compose")."""
    from server.config.load import load_settings
    from server.metrics.serving import address
    service = _casino_service()
    [flag] = [a for a in service["command"] if a.startswith("--metrics=")]
    metrics = address(flag.split("=", 1)[1])
    assert metrics.host == "0.0.0.0"       # in the container: reached through the published ports
    settings = load_settings(ROOT / "config")       # the image's config: one game process
    assert settings.metrics is None and len(settings.shards) <= 1
    published = [p for p in service["ports"] if p.endswith((f":{metrics.port}", f":{metrics.port + 1}"))]
    assert published == [f"127.0.0.1:${{CASINO_METRICS_PORT:-{metrics.port}}}:{metrics.port}",
                         f"127.0.0.1:${{CASINO_GAME_METRICS_PORT:-{metrics.port + 1}}}:{metrics.port + 1}"]


@needs_compose
def test_compose_runs_the_casino_on_its_postgres_service():
    assert COMPOSE is not None
    project = "casino-smoke-" + uuid.uuid4().hex[:8]
    env = {**os.environ, "CASINO_PORT": str(_free_port()), "CASINO_WEB_PORT": str(_free_port()),
           "CASINO_METRICS_PORT": str(_free_port()), "CASINO_GAME_METRICS_PORT": str(_free_port())}

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
        # metrics are on: the portal's and the game process's, on the ports published
        for name, family in (("CASINO_METRICS_PORT", "casino_connections"), ("CASINO_GAME_METRICS_PORT",
                                                                             "casino_players")):
            url = f"http://127.0.0.1:{env[name]}/metrics"
            with urllib.request.urlopen(url, timeout=10) as r:
                assert family in r.read().decode(), url
    finally:
        compose("down", "-v", check=False, timeout=300)

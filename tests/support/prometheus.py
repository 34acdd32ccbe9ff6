"""A live `casino serve` with `/metrics` on, and Debian's `prometheus` scraping it:
started for tests/metrics/test_prometheus.py and for docs/prometheus/screenshot.py
(the picture in docs/operating.md, "Metrics"), each on free ports."""
from __future__ import annotations

import contextlib
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TypeVar

from tests.support.process import reap

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")


def free_ports(n: int) -> int:
    """The first of `n` ports in a row that are free now."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            first = int(s.getsockname()[1])
        if first + n > 65535:
            continue
        try:
            held = []
            for p in range(first, first + n):
                sock = socket.socket()
                held.append(sock)
                sock.bind(("127.0.0.1", p))
        except OSError:
            continue
        finally:
            for sock in held:
                sock.close()
        return first
    raise AssertionError("no free ports in a row")


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        return str(r.read().decode())


def until(what: str, check: Callable[[], T | None], deadline: float = 60.0) -> T:
    """Poll a real process (a server, Prometheus) until `check()` is truthy: its value."""
    end = time.monotonic() + deadline
    while True:
        try:
            got = check()
        except OSError:
            got = None
        if got:
            return got
        assert time.monotonic() < end, f"gave up waiting for {what}"
        time.sleep(0.05)     # waiting on another process's progress, not on game time


def query(prom: int, promql: str) -> list[dict[str, object]]:
    url = f"http://127.0.0.1:{prom}/api/v1/query?" + urllib.parse.urlencode({"query": promql})
    answer = json.loads(get(url))
    assert answer["status"] == "success", answer
    return list(answer["data"]["result"])


def value(prom: int, promql: str) -> float | None:
    result = query(prom, promql)
    return float(result[0]["value"][1]) if result else None     # type: ignore[index]


@contextlib.contextmanager
def casino(tmp: Path, seed: int, log: IO[bytes] | None = None, *, flag: bool = False,
           one_process: bool = False) -> Iterator[tuple[int, int]]:
    """`casino serve` (the portal and its game process, or `one_process`) with
    `server.metrics` on (`flag`: `--metrics` on the command line instead): its telnet
    port and the portal's metrics port (the game process's is the next)."""
    metrics = free_ports(2)           # the portal's, then its game process's
    config = tmp / "config"
    shutil.copytree(ROOT / "config", config)
    if not flag:
        with (config / "server.yaml").open("a") as f:
            f.write(f"  metrics:\n    host: 127.0.0.1\n    port: {metrics}\n")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    out = log if log is not None else subprocess.DEVNULL
    proc = subprocess.Popen([sys.executable, "-m", "server", "--port", str(port), "--web-port", "0",
                             "--data", str(tmp / "casino.db"), "--config", str(config),
                             "--rooms", str(ROOT / "rooms"), "--seed", str(seed),
                             "--pid-file", str(tmp / "casino.pid"),
                             *(["--metrics", f"127.0.0.1:{metrics}"] if flag else []),
                             *(["--one-process"] if one_process else [])],
                            cwd=ROOT, stdout=out, stderr=out, start_new_session=True)
    try:
        until("the casino", lambda: socket.create_connection(("127.0.0.1", port), timeout=1).close() or True)
        last = metrics if one_process else metrics + 1
        until("the game process's /metrics", lambda: get(f"http://127.0.0.1:{last}/metrics"))
        yield port, metrics
    finally:
        reap(proc)


@contextlib.contextmanager
def prometheus(tmp: Path, targets: list[int], interval: float = 1.0) -> Iterator[int]:
    """Debian's `prometheus` scraping these local ports every `interval` seconds (job
    `casino`, docs/prometheus/alerts.yml's): its own port."""
    prom = free_ports(1)
    listed = ", ".join(f"'127.0.0.1:{t}'" for t in targets)
    (tmp / "prometheus.yml").write_text(
        f"global: {{scrape_interval: {interval:g}s, evaluation_interval: {interval:g}s}}\n"
        "scrape_configs:\n"
        "  - job_name: casino\n"
        f"    static_configs: [{{targets: [{listed}]}}]\n")
    proc = subprocess.Popen(["prometheus", f"--config.file={tmp / 'prometheus.yml'}",
                             f"--storage.tsdb.path={tmp / 'tsdb'}",
                             f"--web.listen-address=127.0.0.1:{prom}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        until("Prometheus", lambda: get(f"http://127.0.0.1:{prom}/-/ready"))
        yield prom
    finally:
        proc.terminate()
        proc.wait(timeout=30)

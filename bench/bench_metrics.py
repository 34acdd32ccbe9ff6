"""What `/metrics` costs: the crowd bench with metrics off, then on and scraped every second.

Issue #41's targets: the crowd at 2,000 players with a scrape every second
costs at most 3% more CPU than with metrics off (the same run, each server
started fresh, the order rotated run by run), and the reply-time histogram's
p99 agrees with what the bench's clients measure within 20%.

The load is bench_crowd's (N real telnet clients, one command a second each,
the same mix), against the casino as `casino serve` runs it: a portal and its
game process. "metered" has `server.metrics` on (the portal's port, its game
process's the next) and a scraper that GETs both `/metrics` every second for
the server's whole life, as a Prometheus with a 1 s interval would; "off" is
the shipped config. CPU is every server process's, over the commands sent.

The histogram's p99 is read as PromQL's histogram_quantile reads it (linear
within the bucket) from the difference of two scrapes of the game process's
`casino_reply_seconds`, one just before the timed part and one just after,
so it covers the same commands the clients timed. The histogram measures
from a line read to its prompt written in the game process; the clients
measure from a line sent to its prompt read, so they also see the portal's
two hops and their own loop: the clients' p99 is the larger, and the ratio
says by how much.

    python -m bench metrics                          # 2,000 clients, 30 s, 3 runs
    python -m bench metrics --clients 200 --seconds 5 --runs 1   # a quick look
"""
from __future__ import annotations

import argparse
import re
import shutil
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import yaml

from bench import bench_crowd as crowd

CLIENTS = 2000
RUNS = 3
KINDS = ("off", "metered")
CPU_TARGET = 1.03            # metered : off, CPU a command
P99_TARGET = 0.20            # |histogram p99 / clients' p99 - 1|
BUCKET = re.compile(r'^casino_reply_seconds_bucket\{le="([^"]+)"\} (\S+)$', re.M)


def free_pair() -> int:
    """A port p with p + 1 free too (the portal's metrics port, then its game process's)."""
    for _ in range(200):
        with socket.socket() as a:
            a.bind(("127.0.0.1", 0))
            p = a.getsockname()[1]
            with socket.socket() as b:
                try:
                    b.bind(("127.0.0.1", p + 1))
                except OSError:
                    continue
                return p
    raise RuntimeError("no two free ports in a row")


def metered_config(config: Path, port: int) -> Path:
    """`config` with server.metrics on 127.0.0.1:`port`, in a directory of its own."""
    out = config.parent / "config-metered"
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(config, out)
    path = out / "server.yaml"
    data = yaml.safe_load(path.read_text())
    data["server"]["metrics"] = {"host": "127.0.0.1", "port": port}
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return out


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as r:
        return r.read().decode()


def buckets(text: str) -> list[tuple[float, float]]:
    """The reply-time histogram's cumulative buckets (upper bound, count)."""
    return [(float(le), float(n)) for le, n in BUCKET.findall(text)]


def quantile(q: float, before: list[tuple[float, float]], after: list[tuple[float, float]]) -> float:
    """histogram_quantile(q) of what was observed between two scrapes, in seconds."""
    diff = [(le, a - b) for (le, a), (_, b) in zip(after, before)]
    total = diff[-1][1]
    if total <= 0:
        return float("nan")
    rank, lower, below = q * total, 0.0, 0.0
    for le, n in diff:
        if n >= rank:
            if le == float("inf"):
                return lower
            return lower + (le - lower) * (rank - below) / max(n - below, 1e-9)
        lower, below = le, n
    return lower


class Scraper:
    """GETs every URL each `every` seconds on a thread of its own until stopped;
    `mark(name)` keeps the game process's page as it is at that moment."""

    def __init__(self, urls: list[str], every: float = 1.0) -> None:
        self.urls, self.every = urls, every
        self.scrapes = 0
        self.failures = 0
        self.marks: dict[str, str] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            for url in self.urls:
                try:
                    get(url)
                    self.scrapes += 1
                except OSError:
                    self.failures += 1

    def mark(self, name: str) -> None:
        self.marks[name] = get(self.urls[-1])

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(10)


def one_run(tmp: Path, db: Path, n: int, seconds: float, order: tuple[str, ...]) -> dict[str, Any]:
    config = crowd.casino_config(tmp, n)
    out: dict[str, Any] = {}
    for kind in order:
        port = free_pair()
        server = crowd.casino_server(tmp, db, metered_config(config, port) if kind == "metered" else config)
        scraper = None
        try:
            if kind == "metered":
                urls = [f"http://127.0.0.1:{port}/metrics", f"http://127.0.0.1:{port + 1}/metrics"]
                deadline = time.monotonic() + 60
                while True:
                    try:
                        get(urls[1])
                        break
                    except OSError:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.2)        # the game process opens its port as it starts
                scraper = Scraper(urls)
            spec = crowd.Spec("casino", server.port, n, seconds, dict(crowd.MIX), 0.1)
            result = crowd.load(server, n, spec, crowd.default_procs(n),
                                phase=scraper.mark if scraper is not None else None)
            out[kind] = result
            if scraper is not None:
                scraper.stop()
                out["histogram_p99"] = quantile(0.99, buckets(scraper.marks["timed"]),
                                                buckets(scraper.marks["done"])) * 1000
                out["scrapes"], out["scrape_failures"] = scraper.scrapes, scraper.failures
        except BaseException:
            print(f"[{kind} server log]\n{server.tail()}", file=sys.stderr)
            raise
        finally:
            if scraper is not None:
                scraper.stop()
            server.stop()
    return out


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(prog="python -m bench metrics", description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=CLIENTS)
    parser.add_argument("--seconds", type=float, default=crowd.SECONDS)
    parser.add_argument("--runs", type=int, default=RUNS)
    args = parser.parse_args(argv or [])
    n = args.clients
    crowd.raise_nofile(n + 256)
    runs = []
    with tempfile.TemporaryDirectory(prefix="bench-metrics-") as tmp_name:
        tmp = Path(tmp_name)
        db = tmp / "casino.db"
        crowd.make_accounts(db, n)
        crowd.make_accounts(db, crowd.WARM, name=crowd.WARM_NAME)
        for i in range(args.runs):
            order = KINDS[i % 2:] + KINDS[:i % 2]
            runs.append(one_run(tmp, db, n, args.seconds, order))
            r = runs[-1]
            print(f"run {i + 1}: " + "; ".join(
                f"{k} {crowd.cpu_ms_per_command(r[k]):.3f} ms CPU a command, p99 {r[k].p(0.99):.2f} ms, "
                f"{r[k].timeouts} timeouts, {r[k].errors} errors" for k in KINDS)
                + f"; histogram p99 {r['histogram_p99']:.2f} ms ({r['scrapes']} scrapes, "
                  f"{r['scrape_failures']} failed)", flush=True)
    med = statistics.median
    cpu = {k: med([crowd.cpu_ms_per_command(r[k]) for r in runs]) for k in KINDS}
    p99 = {k: med([r[k].p(0.99) for r in runs]) for k in KINDS}
    hist = med([r["histogram_p99"] for r in runs])
    agree = med([r["histogram_p99"] / r["metered"].p(0.99) for r in runs])
    cpux = med([crowd.cpu_ms_per_command(r["metered"]) / crowd.cpu_ms_per_command(r["off"]) for r in runs])
    clean = all(r[k].timeouts == 0 and r[k].errors == 0 for r in runs for k in KINDS)
    verdicts = {f"CPU <= {CPU_TARGET:.2f}x off": cpux <= CPU_TARGET,
                f"histogram p99 within {P99_TARGET:.0%} of the clients'": abs(agree - 1) <= P99_TARGET,
                "no timeouts or errors": clean}
    print(f"{n} clients, {args.seconds:g} s, {args.runs} runs (medians): metered : off = {cpux:.3f}x CPU a "
          f"command ({cpu['metered']:.3f} vs {cpu['off']:.3f} ms), p99 {p99['metered']:.2f} vs {p99['off']:.2f} ms; "
          f"histogram p99 {hist:.2f} ms = {agree:.2f}x the clients' {p99['metered']:.2f} ms")
    print("targets (issue #41): " + "; ".join(f"{k} {'PASS' if ok else 'FAIL'}" for k, ok in verdicts.items()))
    return {"cpux": cpux, "agree": agree, "verdicts": verdicts, "runs": runs}


if __name__ == "__main__":
    main(sys.argv[1:])

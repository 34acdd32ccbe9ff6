"""`python -m bench capacity`: the commands a second the casino carries with a reply
p99 of at most 10 ms, with 1 shard behind 1 portal against 2 shards behind 2
portals, on this machine, in the same run (issue 37).

Each layout is a real `casino serve` on a PostgreSQL database of its own (the
same kind for both, tests/support/postgres.py), with a NATS broker
(tests/support/nats.py) for the two shards. The load is the crowd bench's
(bench/bench_crowd.py): CLIENTS telnet clients, each from its own loopback
address (so SO_REUSEPORT spreads them over both portals, as it spreads
players), half of them in the bank craps room, typing the crowd's mix (look,
balance, table, who, say) on a fixed schedule. The load steps up by
commands a second per client (RATES) for SECONDS each, the clients
connected afresh for each step; a step is carried when its p99 is at most
P99 and no reply is lost or late. The two-shard layout puts the lobby side
on one shard and the craps rooms on the other, so the crowd is split
between them; `who` then asks the other shard over the broker.

Reported per layout and step: commands a second sent, p50 and p99, errors, and
the CPU seconds a second of every casino process; then each layout's capacity
(the highest step carried) and the ratio of 2+2 to 1+1. The client processes
run on the same two cores as the casino: both layouts pay for them alike.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
CLIENTS = 1000
RATES = (1.0, 2.0, 3.0, 4.0, 5.0)      # commands a second per client, one step each
SECONDS = 10.0
P99 = 0.010                            # seconds: a step is carried at this p99 or below
AT_TABLE = 0.5                         # of the clients, in the bank craps room (the other shard)
TWO = {"floor": ["lobby", "solo", "parlour", "alley", "cardroom"], "craps": ["6184", "6185", "6186"]}
LAYOUTS: dict[str, tuple[dict[str, list[str]], int]] = {"1 shard, 1 portal ": ({}, 1),
                                                         "2 shards, 2 portals": (TWO, 2)}


def _config(work: Path, clients: int, url: str, bus: str, shards: dict[str, list[str]], portals: int) -> Path:
    from bench.bench_crowd import casino_config
    config = casino_config(work, clients)
    path = config / "server.yaml"
    data = yaml.safe_load(path.read_text())
    server = data["server"]
    server["database"] = url
    server["portals"] = portals
    if shards:
        server["shards"] = shards
        server["bus"] = bus
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return config


def _step(work: Path, url: str, config: Path, clients: int, rate: float, seconds: float,
          procs: int, mix: dict[str, int]) -> tuple[float, float, float, int, float]:
    """One step on a fresh casino: (commands a second sent, p50 ms, p99 ms, errors, CPU/s)."""
    from bench.bench_crowd import Server, Spec, load
    server = Server("casino", ["-m", "server", "--database", url, "--config", str(config),
                               "--rooms", str(ROOT / "rooms"), "--web-port", "0",
                               "--pid-file", str(work / "casino.pid")], work)
    try:
        spec = Spec("casino", server.port, clients, seconds, mix, AT_TABLE, interval=1.0 / rate)
        result = load(server, clients, spec, procs)
    except BaseException:
        print(f"[server log]\n{server.tail()}", file=sys.stderr)
        raise
    finally:
        server.stop()
    sent = sum(result.sent.values()) / seconds
    return sent, result.p(0.5), result.p(0.99), result.errors, result.cpu_per_second


def main(argv: list[str] | None = None) -> dict[str, float]:
    ap = argparse.ArgumentParser(prog="python -m bench capacity")
    ap.add_argument("--clients", type=int, default=CLIENTS)
    ap.add_argument("--rates", default=",".join(f"{r:g}" for r in RATES),
                    help="commands a second per client, one step each (comma-separated)")
    ap.add_argument("--seconds", type=float, default=SECONDS, help="seconds of each step")
    ap.add_argument("--procs", type=int, default=2, help="client processes")
    ap.add_argument("--mix", default=None, help="the command mix, as bench crowd takes it (look=30,who=15,...)")
    args = ap.parse_args(argv or [])
    rates = [float(r) for r in args.rates.split(",") if r]
    sys.path.insert(0, str(ROOT / "tests"))
    from bench.bench_crowd import MIX, WARM, WARM_NAME, make_accounts, parse_mix, raise_nofile
    mix = parse_mix(args.mix) if args.mix else dict(MIX)
    from support.nats import Broker, binary
    from support.postgres import Cluster, bindir
    if bindir() is None or binary() is None:
        print("SKIP: needs PostgreSQL and nats-server (Debian: postgresql, nats-server)")
        return {}
    raise_nofile(args.clients + 256)
    work = Path(tempfile.mkdtemp(prefix="casino-bench-capacity-"))
    cluster, broker = Cluster().start(), Broker().start()
    carried: dict[str, float] = {}
    topped: dict[str, float] = {}
    try:
        print(f"{args.clients} clients, mix {mix}, {args.seconds:g} s a step; carried: p99 <= "
              f"{P99 * 1000:.0f} ms and no error")
        for label, (shards, portals) in LAYOUTS.items():
            url = cluster.create_database()
            make_accounts(url, args.clients)         # type: ignore[arg-type]   # a URL serves as well
            make_accounts(url, WARM, name=WARM_NAME)  # type: ignore[arg-type]   # the crowd's warm-up logins
            config = _config(work, args.clients, url, broker.url, shards, portals)
            carried[label] = 0.0
            for rate in rates:
                sent, p50, p99, errors, cpu = _step(work, url, config, args.clients, rate, args.seconds,
                                                    args.procs, mix)
                ok = p99 <= P99 * 1000 and errors == 0
                print(f"  {label}: {sent:6.0f} commands/s  p50 {p50:6.2f} ms  p99 {p99:7.2f} ms  "
                      f"errors {errors:4d}  casino CPU {cpu:4.2f} s/s  {'carried' if ok else 'not carried'}",
                      flush=True)
                if not ok:
                    break
                carried[label] = sent
            else:
                topped[label] = carried[label]     # the last step carried too: more steps would tell more
            cluster.drop_database(url)
    finally:
        broker.remove()
        cluster.stop()
        shutil.rmtree(work, ignore_errors=True)
    one, two = carried[next(iter(LAYOUTS))], carried[list(LAYOUTS)[1]]
    for label, value in carried.items():
        top = "at least " if value and value >= topped.get(label, float("inf")) else ""
        print(f"capacity, {label}: {top}{value:6.0f} commands/s at p99 <= {P99 * 1000:.0f} ms")
    ratio = two / one if one else float("nan")
    print(f"2 shards + 2 portals against 1 + 1: {ratio:.2f}x")
    return carried

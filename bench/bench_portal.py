"""The portal: what the hop costs a command, and a restart with a thousand players on.

Two measurements, in one run (issue #30):

1. The hop. The same workload against `casino serve --one-process` and
   against `casino serve` (the portal and the game process), both running at
   once on their own temporary SQLite files: CLIENTS telnet clients per
   server (default 100), each logged in and sending `look`, waiting for its
   reply (the block up to IAC GA that says "Exits:"), then thinking THINK
   seconds (default 0.2, jittered +-50%) before the next. ROUNDS rounds of
   SECONDS each (default 4 x 5 s), interleaved one-process / portal (the
   order flips every round), so both see the same machine. Reported: p50 and
   p99 of every reply of each, pooled over the rounds, their difference, and
   the median over the rounds of each round's p50 difference. PASS if the
   portal's p50 is at most 0.1 ms above the one-process p50 (issue #36).

2. The restart. RESTART_CLIENTS clients (default 1,000) logged in to the
   portal server, each from its own loopback address (bench_crowd.address),
   then SIGUSR1 to the portal (what `casino restart` sends): the time from
   the signal until every client has read the block ending with its prompt
   that says "You are logged in again", after the one that says "The casino
   is restarting". RESTARTS restarts (default 3); reported: the median and
   each round's time until the last client (and until half of them), and how
   many clients were disconnected (must be 0). PASS if none was disconnected
   and every client was logged in again within RESTART_LIMIT seconds.

The limits a crowd needs are raised as bench_crowd does (casino_config), and
the password hash cost is lowered to Argon2id's floor for the bench (the
accounts share one hash made at that cost): logins are not what is measured
here (bench_logins is), and a restart re-hashes nothing (the portal says who
is logged in).

    python -m bench portal
    python -m bench portal --clients 200 --rounds 6 --restart-clients 1000 --restarts 5
"""
from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml

from bench.bench_crowd import (ROOT, Client, Refused, Server, Waiting, address, casino_config, make_accounts,
                               quantile, raise_nofile)

CLIENTS = 100
THINK = 0.2
SECONDS = 5.0
ROUNDS = 4
RESTART_CLIENTS = 1000
RESTARTS = 3
RESTART_LIMIT = 60.0           # seconds: every client logged in again within this
HOP_TARGET_MS = 0.1            # portal p50 - one-process p50, at most (issue #36; #30 had 0.3)
CONNECTING = 32                # connections being opened and logged in at once
PASSWORD = "portalpass1"
NAME = "portal{i}"
LOOK = (b"Exits:",)
LOGIN = (b"Exits:",)
RESTARTING = (b"The casino is restarting",)
AGAIN = (b"logged in again",)
CHEAP_HASH = {"memory_kib": 7168, "time_cost": 1, "parallelism": 1}     # the config's floor


def bench_config(tmp: Path, clients: int) -> Path:
    """bench_crowd's crowd config, with the password hash at its cheapest."""
    config = casino_config(tmp, clients)
    path = config / "server.yaml"
    data = yaml.safe_load(path.read_text())
    data["server"]["password_hash"] = dict(CHEAP_HASH)
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return config


def cheap_hash(password: str) -> str:
    import argon2
    return argon2.PasswordHasher(time_cost=CHEAP_HASH["time_cost"], memory_cost=CHEAP_HASH["memory_kib"],
                                 parallelism=CHEAP_HASH["parallelism"]).hash(password)


def start(kind: str, tmp: Path, db: Path, config: Path) -> Server:
    args = ["-m", "server", "--data", str(db), "--config", str(config), "--rooms", str(ROOT / "rooms"),
            "--web-port", "0", "--pid-file", str(tmp / f"{kind}.pid")]
    if kind == "one-process":
        args.append("--one-process")
    return Server(kind, args, tmp)


async def connect(port: int, names: range) -> tuple[dict[int, Client], dict[str, int]]:
    """Clients `names` logged in (each from its own address); the errors by kind."""
    clients: dict[int, Client] = {}
    errors: dict[str, int] = {}
    gate = asyncio.Semaphore(CONNECTING)

    async def one(g: int) -> None:
        async with gate:
            c: Client | None = None
            try:
                c = await asyncio.wait_for(Client.open(port, [], address(g)), 60)
                await c.ask(None, (b"",), 60)                               # the banner
                await c.ask(f"connect {NAME.format(i=g)} {PASSWORD}", LOGIN, 60)
                clients[g] = c
            except (OSError, ConnectionError, asyncio.TimeoutError, Refused) as err:
                errors[type(err).__name__] = errors.get(type(err).__name__, 0) + 1
                if c is not None:
                    c.close()
    await asyncio.gather(*(one(g) for g in names))
    return clients, errors


# --- 1. the hop -------------------------------------------------------------

async def looks(clients: dict[int, Client], seconds: float, think: float, seed: int) -> tuple[list[float], int]:
    """Every client: `look`, its reply, a think; for `seconds`. Reply times (s), errors."""
    samples: list[float] = []
    errors = 0
    until = time.monotonic() + seconds

    async def one(g: int, c: Client) -> None:
        nonlocal errors
        rng = random.Random(seed * 100_003 + g)
        await asyncio.sleep(rng.uniform(0, think))          # spread the first commands
        while time.monotonic() < until:
            try:
                samples.append(await c.ask("look", LOOK, 10))
            except (ConnectionError, asyncio.TimeoutError, Refused):
                errors += 1
                return
            await asyncio.sleep(think * rng.uniform(0.5, 1.5))
    await asyncio.gather(*(one(g, c) for g, c in clients.items()))
    return samples, errors


async def hop(ports: dict[str, int], clients: int, seconds: float, rounds: int, think: float) -> dict[str, Any]:
    crowds = {}
    for kind, port in ports.items():
        crowds[kind], errors = await connect(port, range(clients))
        if errors:
            raise RuntimeError(f"{kind}: {sum(errors.values())} clients could not log in: {errors}")
    kinds = list(ports)
    for kind in kinds:                                        # warm both, not timed
        await looks(crowds[kind], 1.0, think, 0)
    pooled: dict[str, list[float]] = {k: [] for k in kinds}
    per_round: list[dict[str, float]] = []
    errors = {k: 0 for k in kinds}
    for r in range(rounds):
        this: dict[str, float] = {}
        for kind in (kinds if r % 2 == 0 else kinds[::-1]):
            samples, bad = await looks(crowds[kind], seconds, think, r + 1)
            pooled[kind] += samples
            errors[kind] += bad
            this[kind] = quantile(samples, 0.5) * 1000
        per_round.append(this)
    for crowd in crowds.values():
        for c in crowd.values():
            c.close()
    return {"pooled": pooled, "per_round": per_round, "errors": errors}


# --- 2. the restart ---------------------------------------------------------

def expect(c: Client, *oks: tuple[bytes, ...]) -> list[asyncio.Future]:
    """Futures for the next blocks carrying `oks`, in order (other blocks are skipped)."""
    loop = asyncio.get_running_loop()
    futures = []
    for ok in oks:
        fut = loop.create_future()
        c.waiting.append(Waiting("restart", time.monotonic(), ok, fut))
        futures.append(fut)
    return futures


async def restarts(server: Server, n: int, times: int) -> dict[str, Any]:
    started = time.monotonic()
    clients, errors = await connect(server.port, range(n))
    connect_seconds = time.monotonic() - started
    if errors:
        raise RuntimeError(f"{sum(errors.values())} of {n} clients could not log in: {errors}")
    rounds = []
    for _ in range(times):
        await asyncio.sleep(1.0)                                  # the casino quiet again
        done: list[float] = []
        told = 0

        async def one(c: Client) -> None:
            nonlocal told
            restarting, again = expect(c, RESTARTING, AGAIN)
            await restarting
            told += 1
            await again
            done.append(time.monotonic())
        waits = [asyncio.create_task(one(c)) for c in clients.values()]
        await asyncio.sleep(0)
        t0 = time.monotonic()
        os.kill(server.pid, signal.SIGUSR1)                      # what `casino restart` sends
        finished, pending = await asyncio.wait(waits, timeout=RESTART_LIMIT * 2)
        for task in pending:
            task.cancel()
        for c in clients.values():
            c.waiting.clear()
        failed = sum(1 for t in finished if t.exception() is not None)
        times_ = sorted(t - t0 for t in done)
        rounds.append({"all": times_[-1] if len(times_) == n else float("nan"),
                       "half": times_[len(times_) // 2] if times_ else float("nan"),
                       "again": len(times_), "told": told, "failed": failed + len(pending),
                       "closed": sum(1 for c in clients.values() if c.closed)})
    # everyone still answers a command after the last restart
    answered = 0
    for c in clients.values():
        try:
            await c.ask("look", LOOK, 10)
            answered += 1
        except (ConnectionError, asyncio.TimeoutError, Refused):
            pass
    for c in clients.values():
        c.close()
    return {"rounds": rounds, "connect_seconds": connect_seconds, "answered": answered, "n": n}


# --- the run ----------------------------------------------------------------

def run(args: argparse.Namespace) -> bool:
    raise_nofile(args.restart_clients + args.clients * 2 + 256)
    with tempfile.TemporaryDirectory(prefix="bench-portal-") as name:
        tmp = Path(name)
        config = bench_config(tmp, max(args.restart_clients, args.clients) + 50)
        pwhash = cheap_hash(PASSWORD)
        t = time.monotonic()
        dbs = {"one-process": tmp / "one.db", "portal": tmp / "portal.db"}
        make_accounts(dbs["one-process"], args.clients, name=NAME, password=PASSWORD, pwhash=pwhash)
        make_accounts(dbs["portal"], max(args.clients, args.restart_clients), name=NAME, password=PASSWORD,
                      pwhash=pwhash)
        print(f"accounts made in {time.monotonic() - t:.1f} s", flush=True)
        servers: dict[str, Server] = {}
        try:
            for kind, db in dbs.items():
                servers[kind] = start(kind, tmp, db, config)
            ports = {k: s.port for k, s in servers.items()}
            result = asyncio.run(hop(ports, args.clients, args.seconds, args.rounds, args.think))
            servers.pop("one-process").stop()
            again = asyncio.run(restarts(servers["portal"], args.restart_clients, args.restarts))
        finally:
            for s in servers.values():
                s.stop()
    return report(args, result, again)


def report(args: argparse.Namespace, hop_result: dict[str, Any], again: dict[str, Any]) -> bool:
    pooled = hop_result["pooled"]
    one, portal = pooled["one-process"], pooled["portal"]
    p50 = {k: quantile(v, 0.5) * 1000 for k, v in pooled.items()}
    p99 = {k: quantile(v, 0.99) * 1000 for k, v in pooled.items()}
    diffs = [r["portal"] - r["one-process"] for r in hop_result["per_round"]]
    print(f"1. the hop: {args.clients} clients per server, `look` then {args.think:.2f} s (+-50%) think, "
          f"{args.rounds} interleaved rounds of {args.seconds:.0f} s")
    print(f"   {'server':<12} {'replies':>8} {'p50 ms':>8} {'p99 ms':>8} {'errors':>7}")
    for kind, samples in (("one-process", one), ("portal", portal)):
        print(f"   {kind:<12} {len(samples):>8} {p50[kind]:>8.3f} {p99[kind]:>8.3f} "
              f"{hop_result['errors'][kind]:>7}")
    print("   per round p50 ms (one-process / portal): "
          + ", ".join(f"{r['one-process']:.3f}/{r['portal']:.3f}" for r in hop_result["per_round"]))
    diff = p50["portal"] - p50["one-process"]
    print(f"   portal - one-process: p50 {diff:+.3f} ms (median of the rounds' {statistics.median(diffs):+.3f}), "
          f"p99 {p99['portal'] - p99['one-process']:+.3f} ms; p50 ratio {p50['portal'] / p50['one-process']:.2f}")
    hop_ok = diff <= HOP_TARGET_MS and not any(hop_result["errors"].values())
    print(f"   {'PASS' if hop_ok else 'FAIL'}: the hop adds at most {HOP_TARGET_MS} ms at p50, no errors")
    rounds = again["rounds"]
    n = again["n"]
    print(f"2. the restart: {n} clients logged in to the portal ({again['connect_seconds']:.1f} s to connect "
          f"them), SIGUSR1 x {len(rounds)}")
    for i, r in enumerate(rounds, 1):
        print(f"   restart {i}: all {r['again']}/{n} logged in again after {r['all']:.2f} s "
              f"(half after {r['half']:.2f} s); told restarting {r['told']}, failed {r['failed']}, "
              f"disconnected {r['closed']}")
    alls = [r["all"] for r in rounds]
    closed = max((r["closed"] for r in rounds), default=0)
    print(f"   median time until every player has a prompt again: {statistics.median(alls):.2f} s; "
          f"disconnected {closed}; answering `look` afterwards {again['answered']}/{n}")
    restart_ok = (all(r["again"] == n and r["told"] == n and r["all"] <= RESTART_LIMIT for r in rounds)
                  and closed == 0 and again["answered"] == n)
    print(f"   {'PASS' if restart_ok else 'FAIL'}: nobody disconnected, everyone logged in again within "
          f"{RESTART_LIMIT:.0f} s")
    return hop_ok and restart_ok


def main(argv: list[str] | None = None) -> bool:
    p = argparse.ArgumentParser(prog="python -m bench portal", description=__doc__.split("\n")[0])
    p.add_argument("--clients", type=int, default=CLIENTS, help="clients per server for the hop")
    p.add_argument("--think", type=float, default=THINK, help="seconds between a reply and the next look")
    p.add_argument("--seconds", type=float, default=SECONDS, help="seconds per round")
    p.add_argument("--rounds", type=int, default=ROUNDS, help="rounds per server, interleaved")
    p.add_argument("--restart-clients", type=int, default=RESTART_CLIENTS, help="clients through a restart")
    p.add_argument("--restarts", type=int, default=RESTARTS, help="restarts")
    return run(p.parse_args(argv or []))


if __name__ == "__main__":
    main()

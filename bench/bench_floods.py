"""Floods against the shipped server (issue 42, attacks 4 and 5): what they cost
another player's `look`, and the portal's and the game process's memory.

The server is `python -m server` (the portal and its game process) with the
shipped limits; only the password hash is made cheap, so that hundreds of
accounts log in within the bench (the hash is not what is measured here).

1. Baseline: one player (`victim`) types `look` every 50 ms, timed to its prompt.
2. Blank lines: `--anon` sockets (200) that never log in, from a fifth as many
   addresses (127.0.1.2 ...: login_connections_per_ip each), send bare CR LF
   as fast as the server takes them, and read what comes back.
3. Logged-in lines: `--logged-in` players (800) (connections_per_ip from each of 127.0.2.2 ...)
   send `look` as fast as the server takes them, and read what comes back.

The attackers are a second process (niced, as an attacker elsewhere would not
take this machine's CPU from the server). Reported per phase: the victim's
`look` p50/p99, the portal's and the game process's peak RSS, and the lines
the attackers sent; targets (issue 42): p99 under attack at most 100 ms and
the portal at most +100 MB.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.bench_hostile import config_dir
from bench.bench_server import Conn, free_port, wait_listening
from bench.procs import casino_pids

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "floodpass1"
ATTACKER_NICE = 19
LOOK_EVERY = 0.05
CHEAP_HASH = {"memory_kib": 7168, "time_cost": 1}


def make_accounts(db: Path, names: list[str]) -> None:
    """Accounts made before the server starts, hashed at the bench config's cost."""
    code = (
        "import asyncio, sys\n"
        "from server.accounts.store import AccountStore\n"
        "from server.accounts.passwords import Argon2id\n"
        "from server.config.model import PasswordHash\n"
        "from server.ledger import Ledger\n"
        "async def main():\n"
        "    ledger = await Ledger.open(sys.argv[1]); store = AccountStore(sys.argv[1])\n"
        f"    h = Argon2id(PasswordHash(memory_kib={CHEAP_HASH['memory_kib']}, "
        f"time_cost={CHEAP_HASH['time_cost']})).hash({PASSWORD!r})\n"
        "    for name in sys.argv[2:]:\n"
        "        await store.create(name, h)\n"
        "        await ledger.mint(f'start:{name}', name, 1000, 'starting chips')\n"
        "    store.close(); await ledger.close()\n"
        "asyncio.run(main())\n")
    subprocess.run([sys.executable, "-c", code, str(db), *names], cwd=ROOT, check=True)


def bench_config(work: Path) -> Path:
    return config_dir(work, **CHEAP_HASH)


def rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Peaks:
    """The portal's and the game process's RSS, sampled every 0.1 s: the peak since `reset`."""

    def __init__(self, portal: int) -> None:
        self.portal = portal
        self.peak = (0.0, 0.0)
        self.stop = False
        threading.Thread(target=self._run, daemon=True).start()

    def reset(self) -> None:
        self.peak = (0.0, 0.0)

    def _run(self) -> None:
        while not self.stop:
            game = sum(rss_mib(p) for p in casino_pids(self.portal)[1:])
            self.peak = (max(self.peak[0], rss_mib(self.portal)), max(self.peak[1], game))
            time.sleep(0.1)      # sampling a real process, not game time


async def victim(port: int) -> Conn:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    c = Conn(reader, writer)
    await c.until_prompt()
    await c.cmd("victim")
    await c.cmd(PASSWORD)
    await asyncio.sleep(0.3)
    await c.drain()
    return c


async def look(c: Conn) -> float:
    """One `look`, timed from the line sent to the prompt after its `Exits:` line
    (news from the room, with prompts of its own, may come first)."""
    await c.drain()
    start = time.perf_counter()
    c.w.write(b"look\r\n")
    buf = b""
    while True:
        chunk = await c.r.read(65536)
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
        at = buf.find(b"Exits:")
        if at >= 0 and buf.find(bytes([255, 249]), at) >= 0:       # IAC GA after it
            return (time.perf_counter() - start) * 1000


async def looks(c: Conn, seconds: float) -> list[float]:
    out = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        out.append(await look(c))
        await asyncio.sleep(LOOK_EVERY)
    return out


def p99(ms: list[float]) -> float:
    s = sorted(ms)
    return s[max(0, int(len(s) * 0.99) - 1)]


# --- the attackers' process ---------------------------------------------------------
async def attack(port: int, kind: str, count: int, addresses: int, seconds: float) -> dict[str, int]:
    """`count` connections from `addresses` addresses; logged in first for `look`
    floods; then each sends its line as fast as the server takes it for `seconds`."""
    sent = {"lines": 0, "closed": 0}
    line = b"\r\n" if kind == "blank" else b"look\r\n"

    async def sink(reader: asyncio.StreamReader) -> None:
        while await reader.read(65536):
            pass

    async def open_one(i: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        source = f"127.0.{1 if kind == 'blank' else 2}.{2 + i % addresses}"   # each flood its own addresses
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        if kind == "look":
            c = Conn(reader, writer)
            await c.until_prompt()
            await c.cmd(f"f{i:04d}")
            while b"busy checking passwords" in (said := await said_to(c, PASSWORD)):
                await asyncio.sleep(0.2)          # "try again in a moment" (real time: a bench)
                await c.cmd(f"f{i:04d}")
            assert b"chips" in said, said          # logged in: no longer counted as logging in
        return reader, writer

    # logins at once: below hashes_per_ip a source (i % addresses spreads them) and below
    # hash_queue in all (past it a login is told the casino is busy, and stays at the prompt,
    # counted among its address's login_connections_per_ip)
    gate = asyncio.Semaphore(min(addresses * 2, 24))

    async def opened(i: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        async with gate:
            return await open_one(i)
    conns = await asyncio.gather(*(opened(i) for i in range(count)))
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    end = time.monotonic() + seconds

    async def flood(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        reading = asyncio.create_task(sink(reader))
        try:
            while time.monotonic() < end and not reading.done() and not writer.is_closing():
                writer.write(line * 16)
                sent["lines"] += 16
                await writer.drain()
        except OSError:
            pass
        if reading.done() or writer.is_closing():
            sent["closed"] += 1
        reading.cancel()
        writer.close()
    await asyncio.gather(*(flood(r, w) for r, w in conns))
    return sent


async def said_to(c: Conn, line: str) -> bytes:
    """What the server answers `line` with, up to its prompt (IAC GA)."""
    c.w.write(line.encode() + b"\r\n")
    buf = b""
    while (at := buf.find(bytes([255, 249]))) < 0:
        chunk = await c.r.read(65536)
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf[:at]


def attacker_main(argv: list[str]) -> None:
    port, kind, count, addresses, seconds = int(argv[0]), argv[1], int(argv[2]), int(argv[3]), float(argv[4])
    os.nice(ATTACKER_NICE)
    print(json.dumps(asyncio.run(attack(port, kind, count, addresses, seconds))), flush=True)


# --- the bench ----------------------------------------------------------------------
def run_floods(work: Path, *, anon: int = 200, logged_in: int = 800, seconds: float = 30.0,
               baseline: float = 10.0) -> dict[str, dict[str, float]]:
    """Each phase's figures: look p50/p99 (ms), the portal's and game's peak RSS (MiB), lines sent."""
    addresses_logged_in = max(1, -(-logged_in // 20))          # connections_per_ip: 20
    make_accounts(work / "floods.db", ["victim"] + [f"f{i:04d}" for i in range(logged_in)])
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "server", "--data", str(work / "floods.db"),
                             "--config", str(bench_config(work)), "--port", str(port), "--web-port", "0",
                             "--pid-file", str(work / "casino.pid")],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=(work / "server.log").open("w"))
    figures: dict[str, dict[str, float]] = {}
    try:
        wait_listening(port, proc)
        peaks = Peaks(proc.pid)

        async def phases() -> None:
            me = await victim(port)
            peaks.reset()
            base = await looks(me, baseline)
            figures["alone"] = {"p50": statistics.median(base), "p99": p99(base), "looks": len(base),
                                "portal_mib": peaks.peak[0], "game_mib": peaks.peak[1], "lines": 0}
            for kind, count, addresses in (("blank", anon, max(1, anon // 5)),
                                           ("look", logged_in, addresses_logged_in)):
                attacker = await asyncio.create_subprocess_exec(
                    sys.executable, "-m", "bench.bench_floods", "--attacker", str(port), kind, str(count),
                    str(addresses), str(seconds), cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
                assert attacker.stdin is not None and attacker.stdout is not None
                said = await asyncio.wait_for(attacker.stdout.readline(), 600)
                assert said.strip() == b"ready", said
                peaks.reset()
                attacker.stdin.write(b"go\n")
                await attacker.stdin.drain()
                under = await looks(me, seconds)
                sent = json.loads(await asyncio.wait_for(attacker.stdout.readline(), 120))
                await attacker.wait()
                figures[kind] = {"p50": statistics.median(under), "p99": p99(under), "looks": len(under),
                                 "portal_mib": peaks.peak[0], "game_mib": peaks.peak[1],
                                 "lines": sent["lines"], "closed": sent["closed"]}
                await asyncio.sleep(2.0)             # the server settles between phases (real time)
            me.w.close()
        asyncio.run(phases())
        peaks.stop = True
    finally:
        proc.terminate()
        proc.wait(timeout=60)
    return figures


def describe(figures: dict[str, dict[str, float]]) -> list[str]:
    alone = figures["alone"]
    out = []
    for phase, f in figures.items():
        line = (f"{phase:>6}: look p50 {f['p50']:.1f} ms p99 {f['p99']:.1f} ms; RSS portal "
                f"{f['portal_mib']:.0f} MiB, game {f['game_mib']:.0f} MiB")
        if phase != "alone":
            grew = f["portal_mib"] - alone["portal_mib"]
            ok = f["p99"] <= 100 and grew <= 100
            line += (f"; {int(f['lines'])} lines written (most wait in kernel buffers), {int(f.get('closed', 0))} cut off; "
                     f"p99 <= 100 ms and portal +{grew:.0f} <= 100 MiB: {'PASS' if ok else 'FAIL'}")
        out.append(line)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m bench floods")
    ap.add_argument("--anon", type=int, default=200, help="anonymous sockets sending bare CR LF (default 200)")
    ap.add_argument("--logged-in", type=int, default=800, help="logged-in players sending look (default 800)")
    ap.add_argument("--seconds", type=float, default=30.0, help="seconds of each flood (default 30)")
    ap.add_argument("--baseline", type=float, default=10.0, help="seconds of the victim alone (default 10)")
    args = ap.parse_args([] if argv is None else argv)
    with tempfile.TemporaryDirectory(prefix="casino-floods-") as work:
        figures = run_floods(Path(work), anon=args.anon, logged_in=args.logged_in, seconds=args.seconds,
                             baseline=args.baseline)
    for line in describe(figures):
        print(line)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--attacker"]:
        attacker_main(sys.argv[2:])
    else:
        main(sys.argv[1:])

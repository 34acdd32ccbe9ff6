"""Hostile clients against the real server: what they cost a player.

Phases, each against a fresh `python -m server` on 127.0.0.1 (shipped config,
room for the bench's connections from one address):

1. Line flood: FLOODERS connections that never log in each send LINES short
   lines as fast as the server takes them, while a logged-in player sends
   `say` and times each reply up to the prompt's IAC GA. Reported: median,
   p99 and worst reply, how many lines the server handled and dropped, then
   how long SIGTERM takes to stop the server with the flood still running.
2. Over-long line: the in-process cost (telnet parse, decode, split) of one
   50 MB line with no newline, and the player's `say` while a client streams
   such a line at the live server.
3. Clients that never read: NONREADERS connections from one address keep
   asking for `help` and never read; reported: how many of their sockets the
   server still has open afterwards, and the server's RSS growth.
4. Sign-ups and logins: accounts one address can make in a row, and the
   server's RSS peak while many logins hash at once.
"""
from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.bench_server import Conn, free_port, wait_listening
from bench.procs import casino_pids

ROOT = Path(__file__).resolve().parents[1]
FLOODERS = 20
LINES = 100_000
SECONDS = 10.0
PING_EVERY = 0.05
NONREADERS = 30
BIG_LINE = 50 << 20


def config_dir(tmp: Path, **limits: int) -> Path:
    config = tmp / "config"
    shutil.copytree(ROOT / "config", config, dirs_exist_ok=True)
    server_yaml = config / "server.yaml"
    text = server_yaml.read_text()
    for key, value in limits.items():
        text, n = re.subn(rf"(\n\s+{key}:) \S+", rf"\1 {value}", text)
        assert n == 1, key
    server_yaml.write_text(text)
    return config


def start(tmp: Path, **limits: int) -> tuple[subprocess.Popen, int]:
    port = free_port()
    config = config_dir(tmp, **limits)
    proc = subprocess.Popen([sys.executable, "-m", "server", "--data", str(tmp / "bench.db"),
                             "--config", str(config), "--port", str(port),
                             "--web-port", "0", "--pid-file", str(tmp / "casino.pid")],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wait_listening(port, proc)
    return proc, port


# The server's CPU, memory and sockets: the portal's and the game process's added up
# (bench/procs.py; the connections are the portal's).
def cpu_seconds(pid: int) -> float:
    total = 0
    for one in casino_pids(pid):
        fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    total = 0.0
    for one in casino_pids(pid):
        for line in Path(f"/proc/{one}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1]) / 1024
    return total


def sockets(pid: int) -> int:
    n = 0
    for one in casino_pids(pid):
        for fd in Path(f"/proc/{one}/fd").iterdir():
            try:
                n += os.readlink(fd).startswith("socket:")
            except OSError:
                pass
    return n


async def player(port: int, name: str) -> Conn:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    c = Conn(reader, writer)
    await c.until_prompt()
    await c.cmd(f"create {name} benchpass1")
    await asyncio.sleep(0.3)
    await c.drain()
    return c


async def pings(c: Conn, seconds: float) -> list[float]:
    samples = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        samples.append(await c.cmd("say ping"))
        await asyncio.sleep(PING_EVERY)
    return samples


def summary(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[max(0, int(len(ms) * 0.99) - 1)]
    return f"{len(ms)} replies, median {statistics.median(ms):.2f} ms, p99 {p99:.2f} ms, worst {ms[-1]:.2f} ms"


async def flood_phase(port: int, proc: subprocess.Popen) -> None:
    me = await player(port, "floodee")
    idle = await pings(me, 1.0)
    blob = b"look\r\n" * LINES
    flooders = []
    for _ in range(FLOODERS):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(blob)
        flooders.append((reader, writer))
    cpu0 = cpu_seconds(proc.pid)
    busy = await pings(me, SECONDS)
    cpu = cpu_seconds(proc.pid) - cpu0
    print(f"  idle player:            {summary(idle)}")
    print(f"  {FLOODERS} x {LINES} lines:    {summary(busy)}")
    print(f"  server CPU during flood: {cpu:.2f} s in {SECONDS:.0f} s")
    t0 = time.perf_counter()
    proc.send_signal(signal.SIGTERM)
    try:
        code = await asyncio.to_thread(proc.wait, 30)
        print(f"  SIGTERM under flood: exit {code} after {time.perf_counter() - t0:.2f} s")
    except subprocess.TimeoutExpired:
        print("  SIGTERM under flood: NOT honoured within 30 s")
        proc.kill()
    for _, writer in flooders:
        writer.transport.abort()


def parse_cost() -> float:
    """CPU seconds for the server's input path to take one 50 MB line."""
    code = r'''
import asyncio, time
from server.net.lines import LineSplitter
from server.net.telnet import CasinoTelnetServer, READ_SIZE
class T:
    max_size = READ_SIZE
    def write(self, d): pass
    def get_extra_info(self, k, d=None): return ("127.0.0.1", 1) if k == "peername" else d
    def is_closing(self): return False
    def pause_reading(self): pass
    def resume_reading(self): pass
class App:
    closing = False
    class connections:
        refusal = staticmethod(lambda ip: None)
        admit = staticmethod(lambda ip: True)
    class config:
        class settings:
            class limits:
                input_bytes_per_second = 1 << 40
async def main():
    p = type("P", (CasinoTelnetServer,), {"app": App})(shell=None, encoding="utf8", encoding_errors="replace",
        force_binary=True, line_mode=True, timeout=False, limit=32768)
    p.connection_made(T())
    s = LineSplitter(512)
    chunk = b"x" * 8192
    t = time.process_time()
    for _ in range((50 << 20) // len(chunk)):
        p.data_received(chunk)
        s.feed(await p.reader.read(1 << 30))
    p.data_received(b"\r\n")
    out = s.feed(await p.reader.read(1 << 30))
    print(time.process_time() - t, out)
asyncio.run(main())
'''
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    return float(out.stdout.split()[0])


async def big_line_phase(port: int, proc: subprocess.Popen) -> None:
    me = await player(port, "bigline")
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"x" * BIG_LINE)
    cpu0 = cpu_seconds(proc.pid)
    rss0 = rss_mib(proc.pid)
    busy = await pings(me, 5.0)
    print(f"  player while a 50 MB line streams in: {summary(busy)}")
    print(f"  server CPU {cpu_seconds(proc.pid) - cpu0:.2f} s in 5 s, RSS {rss_mib(proc.pid) - rss0:+.1f} MiB")
    writer.transport.abort()


def make_accounts(db: Path, names: list[str]) -> None:
    code = (
        "import asyncio, sys\n"
        "from server.accounts.store import AccountStore\n"
        "from server.accounts.passwords import Argon2id\n"
        "from server.ledger import Ledger\n"
        "async def main():\n"
        "    ledger = await Ledger.open(sys.argv[1]); store = AccountStore(sys.argv[1])\n"
        "    h = Argon2id().hash('benchpass1')\n"
        "    for name in sys.argv[2:]:\n"
        "        await store.create(name, h)\n"
        "        await ledger.mint(f'start:{name}', name, 1000, 'starting chips')\n"
        "    store.close(); await ledger.close()\n"
        "asyncio.run(main())\n")
    subprocess.run([sys.executable, "-c", code, str(db), *names], cwd=ROOT, check=True)


async def nonreader_phase(port: int, proc: subprocess.Popen) -> None:
    import socket
    before_sockets = sockets(proc.pid)
    rss0 = rss_mib(proc.pid)
    conns = []
    for i in range(NONREADERS):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)   # a small window, as a stalled client has
        sock.connect(("127.0.0.1", port))
        reader, writer = await asyncio.open_connection(sock=sock)
        c = Conn(reader, writer)
        await c.until_prompt()
        await c.cmd(f"connect nr{i} benchpass1")
        conns.append(c)
    print(f"  {NONREADERS} logged-in clients from one address stop reading and keep typing 'help'")
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < 20 and sockets(proc.pid) > before_sockets:
        for c in conns:
            if not c.w.is_closing():
                c.w.write(b"help\r\nlook\r\n" * 5)
        await asyncio.sleep(0.5)
    peak = rss_mib(proc.pid)
    still = max(0, sockets(proc.pid) - before_sockets)
    print(f"  after {time.perf_counter() - t0:.1f} s: {still} of their sockets open on the server, "
          f"RSS {peak - rss0:+.1f} MiB")
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    c = Conn(reader, writer)
    try:
        await asyncio.wait_for(c.until_prompt(), 5)
        print("  a new connection from the same address: admitted")
    except (ConnectionError, asyncio.TimeoutError):
        print("  a new connection from the same address: REFUSED")
    writer.close()
    for c in conns:
        c.w.transport.abort()


async def signup_phase(port: int, proc: subprocess.Popen) -> None:
    made = refused = 0
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    c = Conn(reader, writer)
    await c.until_prompt()
    t0 = time.perf_counter()
    for i in range(60):
        await asyncio.sleep(0.06)                # within the command rate: refusals are instant
        writer.write(f"create mint{i} benchpass1\r\n".encode())
        text = b""
        while b"Welcome, " not in text and b"address" not in text:
            text += await reader.read(65536)
        if b"Welcome, " in text:
            made += 1
            writer.close()
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            c = Conn(reader, writer)
            await c.until_prompt()
        else:
            refused += 1
    print(f"  60 sign-ups from one address in {time.perf_counter() - t0:.1f} s: {made} made, {refused} refused")
    writer.close()
    rss0 = rss_mib(proc.pid)
    peak = rss0

    async def wrong(i: int) -> None:
        r, w = await asyncio.open_connection("127.0.0.1", port)
        cc = Conn(r, w)
        await cc.until_prompt()
        await cc.cmd(f"connect mint0 wrongpass{i}")
        w.close()

    task = asyncio.gather(*(wrong(i) for i in range(12)))
    while not task.done():
        peak = max(peak, rss_mib(proc.pid))
        await asyncio.sleep(0.02)
    await task
    print(f"  12 password checks at once: RSS {rss0:.0f} MiB before, peak {peak:.0f} MiB")


def main() -> None:
    limits = dict(connections_per_ip=FLOODERS + NONREADERS + 20, max_login_connections=200,
                  login_connections_per_ip=FLOODERS + NONREADERS + 20)
    print(f"in-process cost of one {BIG_LINE >> 20} MB line: {parse_cost():.2f} s CPU")
    for title, phase, extra in (
        ("line flood", flood_phase, {}),
        ("over-long line", big_line_phase, {}),
        ("clients that never read", nonreader_phase, {"max_output": 65536}),
        ("sign-ups and password checks", signup_phase, {}),
    ):
        print(f"-- {title}")
        with tempfile.TemporaryDirectory() as tmp:
            if phase is nonreader_phase:
                make_accounts(Path(tmp) / "bench.db", [f"nr{i}" for i in range(NONREADERS)])
            proc, port = start(Path(tmp), **limits, **extra)
            try:
                asyncio.run(phase(port, proc))
            finally:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
                    try:
                        proc.wait(20)
                    except subprocess.TimeoutExpired:
                        proc.kill()
                        proc.wait()


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()

"""Command latency over telnet: the casino against a bare telnetlib3 line server.

What is measured, in the same run: CLIENTS telnet connections on 127.0.0.1 to
a server in its own process; each logged-in client sends a command every
INTERVAL seconds for SECONDS seconds and times the reply (up to the prompt's
IAC GA). The casino answers `look` (room text, occupants, exits); the
baseline is telnetlib3 with the same settings answering each line with one
line and a GA (a bare telnetlib3 line server: the floor for ours).
Reported: median and p99 reply time of each, and the ratio. Accounts are
made before the timing starts (Argon2 is deliberately slow).
"""
from __future__ import annotations

import asyncio
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

CLIENTS = 100
INTERVAL = 0.5
SECONDS = 8
ROOT = Path(__file__).resolve().parents[1]
IAC, GA, WILL, WONT, DO, DONT, SB, SE = 255, 249, 251, 252, 253, 254, 250, 240

BASELINE = r'''
import asyncio, sys, telnetlib3
async def shell(reader, writer):
    writer.write("welcome\r\n> ")
    writer.send_ga()
    while True:
        line = await reader.readline()
        if not line:
            return
        writer.write("ok: " + line.strip() + "\r\n> ")
        writer.send_ga()
async def main():
    await telnetlib3.create_server(host="127.0.0.1", port=int(sys.argv[1]), shell=shell,
        encoding="utf8", encoding_errors="replace", force_binary=True, line_mode=True,
        connect_maxwait=0.5, timeout=False)
    await asyncio.Event().wait()
asyncio.run(main())
'''


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_listening(port: int, proc: subprocess.Popen, seconds: float = 30,
                   why: Callable[[], str] = lambda: "") -> None:
    """Until a server started as `proc` accepts on 127.0.0.1:port; raises if it
    exits or `seconds` pass first, with `why()` (its log's tail) in the message."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("server did not start:\n" + why())
            time.sleep(0.05)


class Conn:
    """Just enough telnet: refuse every option, read up to IAC GA."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.r, self.w = reader, writer

    async def until_prompt(self) -> None:
        buf = b""
        while True:
            chunk = await self.r.read(65536)
            if not chunk:
                raise ConnectionError("closed")
            buf += chunk
            i = 0
            while (i := buf.find(bytes([IAC]), i)) >= 0 and i + 2 <= len(buf):
                cmd = buf[i + 1]
                if cmd in (DO, WILL) and i + 2 < len(buf):
                    self.w.write(bytes([IAC, WONT if cmd == DO else DONT, buf[i + 2]]))
                if cmd == GA:
                    return
                i += 2
            buf = buf[-2:]

    async def drain(self) -> None:
        while True:
            try:
                if not await asyncio.wait_for(self.r.read(65536), 0.05):
                    return
            except asyncio.TimeoutError:
                return

    async def cmd(self, line: str) -> float:
        start = time.perf_counter()
        self.w.write(line.encode() + b"\r\n")
        await self.until_prompt()
        return time.perf_counter() - start


async def measure(port: int, login: list[str], command: str) -> list[float]:
    conns = []
    for i in range(CLIENTS):
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        c = Conn(reader, writer)
        await c.until_prompt()
        for line in login:
            await c.cmd(line.format(i=i))
        conns.append(c)
    # Logging in made "X arrives." messages (each with its own prompt): read
    # them all before timing, so no reply is matched to a stale prompt.
    await asyncio.sleep(1.0)
    for c in conns:
        await c.drain()
    samples: list[float] = []

    async def client(c: Conn, offset: float) -> None:
        await asyncio.sleep(offset)
        end = time.perf_counter() + SECONDS
        while time.perf_counter() < end:
            samples.append(await c.cmd(command))
            await asyncio.sleep(INTERVAL)

    await asyncio.gather(*(client(c, INTERVAL * i / CLIENTS) for i, c in enumerate(conns)))
    for c in conns:
        c.w.close()
    return samples


def make_accounts(db: Path) -> None:
    code = (
        "import asyncio, sys\n"
        "from server.accounts.store import AccountStore\n"
        "from server.accounts.passwords import Argon2id\n"
        "from server.ledger import Ledger\n"
        "async def main():\n"
        "    ledger = await Ledger.open(sys.argv[1]); store = AccountStore(sys.argv[1])\n"
        "    h = Argon2id().hash('benchpass1')\n"
        f"    for i in range({CLIENTS}):\n"
        "        await store.create(f'bench{i}', h)\n"
        "        await ledger.mint(f'start:bench{i}', f'bench{i}', 1000, 'starting chips')\n"
        "    store.close(); await ledger.close()\n"
        "asyncio.run(main())\n")
    subprocess.run([sys.executable, "-c", code, str(db)], cwd=ROOT, check=True)


def run_server(args: list[str]) -> tuple[subprocess.Popen, int]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, *args, str(port)] if args[0] == "-c" else
                            [sys.executable, *args, "--port", str(port)],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_listening(port, proc)
    return proc, port


def summary(samples: list[float]) -> tuple[float, float]:
    ms = sorted(s * 1000 for s in samples)
    return statistics.median(ms), ms[int(len(ms) * 0.99) - 1]


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        make_accounts(db)
        # The shipped config, but with room for every bench client from one address.
        config = Path(tmp) / "config"
        shutil.copytree(ROOT / "config", config)
        server_yaml = config / "server.yaml"
        server_yaml.write_text(server_yaml.read_text().replace(
            "connections_per_ip: 20", f"connections_per_ip: {CLIENTS + 10}").replace(
            "login_connections_per_ip: 5", f"login_connections_per_ip: {CLIENTS + 10}"))
        base, base_port = run_server(["-c", BASELINE])
        casino, casino_port = run_server(["-m", "server", "--data", str(db), "--config", str(config),
                                          "--web-port", "0", "--pid-file", str(Path(tmp) / "casino.pid")])
        try:
            base_s = asyncio.run(measure(base_port, [], "look"))
            ours = asyncio.run(measure(casino_port, ["connect bench{i} benchpass1"], "look"))
        finally:
            for p in (base, casino):
                p.terminate()
                p.wait()
    (bm, bp), (om, op) = summary(base_s), summary(ours)
    print(f"{CLIENTS} clients, one command each every {INTERVAL} s for {SECONDS} s, reply up to the prompt's GA")
    print(f"{'server':<24}{'replies':>9}{'median ms':>11}{'p99 ms':>9}")
    print(f"{'bare telnetlib3 (floor)':<24}{len(base_s):>9}{bm:>11.2f}{bp:>9.2f}")
    print(f"{'casino, look':<24}{len(ours):>9}{om:>11.2f}{op:>9.2f}")
    print(f"ratio casino : floor = {om / bm:.1f}x median, {op / bp:.1f}x p99")


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()

"""The crowd: N telnet clients, one command a second each, against the casino and a bare server.

What is measured, in the same run and for each N (default 1,000 and 5,000):
N real telnet connections on 127.0.0.1 to a server in its own process, each
logged in and then sending one command a second for SECONDS seconds (default
30), on a fixed schedule: client g's commands go at t0 + g/N + k seconds, so
the servers see a steady N commands a second, and a slow reply does not delay
the next command (commands are pipelined, as a player typing ahead would). The
commands are drawn per client from a fixed mix (MIX, printed with the
results): look, who, balance, say <text> and `table`; a share of the clients
(--at-table, default 10%) first walks north to the bank craps room, where
`table` draws the table; the rest stay in the lobby, where it answers that
there is no table.

Three servers under the same load, one after the other, each started fresh:
- bare: telnetlib3 with the casino's telnet settings answering each line with
  one line and a GA (bench_server.BASELINE, the floor for ours);
- casino: `python -m server` (the portal and its game process, as `casino
  serve` runs) with the shipped config copied to a temporary directory and
  the limits a crowd needs raised (casino_config; `--set KEY=VALUE` raises
  any other), on a temporary SQLite file;
- one: the same with `--one-process` (no portal), so that what the portal's
  hop costs is measured in the same run (issue #36). Each client
  connects from its own loopback address (`address`), so the per-address
  limits are as shipped. The accounts are made before anything is timed, all
  with one Argon2id hash made at the server's own cost (config's
  `server.password_hash`), so no login re-hashes. The login storm
  (bench_logins) measures logins themselves.

A reply is the block up to the server's IAC GA that carries the command's
answer (SIGNATURES: `look` ends with "Exits:", `balance` says "Wallet:", ...):
blocks carrying other people's lines ("X says ...", "X arrives.") are skipped.
A reply later than TIMEOUT (10 s), or never, is a timeout; a connection the
server closes is an error too. Replies are counted only up to TIMEOUT.

Reported for each server: replies, p50 and p99 of the reply time (nearest
rank, over all replies within TIMEOUT), timeouts, closed connections, memory
per connection (the server's VmRSS once all N are connected, logged in and the
server has gone quiet, minus its VmRSS before the first of them, / N; each
server first serves WARM clients, so the casino's password-hash pool is
already resident then: a fixed cost, see _warm_up),
the server's CPU seconds per second during the timed part, and the client's
send lag p99 (how late the client processes sent against the schedule: when
it is large, the clients, not the server, were short of CPU). Then the ratios
casino:bare for p99 and memory, and PASS/FAIL against issue #16's targets: no
errors, p99 <= 3x the bare server, memory per connection <= 2x; and the
portal's cost, casino:one for the CPU a command costs (every server process's
CPU over the commands sent), p99 and memory, against issue #36's targets: at
most 1.2x the CPU, 1.3x the p99 and +15% the memory of one process. Memory in
all is every server process's PSS summed (memory_kib: RSS would count the
interpreter and its libraries once in each of a portal's two processes); the
RSS sum is printed beside it.

The clients cost CPU too, and this machine has 2 cores: they are spread over
--procs client processes (default: one per 250 clients, at most 4), each an
asyncio loop of plain sockets speaking just enough telnet (every option
refused). Their CPU competes with the server's, for both servers alike. Every
process raises its open-file limit (RLIMIT_NOFILE) as far as the hard limit
allows; the output says so if that is short of N.

    python -m bench crowd                                  # N = 1000 and 5000, 30 s
    python -m bench crowd --clients 1000 --runs 3          # medians of 3 runs
    python -m bench crowd --clients 20 --seconds 2         # what CI runs
    python -m bench crowd --mix look=1                     # one command only
    python -m bench crowd --only casino --profile /tmp/p   # py-spy of the timed part
"""
from __future__ import annotations

import argparse
import asyncio
import math
import multiprocessing
import os
import random
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from bench.bench_server import wait_listening
from bench.procs import casino_pids

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT = 10.0                 # a reply later than this is a timeout
INTERVAL = 1.0                 # seconds between one client's commands
SECONDS = 30
CLIENTS = (1000, 5000)
PER_PROC = 250                 # clients per client process, by default (at most MAX_PROCS)
MAX_PROCS = 4
CONNECTING = 8                 # connections being opened and logged in at once, per process:
                               # at most 4 x 8 = 32 logins wait for a hash (the shipped hash_queue)
SETUP_SECONDS = 600            # at most this long for N clients to connect and log in
SAY = "say the dice are warm tonight"
PASSWORD = "crowdpass1"
NAME = "crowd{i}"

# The command mix, in percent of all commands, and the bytes that mark each
# command's own reply (another person's lines never carry them). Keep in step
# with the server's replies: tests/test_bench_crowd.py fails if a reply stops
# matching.
MIX = {"look": 30, "balance": 20, "table": 20, "who": 15, "say": 15}
LINES = {"look": "look", "balance": "balance", "table": "table", "who": "who", "say": SAY}
SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "look": (b"Exits:",),
    "balance": (b"Wallet:",),
    "table": (b"no table here", b"Seated:"),
    "who": (b"in the casino",),
    "say": (b'You say, "', b"too crowded and loud"),
    "login": (b"Exits:",),
    "walk": (b"Exits:",),
    "banner": (b"",),            # the first block, whatever it says
    "bare": (b"ok: ",),          # the bare server answers every line so
}
# Replies that answer the command without doing it: counted apart in the
# report ("say (declined)"), as a player hears them at once.
DECLINED = {"say": b"too crowded and loud"}
REFUSED = (b"Wrong name or password", b"Too many", b"is full", b"Slow down", b"Log in first", b"busy checking")

IAC, DONT, DO, WONT, WILL, SB, SE, GA, EOR = 255, 254, 253, 252, 251, 250, 240, 249, 239
IAC_B = bytes([IAC])


# --- processes ---------------------------------------------------------------

def raise_nofile(want: int) -> int:
    """Raise this process's open-file limit towards `want` (the hard limit at
    most); returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = want if hard == resource.RLIM_INFINITY else min(want, hard)
    if target > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        except (ValueError, OSError):
            pass
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def cpu_split(pin: bool) -> tuple[set[int] | None, set[int] | None]:
    """(the server's CPUs, the clients' CPUs): with two or more CPUs and
    `pin`, the server has the first to itself and the client processes share
    the rest, for both servers alike. Not the default: measured here, it
    favours the single-threaded bare server (its p99 at 1,000 fell from ~0.8
    to ~0.4 ms) and hurts the casino, whose ledger threads and sockets then
    share one core with its event loop (`look` alone at 1,000: p99 2.9-29 ms
    pinned, 1.1-1.7 ms unpinned, 2026-11-30). None: no pinning."""
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if not pin or len(cpus) < 2:
        return None, None
    return {cpus[0]}, set(cpus[1:])


def _server_preexec(cpus: set[int] | None) -> Any:
    def preexec() -> None:                  # in the server's process, before exec
        raise_nofile(1 << 20)
        if cpus:
            os.sched_setaffinity(0, cpus)
    return preexec


def address(g: int) -> str:
    """The loopback address client g connects from: its own, as a crowd's
    players each have theirs (Linux routes all of 127.0.0.0/8 to lo), so the
    server's per-address limits apply to the bench as shipped."""
    return f"127.1.{g // 250 % 250}.{g % 250 + 1}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def memory_kib(pid: int) -> tuple[int, int]:
    """RSS and PSS of a server, in KiB (Linux /proc smaps_rollup), a portal's and its
    game process's added up. RSS counts a page in every process that maps it (the
    interpreter, libpython, libssl: both processes of a portal map them), PSS splits
    it among them: summed, PSS is what the processes take of the machine's memory."""
    rss = pss = 0
    for one in casino_pids(pid):
        fields = dict(line.split(":", 1) for line in Path(f"/proc/{one}/smaps_rollup").read_text().splitlines()
                      if line[:4] in ("Rss:", "Pss:"))
        if "Rss" not in fields or "Pss" not in fields:
            raise RuntimeError(f"no Rss/Pss for {one}")
        rss += int(fields["Rss"].split()[0])
        pss += int(fields["Pss"].split()[0])
    return rss, pss


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a server so far (a portal's and its game process's)."""
    return sum(cpu_seconds_each(pid).values())


def cpu_seconds_each(pid: int) -> dict[int, float]:
    """User plus system CPU time so far of each of a server's processes (the portal is `pid`)."""
    out = {}
    for one in casino_pids(pid):
        fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        out[one] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return out


def settle(pid: int, busy: float = 0.2, window: float = 0.5, most: float = 120.0) -> float:
    """Wait until the process uses less than `busy` of a core over `window`
    seconds (at most `most` seconds); returns the seconds waited."""
    start = time.monotonic()
    while time.monotonic() - start < most:
        before = cpu_seconds(pid)
        time.sleep(window)
        if cpu_seconds(pid) - before < busy * window:
            break
    return time.monotonic() - start


class Server:
    """A server in its own process on 127.0.0.1; always stopped by `stop()`
    (SIGTERM, then SIGKILL), its stderr kept for a failure message."""

    def __init__(self, kind: str, args: list[str], tmp: Path, cpus: set[int] | None = None) -> None:
        self.kind = kind
        self.port = free_port()
        self.log = tmp / f"{kind}-{self.port}.log"
        argv = ([sys.executable, *args, str(self.port)] if args[0] == "-c"
                else [sys.executable, *args, "--port", str(self.port)])
        with open(self.log, "wb") as err:
            self.proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=err,
                                         preexec_fn=_server_preexec(cpus))
        try:
            wait_listening(self.port, self.proc, 60, self.tail)
        except BaseException:
            self.stop()
            raise

    @property
    def pid(self) -> int:
        return self.proc.pid

    def tail(self, n: int = 20) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-n:])
        except OSError:
            return ""

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def bare_server(tmp: Path, cpus: set[int] | None = None) -> Server:
    from bench.bench_server import BASELINE
    return Server("bare", ["-c", BASELINE], tmp, cpus)


def casino_server(tmp: Path, db: Path, config: Path, cpus: set[int] | None = None,
                  one_process: bool = False) -> Server:
    """The casino as `casino serve` runs it (a portal and its game process), or
    with `one_process` as one process with no portal."""
    return Server("one" if one_process else "casino",
                  ["-m", "server", "--data", str(db), "--config", str(config),
                   "--rooms", str(ROOT / "rooms"), "--web-port", "0", "--pid-file", str(tmp / "casino.pid"),
                   *(["--one-process"] if one_process else [])], tmp, cpus)


KINDS = ("bare", "casino", "one")      # the servers a run loads, in this order (then rotated)


def casino_config(tmp: Path, clients: int, extra: dict[str, int] | None = None) -> Path:
    """The shipped config with the limits a crowd of `clients` needs raised:
    the casino's size, how long a client may take to log in (setting up 5,000
    takes minutes) and the command rate (pipelined lines after a stall arrive
    in bursts). Each client has its own address (`address`), so the
    per-address limits stay as shipped."""
    config = tmp / "config"
    if config.exists():
        shutil.rmtree(config)
    shutil.copytree(ROOT / "config", config)
    path = config / "server.yaml"
    data = yaml.safe_load(path.read_text())
    limits = data.setdefault("server", {}).setdefault("limits", {}) or {}
    data["server"]["limits"] = limits
    limits.update({"max_connections": max(1000, clients + 100),
                   "max_login_connections": max(200, clients + 100),
                   "commands_per_second": 1000,
                   "login_timeout": 3600})
    limits.update(extra or {})
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return config


def shipped_hash(password: str) -> str:
    """`password` hashed as the shipped config says new hashes are made."""
    import argon2

    from server.config.load import load_config
    cost = load_config(ROOT / "config", ROOT / "rooms").settings.password_hash
    return argon2.PasswordHasher(time_cost=cost.time_cost, memory_cost=cost.memory_kib,
                                 parallelism=cost.parallelism).hash(password)


def make_accounts(db: Path, n: int, *, name: str = NAME, password: str = PASSWORD,
                  pwhash: str | None = None, chips: int = 1000) -> None:
    """`n` accounts name.format(i=0..n-1) with starting chips, in the server's file.

    Without `pwhash`, one Argon2id hash made at the shipped config's cost is
    shared by all: each login verifies it at the real cost (about 20 ms here)
    and none re-hashes it.
    """
    from server.accounts.store import AccountStore
    from server.ledger import Ledger

    if pwhash is None:
        pwhash = shipped_hash(password)

    async def go() -> None:
        ledger = await Ledger.open(db)
        store = AccountStore(db)
        try:
            gate = asyncio.Semaphore(64)

            async def one(i: int) -> None:
                async with gate:
                    who = name.format(i=i)
                    await store.create(who, pwhash)
                    await ledger.mint(f"start:{who.lower()}", who.lower(), chips, "starting chips")
            await asyncio.gather(*(one(i) for i in range(n)))
        finally:
            store.close()
            await ledger.close()
    asyncio.run(go())


# --- the client side ---------------------------------------------------------

class Refused(Exception):
    """The server answered a setup line with a refusal (wrong password, throttled...)."""


@dataclass
class Waiting:
    """A line sent and not yet answered."""
    name: str
    sent: float
    ok: tuple[bytes, ...]
    future: asyncio.Future | None = None


class Client(asyncio.Protocol):
    """One telnet connection: refuses every option, splits the stream into
    blocks at IAC GA (or EOR), and matches its lines' replies in order.

    A Protocol, not a StreamReader and a task: each chunk is parsed in
    data_received, with no task switch per read. The client processes share
    a core with thousands of these, and when a crowded room speaks every one
    of them receives a line at once: the less each costs, the less the
    clients' own backlog shows up in the reply times measured."""

    def __init__(self, done: list[tuple[str, float]]) -> None:
        self.done = done                      # (command, seconds) of every reply, shared
        self.waiting: deque[Waiting] = deque()
        self.block = bytearray()
        self.tail = b""
        self.closed = False
        self.w: asyncio.Transport | None = None
        self.early: bytes | None = None       # a block that came before anything waited (the banner)

    @classmethod
    async def open(cls, port: int, done: list[tuple[str, float]], source: str | None = None) -> "Client":
        """`source`: connect from this loopback address (see `address`)."""
        _, client = await asyncio.get_running_loop().create_connection(
            lambda: cls(done), "127.0.0.1", port, local_addr=(source, 0) if source else None)
        return client

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.w = transport          # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self._feed(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        for w in self.waiting:
            if w.future is not None and not w.future.done():
                w.future.set_exception(ConnectionError("closed by the server"))

    def _feed(self, chunk: bytes) -> None:
        buf = self.tail + chunk if self.tail else chunk
        self.tail = b""
        i, n = 0, len(buf)
        while i < n:
            j = buf.find(IAC_B, i)
            if j < 0:
                self.block += buf[i:] if i else buf
                return
            self.block += buf[i:j]
            if j + 1 >= n:
                self.tail = buf[j:]
                return
            cmd = buf[j + 1]
            if cmd in (GA, EOR):
                self._end_block()
                i = j + 2
            elif cmd in (DO, DONT, WILL, WONT):
                if j + 2 >= n:
                    self.tail = buf[j:]
                    return
                if cmd in (DO, WILL):
                    self.w.write(bytes([IAC, WONT if cmd == DO else DONT, buf[j + 2]]))
                i = j + 3
            elif cmd == SB:
                k = buf.find(bytes([IAC, SE]), j + 2)
                if k < 0:
                    self.tail = buf[j:]
                    return
                i = k + 2
            elif cmd == IAC:
                self.block.append(IAC)
                i = j + 2
            else:
                i = j + 2

    def _end_block(self) -> None:
        now = time.monotonic()
        block, self.block = self.block, bytearray()
        if not self.waiting:
            self.early = bytes(block)
            return
        head = self.waiting[0]
        if head.future is not None and any(bad in block for bad in REFUSED):
            self.waiting.popleft()
            if not head.future.done():
                head.future.set_exception(Refused(bytes(block[:200]).decode(errors="replace")))
            return
        if any(sig in block for sig in head.ok):
            self.waiting.popleft()
            if head.future is not None:
                if not head.future.done():
                    head.future.set_result(now - head.sent)
            else:
                declined = DECLINED.get(head.name)
                name = f"{head.name} (declined)" if declined and declined in block else head.name
                self.done.append((name, now - head.sent))

    def send(self, name: str, line: str, ok: tuple[bytes, ...]) -> None:
        """Send a line whose reply is timed into `done`."""
        self.waiting.append(Waiting(name, time.monotonic(), ok))
        self.w.write(line.encode() + b"\r\n")

    async def ask(self, line: str | None, ok: tuple[bytes, ...], timeout: float) -> float:
        """Send a line (None: send nothing, await the next block) and wait for its reply."""
        if self.closed:
            raise ConnectionError("closed by the server")
        early, self.early = self.early, None
        if line is None and early is not None and any(sig in early for sig in ok):
            return 0.0                          # it came before we asked for it
        fut = asyncio.get_running_loop().create_future()
        self.waiting.append(Waiting("setup", time.monotonic(), ok, fut))
        if line is not None:
            self.w.write(line.encode() + b"\r\n")
        return await asyncio.wait_for(fut, timeout)

    def close(self) -> None:
        if self.w is not None:
            self.w.close()


def plan(n_total: int, g: int, count: int, mix: dict[str, int]) -> list[str]:
    """Client g's commands, drawn from the mix (the same for every server)."""
    rng = random.Random(n_total * 1_000_003 + g)
    names = list(mix)
    return rng.choices(names, weights=[mix[k] for k in names], k=count)


@dataclass
class Spec:
    """What every client process does; plain data, sent to spawned processes."""
    kind: str                     # "bare" or "casino"
    port: int
    n_total: int
    seconds: float
    mix: dict[str, int]
    at_table: float
    interval: float = INTERVAL
    timeout: float = TIMEOUT
    cpus: tuple[int, ...] = ()    # the client processes' CPUs (empty: wherever the kernel likes)


def walks_north(spec: Spec, g: int) -> bool:
    """Whether client g stands in the bank craps room (spread evenly over g)."""
    return spec.kind == "casino" and math.floor((g + 1) * spec.at_table) > math.floor(g * spec.at_table)


async def _client_side(spec: Spec, indices: range, pipe: Any) -> None:
    loop = asyncio.get_running_loop()
    done: list[tuple[str, float]] = []
    clients: dict[int, Client] = {}
    setup_errors: dict[str, int] = {}
    gate = asyncio.Semaphore(CONNECTING)

    async def setup(g: int) -> None:
        async with gate:
            c: Client | None = None
            try:
                c = await asyncio.wait_for(Client.open(spec.port, done, address(g)), 60)
                await c.ask(None, SIGNATURES["banner"], 60)
                if spec.kind == "casino":
                    await c.ask(f"connect {NAME.format(i=g)} {PASSWORD}", SIGNATURES["login"], 120)
                    if walks_north(spec, g):
                        await c.ask("north", SIGNATURES["walk"], 60)
                clients[g] = c
            except (OSError, ConnectionError, asyncio.TimeoutError, Refused) as err:
                what = type(err).__name__
                setup_errors[what] = setup_errors.get(what, 0) + 1
                if c is not None:
                    c.close()

    started = time.monotonic()
    await asyncio.gather(*(setup(g) for g in indices))
    pipe.send(("ready", len(clients), setup_errors, time.monotonic() - started))
    # Keep reading the sockets (others' arrivals) while waiting for the start.
    message = await loop.run_in_executor(None, pipe.recv)
    if message[0] != "go":
        for c in clients.values():
            c.close()
        return
    t0: float = message[1]
    lags: list[float] = []
    sent: dict[str, int] = {}
    last_send = t0

    async def run(g: int, c: Client) -> None:
        nonlocal last_send
        offset = spec.interval * g / spec.n_total
        count = max(0, math.ceil((spec.seconds - offset) / spec.interval))
        for k, name in enumerate(plan(spec.n_total, g, count, spec.mix)):
            at = t0 + offset + k * spec.interval
            delay = at - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            if c.closed:
                return
            lags.append(time.monotonic() - at)
            if spec.kind == "bare":
                c.send(name, LINES[name], SIGNATURES["bare"])
            else:
                c.send(name, LINES[name], SIGNATURES[name])
            sent[name] = sent.get(name, 0) + 1
            last_send = max(last_send, time.monotonic())

    await asyncio.gather(*(run(g, c) for g, c in clients.items()))
    # Wait for the last replies, up to TIMEOUT after the last line was sent.
    while any(c.waiting and not c.closed for c in clients.values()) and \
            time.monotonic() < last_send + spec.timeout:
        await asyncio.sleep(0.05)
    unanswered: dict[str, int] = {}
    for c in clients.values():
        for w in c.waiting:
            unanswered[w.name] = unanswered.get(w.name, 0) + 1
    closed_during = sum(1 for c in clients.values() if c.closed)
    by_name: dict[str, list[float]] = {}
    for name, seconds in done:
        by_name.setdefault(name, []).append(seconds)
    pipe.send(("done", {"replies": by_name, "sent": sent, "unanswered": unanswered,
                        "closed": closed_during, "lags": lags}))
    # Stay connected until every process is done: a quarter of the crowd
    # hanging up while the others are still timed would time its departure
    # (1,250 at once at 5,000) in their last replies.
    await loop.run_in_executor(None, pipe.recv)
    for c in clients.values():
        c.close()


def _client_process(spec: Spec, start: int, stop: int, pipe: Any) -> None:
    """Entry point of one client process (spawned)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # the parent stops us
    raise_nofile(stop - start + 64)
    if spec.cpus:
        os.sched_setaffinity(0, spec.cpus)
    try:
        asyncio.run(_client_side(spec, range(start, stop), pipe))
    except (EOFError, BrokenPipeError):
        pass
    finally:
        pipe.close()


# --- the parent: one server under load ---------------------------------------

@dataclass
class Result:
    kind: str
    clients: int                       # connected and logged in
    setup_errors: dict[str, int]
    setup_seconds: float
    settle_seconds: float
    kib_per_conn: float
    cpu_per_second: float
    sent: dict[str, int]
    replies: dict[str, list[float]]
    unanswered: dict[str, int]
    closed: int
    lags: list[float] = field(default_factory=list)
    rss_mib: float = math.nan          # every server process's RSS with all N logged in
    pss_mib: float = math.nan          # and their PSS (memory_kib)
    portal_share: float | None = None  # the portal's CPU over its game process's (two processes only)

    def all_replies(self) -> list[float]:
        return [s for v in self.replies.values() for s in v]

    def within(self) -> list[float]:
        return [s for s in self.all_replies() if s <= TIMEOUT]

    @property
    def timeouts(self) -> int:
        late = sum(1 for s in self.all_replies() if s > TIMEOUT)
        return late + sum(self.unanswered.values())

    @property
    def errors(self) -> int:
        return self.timeouts + self.closed + sum(self.setup_errors.values())

    def p(self, q: float, samples: list[float] | None = None) -> float:
        return quantile(self.within() if samples is None else samples, q) * 1000


def quantile(samples: list[float], q: float) -> float:
    """Nearest rank; NaN for no samples."""
    if not samples:
        return math.nan
    s = sorted(samples)
    return s[max(0, math.ceil(q * len(s)) - 1)]


def _recv(pipe: Any, proc: Any, seconds: float) -> Any:
    deadline = time.monotonic() + seconds
    while not pipe.poll(0.2):
        if not proc.is_alive() or time.monotonic() > deadline:
            raise RuntimeError(f"a client process {'died' if not proc.is_alive() else 'timed out'}")
    return pipe.recv()


WARM = 4                       # connections (logins at the casino) made before the memory baseline
WARM_NAME = "warm{i}"


async def _warm_up(spec: Spec) -> None:
    """WARM clients at once, each logged in (casino) or answered (bare), then gone.

    The casino's first logins leave its password-hash pool's memory resident
    (glibc keeps each hashing thread's Argon2 buffer, `memory_kib`, for the next
    hash: at most `hash_concurrency` of them, 38 MiB as shipped), a fixed cost
    that is not any connection's. Both servers are warmed alike before their
    memory baseline is read, so memory per connection is what each one more
    connection costs."""
    done: list[tuple[str, float]] = []
    clients: list[Client] = []

    async def one(i: int) -> None:
        c = await Client.open(spec.port, done)
        clients.append(c)
        await c.ask(None, SIGNATURES["banner"], 60)     # asked at once: the banner is the next block
        if spec.kind == "casino":
            await c.ask(f"connect {WARM_NAME.format(i=i)} {PASSWORD}", SIGNATURES["login"], 120)
        else:
            await c.ask("hello", SIGNATURES["bare"], 60)
    try:
        await asyncio.gather(*(one(i) for i in range(WARM)))
    finally:
        for c in clients:
            c.close()


def profile(server: Server, seconds: float, out: Path) -> subprocess.Popen | None:
    """py-spy recording `server` for `seconds` into `out` (raw, collapsed stacks:
    one line per stack and its count), if py-spy is installed; it is not one of
    the project's dependencies (`pip install py-spy` into the venv)."""
    spy = shutil.which("py-spy") or shutil.which("py-spy", path=str(Path(sys.executable).parent))
    if spy is None:
        print("--profile: py-spy is not installed; no profile taken", file=sys.stderr)
        return None
    return subprocess.Popen([spy, "record", "-p", str(server.pid), "-d", str(max(1, int(seconds))),
                             "-r", "200", "-f", "raw", "-o", str(out), "--nonblocking"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def load(server: Server, n: int, spec: Spec, procs: int, profile_to: Path | None = None,
         phase: Callable[[str], None] | None = None) -> Result:
    """Connect n clients over `procs` processes, then the timed part (recorded
    by py-spy into `profile_to`, when given). `phase("timed")` is called just
    before the timed part and `phase("done")` just after it (bench_metrics
    scrapes there)."""
    ctx = multiprocessing.get_context("spawn")
    asyncio.run(_warm_up(spec))
    settle(server.pid)
    rss0 = memory_kib(server.pid)[0]
    bounds = [n * i // procs for i in range(procs + 1)]
    workers, pipes = [], []
    try:
        for a, b in zip(bounds, bounds[1:]):
            mine, theirs = ctx.Pipe()
            p = ctx.Process(target=_client_process, args=(spec, a, b, theirs), daemon=True)
            p.start()
            theirs.close()
            workers.append(p)
            pipes.append(mine)
        ready = [_recv(pipe, p, SETUP_SECONDS) for pipe, p in zip(pipes, workers)]
        connected = sum(r[1] for r in ready)
        setup_errors: dict[str, int] = {}
        for r in ready:
            for k, v in r[2].items():
                setup_errors[k] = setup_errors.get(k, 0) + v
        waited = settle(server.pid)
        rss1, pss1 = memory_kib(server.pid)
        if phase is not None:
            phase("timed")
        cpu0 = cpu_seconds_each(server.pid)
        t0 = time.monotonic() + 1.0
        for pipe in pipes:
            pipe.send(("go", t0))
        spy = None
        if profile_to is not None:
            time.sleep(max(0.0, t0 + 1.0 - time.monotonic()))
            spy = profile(server, spec.seconds - 2.0, profile_to)
        done = [_recv(pipe, p, spec.seconds + spec.timeout + 120) for pipe, p in zip(pipes, workers)]
        cpu1 = cpu_seconds_each(server.pid)
        elapsed = time.monotonic() - t0
        if phase is not None:
            phase("done")
        if spy is not None:
            spy.wait()
    finally:
        for pipe in pipes:
            try:
                pipe.send(("stop",))
            except (OSError, BrokenPipeError):
                pass
        for p in workers:
            p.join(10)
            if p.is_alive():
                p.terminate()
                p.join(5)
            if p.is_alive():
                p.kill()
                p.join()
        for pipe in pipes:
            pipe.close()
    replies: dict[str, list[float]] = {}
    sent: dict[str, int] = {}
    unanswered: dict[str, int] = {}
    lags: list[float] = []
    for _, d in done:
        for k, v in d["replies"].items():
            replies.setdefault(k, []).extend(v)
        for k, v in d["sent"].items():
            sent[k] = sent.get(k, 0) + v
        for k, v in d["unanswered"].items():
            unanswered[k] = unanswered.get(k, 0) + v
        lags.extend(d["lags"])
    spent = {one: cpu1[one] - cpu0.get(one, 0.0) for one in cpu1}
    others = sum(s for one, s in spent.items() if one != server.pid)
    return Result(spec.kind, connected, setup_errors, max(r[3] for r in ready), waited,
                  (rss1 - rss0) / max(1, connected), sum(spent.values()) / elapsed, sent, replies,
                  unanswered, sum(d["closed"] for _, d in done), lags, rss1 / 1024, pss1 / 1024,
                  spent.get(server.pid, 0.0) / others if others else None)


def run_size(tmp: Path, db: Path, n: int, seconds: float, mix: dict[str, int], at_table: float,
             procs: int, extra: dict[str, int], order: tuple[str, ...] = KINDS,
             pin: bool = False, profile_dir: Path | None = None) -> dict[str, Result]:
    """One run at one size: each server fresh, the same load, one after the other."""
    config = casino_config(tmp, n, extra)
    server_cpus, client_cpus = cpu_split(pin)
    out: dict[str, Result] = {}
    for kind in order:
        server = (bare_server(tmp, server_cpus) if kind == "bare"
                  else casino_server(tmp, db, config, server_cpus, one_process=kind == "one"))
        try:
            plays = "bare" if kind == "bare" else "casino"      # what the clients speak to
            spec = Spec(plays, server.port, n, seconds, mix, at_table, cpus=tuple(sorted(client_cpus or ())))
            out[kind] = load(server, n, spec, procs,
                             profile_dir / f"{kind}-{n}.raw" if profile_dir is not None else None)
        except BaseException:
            print(f"[{kind} server log]\n{server.tail()}", file=sys.stderr)
            raise
        finally:
            server.stop()
    return out


# --- reporting -----------------------------------------------------------------

def _mix_text(mix: dict[str, int]) -> str:
    total = sum(mix.values())
    return ", ".join(f"{LINES[k]!r} {100 * v / total:.0f}%" for k, v in mix.items())


def row(label: str, r: Result) -> str:
    return (f"{label:<22}{r.clients:>8}{sum(r.sent.values()):>8}{len(r.within()):>8}"
            f"{r.p(0.5):>9.2f}{r.p(0.99):>10.2f}{r.timeouts:>9}{r.closed + sum(r.setup_errors.values()):>8}"
            f"{r.kib_per_conn:>10.1f}{r.cpu_per_second:>8.2f}{quantile(r.lags, 0.99) * 1000:>10.1f}")


HEADER = (f"{'server':<22}{'clients':>8}{'sent':>8}{'replies':>8}{'p50 ms':>9}{'p99 ms':>10}"
          f"{'timeouts':>9}{'closed':>8}{'KiB/conn':>10}{'cpu/s':>8}{'lag p99':>10}")


def report(n: int, runs: list[dict[str, Result]], seconds: float, mix: dict[str, int],
           at_table: float, procs: int, nofile: int) -> dict[str, Any]:
    """Print one size's runs and the medians of runs; returns the medians and verdicts."""
    print(f"\n-- {n} clients over {procs} client process{'es' if procs > 1 else ''}, one command a second "
          f"each for {seconds:g} s (staggered: {n} commands/s), {len(runs)} run{'s' if len(runs) > 1 else ''}")
    print(f"mix: {_mix_text(mix)}; {at_table:.0%} of the casino's clients stand in the bank craps room, "
          "the rest in the lobby")
    if nofile < n + 64:
        print(f"WARNING: open files limited to {nofile} (hard limit): fewer than {n} connections can open")
    print(HEADER)
    for i, run in enumerate(runs, 1):
        for kind in KINDS:
            if kind in run:
                print(row(f"{kind} (run {i})", run[kind]))
    casino = [run["casino"] for run in runs if "casino" in run]
    bare = [run["bare"] for run in runs if "bare" in run]
    for r in casino:
        if r.setup_errors:
            print(f"  casino setup errors: {r.setup_errors}")
    med = lambda xs: statistics.median(xs) if xs else math.nan  # noqa: E731
    m = {
        "bare_p50": med([r.p(0.5) for r in bare]), "bare_p99": med([r.p(0.99) for r in bare]),
        "casino_p50": med([r.p(0.5) for r in casino]), "casino_p99": med([r.p(0.99) for r in casino]),
        "bare_kib": med([r.kib_per_conn for r in bare]), "casino_kib": med([r.kib_per_conn for r in casino]),
        "bare_errors": max((r.errors for r in bare), default=0),
        "casino_errors": max((r.errors for r in casino), default=0),
    }
    print("casino by command (run 1): " + "; ".join(
        f"{k} {casino[0].p(0.5, [s for s in v if s <= TIMEOUT]):.1f}/"
        f"{casino[0].p(0.99, [s for s in v if s <= TIMEOUT]):.1f} ms"
        + (f" ({casino[0].unanswered.get(k, 0) + sum(1 for s in v if s > TIMEOUT)} timeouts)"
           if casino[0].unanswered.get(k) or any(s > TIMEOUT for s in v) else "")
        for k, v in sorted(casino[0].replies.items())) if casino else "")
    if casino and bare:
        print(f"connecting (and, at the casino, logging in) {n} clients took {casino[0].setup_seconds:.1f} s "
              f"at the casino, {bare[0].setup_seconds:.1f} s at the bare server (run 1, untimed)")
    if bare and casino:
        p99x, memx = m["casino_p99"] / m["bare_p99"], m["casino_kib"] / m["bare_kib"]
        m.update(p99x=p99x, memx=memx)
        print(f"medians of runs: p50 {m['casino_p50']:.2f} vs {m['bare_p50']:.2f} ms, "
              f"p99 {m['casino_p99']:.2f} vs {m['bare_p99']:.2f} ms, "
              f"memory {m['casino_kib']:.1f} vs {m['bare_kib']:.1f} KiB/conn")
        print(f"ratio casino : bare = {p99x:.1f}x p99, {memx:.1f}x memory per connection")
        verdicts = {
            "no errors": m["casino_errors"] == 0,
            "p99 <= 3x bare": p99x <= 3.0,
            "memory/conn <= 2x bare": memx <= 2.0,
        }
        m["verdicts"] = verdicts
        print("targets (issue #16): " + "; ".join(f"{k} {'PASS' if ok else 'FAIL'}"
                                                  for k, ok in verdicts.items())
              + (f" (casino errors {m['casino_errors']})" if m["casino_errors"] else ""))
        if m["bare_errors"]:
            print(f"note: the bare server had {m['bare_errors']} errors too: the machine, not the casino")
    one = [run["one"] for run in runs if "one" in run]
    if casino and one:
        m.update(portal_cost(n, casino, one))
    return m


def cpu_ms_per_command(r: Result) -> float:
    """Every server process's CPU a command, in ms: its CPU a second over the
    commands a second (each client sends one a second, on a fixed schedule)."""
    return r.cpu_per_second / r.clients * 1000 if r.clients else math.nan


def portal_cost(n: int, casino: list[Result], one: list[Result]) -> dict[str, Any]:
    """What the portal's hop costs, casino (portal + game) against one process,
    medians of runs; printed with issue #36's targets."""
    med = statistics.median
    cpu_c, cpu_o = med([cpu_ms_per_command(r) for r in casino]), med([cpu_ms_per_command(r) for r in one])
    p99_c, p99_o = med([r.p(0.99) for r in casino]), med([r.p(0.99) for r in one])
    kib_c, kib_o = med([r.kib_per_conn for r in casino]), med([r.kib_per_conn for r in one])
    rss_c, rss_o = med([r.rss_mib for r in casino]), med([r.rss_mib for r in one])
    pss_c, pss_o = med([r.pss_mib for r in casino]), med([r.pss_mib for r in one])
    shares = [r.portal_share for r in casino if r.portal_share is not None]
    share = med(shares) if shares else math.nan
    out = {"cpu_ms_casino": cpu_c, "cpu_ms_one": cpu_o, "one_p99": p99_o, "one_kib": kib_o,
           "cpux": cpu_c / cpu_o, "portal_p99x": p99_c / p99_o, "portal_memx": kib_c / kib_o,
           "rssx": rss_c / rss_o, "pssx": pss_c / pss_o, "portal_share": share}
    print(f"portal : one process = {out['cpux']:.2f}x CPU a command ({cpu_c:.3f} vs {cpu_o:.3f} ms; "
          f"the portal's own CPU {share:.2f} of the game process's), "
          f"{out['portal_p99x']:.2f}x p99 ({p99_c:.2f} vs {p99_o:.2f} ms), "
          f"{out['portal_memx']:.2f}x memory per connection ({kib_c:.1f} vs {kib_o:.1f} KiB), "
          f"{out['pssx']:.2f}x memory in all ({pss_c:.0f} vs {pss_o:.0f} MiB PSS, every process; "
          f"RSS {out['rssx']:.2f}x, {rss_c:.0f} vs {rss_o:.0f} MiB, counts a shared page in each)")
    verdicts = {"CPU <= 1.2x one process": out["cpux"] <= 1.2, "portal <= 1/4 of the game": share <= 0.25,
                "p99 <= 1.3x": out["portal_p99x"] <= 1.3,
                "memory <= +15% (a connection, and in all)": out["portal_memx"] <= 1.15 and out["pssx"] <= 1.15}
    out["portal_verdicts"] = verdicts
    print(f"targets (issue #36, {n} clients): "
          + "; ".join(f"{k} {'PASS' if ok else 'FAIL'}" for k, ok in verdicts.items()))
    return out


def parse_mix(text: str) -> dict[str, int]:
    mix = {}
    for part in text.split(","):
        name, _, weight = part.partition("=")
        if name not in LINES:
            raise SystemExit(f"--mix: unknown command {name!r}; choose from {', '.join(LINES)}")
        mix[name] = int(weight or 1)
    return mix


def parse_set(items: list[str]) -> dict[str, int]:
    out = {}
    for item in items:
        key, _, value = item.partition("=")
        out[key.removeprefix("limits.")] = int(value)
    return out


def default_procs(n: int) -> int:
    return max(1, min(MAX_PROCS, n // PER_PROC))


def main(argv: list[str] | None = None) -> dict[int, dict[str, Any]]:
    parser = argparse.ArgumentParser(prog="python -m bench crowd", description=__doc__.split("\n")[0])
    parser.add_argument("--clients", default=",".join(map(str, CLIENTS)),
                        help="comma-separated sizes (default 1000,5000)")
    parser.add_argument("--seconds", type=float, default=SECONDS, help="timed seconds (default 30)")
    parser.add_argument("--runs", type=int, default=1, help="runs per size; medians of runs are reported")
    parser.add_argument("--procs", type=int, default=None, help="client processes (default n/250, 1-4)")
    parser.add_argument("--mix", default=None, help="e.g. look=30,who=15 (default: MIX)")
    parser.add_argument("--at-table", type=float, default=0.1,
                        help="share of the casino's clients in the bank craps room (default 0.1)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="another server.limits value for the casino, e.g. --set login_timeout=600")
    parser.add_argument("--only", choices=KINDS, default=None,
                        help="one server only (casino: portal + game process; one: --one-process)")
    parser.add_argument("--pin", action="store_true",
                        help="the server alone on the first CPU, the clients on the others "
                             "(default: the kernel places them; see cpu_split)")
    parser.add_argument("--profile", type=Path, default=None, metavar="DIR",
                        help="record each server's timed part with py-spy into DIR/<server>-<N>.raw")
    args = parser.parse_args(argv or [])
    if args.profile is not None:
        args.profile.mkdir(parents=True, exist_ok=True)
    sizes = [int(x) for x in args.clients.split(",") if x]
    mix = parse_mix(args.mix) if args.mix else dict(MIX)
    extra = parse_set(args.set)
    nofile = raise_nofile(max(sizes) + 256)
    results: dict[int, dict[str, Any]] = {}
    server_cpus, client_cpus = cpu_split(args.pin)
    print(f"each server on CPU {sorted(server_cpus)}, the client processes on CPUs {sorted(client_cpus)}"
          if server_cpus else "no CPU pinning: the kernel places the servers and the clients")
    with tempfile.TemporaryDirectory(prefix="bench-crowd-") as tmp_name:
        tmp = Path(tmp_name)
        db = tmp / "casino.db"
        make_accounts(db, max(sizes))
        make_accounts(db, WARM, name=WARM_NAME)
        for n in sizes:
            procs = args.procs or default_procs(n)
            runs = []
            for i in range(args.runs):
                order = KINDS[i % len(KINDS):] + KINDS[:i % len(KINDS)]     # each first in turn
                if args.only:
                    order = (args.only,)
                runs.append(run_size(tmp, db, n, args.seconds, mix, args.at_table, procs, extra, order,
                                     pin=args.pin, profile_dir=args.profile))
            results[n] = report(n, runs, args.seconds, mix, args.at_table, procs, nofile)
            results[n]["runs"] = runs
    return results


if __name__ == "__main__":
    main(sys.argv[1:])

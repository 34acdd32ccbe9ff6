"""A hostile soak (issue 27): honest players play every game while 50
addresses attack at once.

Used by `make bench` (bench_hostile_soak, 60 s of attacks) and by
tests/e2e/test_hostile_soak.py (a short one, without the latency target).

The server is the real process (`python -m server`) on free telnet and web
ports with the shipped limits, except what HONEST_LIMITS raises so that the
honest players, all on 127.0.0.1, fit (said in the output). Their accounts
are made before the server starts (so accounts_per_ip_per_hour stays
shipped) and they log in at most LOGINS_AT_ONCE at a time (so
login_connections_per_ip and hashes_per_ip stay shipped too).

1. Baseline: the honest players (real telnet clients, a few over the
   WebSocket) walk to their games and play in a loop, a few commands a
   game then `look`, timed from the line sent to the prompt after the
   `Exits:` line, at most one command each 0.1 s (never told to slow
   down). Now and then one quits (live bets follow the game's disconnect
   rule) and logs in again, or walks out and back.
2. Attack: the same play goes on while a second process (this module's
   `attack`, niced: see ATTACKER_NICE) attacks from 127.0.0.2-51, one kind
   per address: line floods (junk lines at the login prompt, as fast as
   the server reads), tiny WebSocket frames, negotiation toggles, silent
   login slots (7 tried per address, 5 held), slow HTTP (slowloris), bad
   charsets and GMCP junk, reconnecting whatever is closed, until its time
   is up.
3. Wind-down: each honest player stops betting, plays out what it has at
   stake (rolls, spins, holds) until `balance` shows nothing held, leaves
   its table and reads its wallet from `balance`: what it saw settled.
4. SIGTERM (its exit code), then `casino ledger check --json` and each
   honest wallet in the ledger against what its player read and against
   the sum of its own statement.

The server's RSS and open file descriptors are sampled all along: the portal's and the
game process's added up (the connections are the portal's, the ledger the game's).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import resource
import signal
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.bench_server import wait_listening
from bench.procs import casino_pids
from bench.soak import GameTable, free_port, game_tables, soak_config, wallets_and_statements

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "honestpass1"
STARTING = 1000
# The attackers' own process runs at the lowest priority: on this machine
# (2 cores, shared) their CPU would otherwise be taken from the server and the
# honest clients, which a real attacker elsewhere does not do.
ATTACKER_NICE = 19
LOGINS_AT_ONCE = 2            # well below login_connections_per_ip (5): a closed login can count a moment longer
ADDRESSES = [f"127.0.0.{i}" for i in range(2, 52)]
KINDS = ("line_flood", "tiny_frames", "toggles", "silent_slots", "slow_http", "bad_charset", "gmcp_junk")
IAC, DONT, DO, WONT, WILL, SB, SE, GA, EOR = 255, 254, 253, 252, 251, 250, 240, 249, 239
NAWS, GMCP, CHARSET, NEW_ENVIRON, TTYPE, ECHO = 31, 201, 42, 39, 24, 1
CORE = ("Bank craps", "Crapless craps", "Simplified craps", "Alley craps", "Pig", "Single-zero roulette")
NAWS_SIZE = bytes([IAC, SB, NAWS, 0, 100, 3, 232, IAC, SE])     # 100 columns, 1000 rows: unpaged
REFUSED = ("Too many", "try again", "is busy", "is full")

# What an honest player types at each game (a few commands, looping). Every
# craps variant shares one list; a refusal (a bet a table lacks) is play too.
PLAY = {
    "Bank craps": ["bet pass 5", "bet field 2", "roll", "bets", "bet place 6 6", "roll", "table"],
    "Simplified craps": ["bet pass 5", "roll", "roll", "table"],
    "Alley craps": ["start", "bet 10", "fade 10", "roll", "pass", "table"],
    "Pig": ["start", "roll", "hold", "ready", "table"],
    "Single-zero roulette": ["bet red 5", "bet 17 5", "spin", "bets", "table"],
}
VARIANT_PLAY = ["bet pass 5", "roll", "bets", "bet field 5", "roll", "table"]
# Commands that only settle what is at stake (no new bets): the wind-down.
SETTLE = ["roll", "spin", "hold", "pass", "ready", "roll"]
SETTLE_SECONDS = 40.0


def play_words(title: str) -> list[str]:
    return PLAY.get(title, VARIANT_PLAY)


# --- honest clients -----------------------------------------------------------

class Closed(Exception):
    pass


class Paged(Exception):
    """A reply came paged (a more prompt): the client's NAWS height was not used."""


class Blocks:
    """Output cut into blocks at each prompt; a command waits for the block
    holding its marker (blocks that came before it was sent are dropped)."""

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.partial: list[str] = []
        self.changed = asyncio.Event()
        self.closed = False

    def text(self, s: str) -> None:
        self.partial.append(s)

    def prompt(self) -> None:
        self.blocks.append("".join(self.partial))
        self.partial = []
        self.changed.set()

    def eof(self) -> None:
        self.closed = True
        self.changed.set()

    async def wait(self, marker: str | None, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        while True:
            seen = "".join(self.blocks)
            if (marker is None and self.blocks) or (marker is not None and marker in seen):
                self.blocks.clear()
                return seen
            if self.blocks and "-- More, " in self.blocks[-1]:
                self.blocks.clear()
                raise Paged(seen)
            if self.closed:
                raise Closed(seen + "".join(self.partial))
            left = deadline - time.monotonic()
            if left <= 0:
                raise asyncio.TimeoutError(f"no {marker!r} in {seen[-300:]!r}")
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), left)
            except asyncio.TimeoutError:
                pass


async def quit_closes(c: "TelnetPlayer | WebPlayer") -> None:
    """`quit`: the server says goodbye and closes (no prompt comes); with
    live bets it asks for `quit` again (they are forfeit by the game's rule)."""
    for _ in range(3):
        try:
            await c.out.wait("'quit' again", 10.0)
        except Closed:
            return
        except (asyncio.TimeoutError, Paged):
            pass
        await c.pace()
        await c.send_line("quit")
    await c.out.wait("\0never", 10.0)           # Closed, or a timeout: the server kept it


class Paced:
    """At most one command every GAP seconds (half the shipped
    commands_per_second): an honest client is never told to slow down.
    `elapsed` is the last command's time from its line sent to its block."""
    GAP = 0.1
    last = 0.0
    elapsed = 0.0
    out: Blocks

    async def pace(self) -> None:
        wait = self.last + self.GAP - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self.last = time.monotonic()
        self.out.blocks.clear()

    paged = 0

    async def send_line(self, line: str) -> None:
        raise NotImplementedError

    async def cmd(self, line: str, marker: str | None = None, timeout: float = 15.0) -> str:
        """A line as a player types it, paced, and the block that answers it."""
        await self.pace()
        started = time.perf_counter()
        await self.send_line(line)
        return await self.answer(marker, timeout, started)

    async def answer(self, marker: str | None, timeout: float, started: float | None = None) -> str:
        started = time.perf_counter() if started is None else started
        for _ in range(50):
            try:
                out = await self.out.wait(marker, timeout)
                break
            except Paged:                 # a real player presses Enter for the rest
                self.paged += 1
                await self.send_line("")
        else:
            raise asyncio.TimeoutError("paged 50 times")
        self.elapsed = time.perf_counter() - started
        return out


class TelnetPlayer(Paced):
    """A telnet client: NAWS (tall, so nothing is paged), every other option refused."""

    def __init__(self) -> None:
        self.out = Blocks()

    async def open(self, port: int) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer.write(bytes([IAC, WILL, NAWS]) + NAWS_SIZE)
        self.task = asyncio.create_task(self._read())

    def _answer(self, cmd: int, opt: int) -> None:
        if cmd == DO and opt == NAWS:
            self.writer.write(bytes([IAC, WILL, NAWS]) + NAWS_SIZE)
        elif cmd == DO:
            self.writer.write(bytes([IAC, WONT, opt]))
        elif cmd == WILL:
            self.writer.write(bytes([IAC, DONT, opt]))

    async def _read(self) -> None:
        buf = b""
        try:
            while data := await self.reader.read(65536):
                buf += data
                text = bytearray()
                i = 0
                while i < len(buf):
                    j = buf.find(b"\xff", i)
                    if j < 0:
                        text += buf[i:]
                        i = len(buf)
                        break
                    text += buf[i:j]
                    if j + 1 >= len(buf):
                        i = j
                        break
                    cmd = buf[j + 1]
                    if cmd == IAC:
                        text.append(IAC)
                        i = j + 2
                    elif cmd in (GA, EOR):
                        self.out.text(text.decode("utf-8", "replace"))
                        text.clear()
                        self.out.prompt()
                        i = j + 2
                    elif cmd in (DO, DONT, WILL, WONT):
                        if j + 2 >= len(buf):
                            i = j
                            break
                        self._answer(cmd, buf[j + 2])
                        i = j + 3
                    elif cmd == SB:
                        end = buf.find(b"\xff\xf0", j)
                        if end < 0:
                            i = j
                            break
                        i = end + 2
                    else:
                        i = j + 2
                buf = buf[i:]
                if text:
                    self.out.text(text.decode("utf-8", "replace"))
        except (ConnectionError, OSError):
            pass
        self.out.eof()

    async def send_line(self, line: str) -> None:
        self.writer.write(line.encode() + b"\r\n")

    async def first_prompt(self) -> str:
        return await self.out.wait(None, 15.0)

    async def quit(self) -> None:
        await self.pace()
        await self.send_line("quit")
        await quit_closes(self)
        await self.close()

    async def close(self) -> None:
        self.writer.transport.abort()
        self.task.cancel()


class WebPlayer(Paced):
    """The browser page's WebSocket protocol (server/net/web.py)."""

    def __init__(self) -> None:
        self.out = Blocks()

    async def open(self, port: int) -> None:
        import aiohttp
        self.http = aiohttp.ClientSession()
        self.ws = await self.http.ws_connect(f"http://127.0.0.1:{port}/ws")
        self.task = asyncio.create_task(self._read())

    async def _read(self) -> None:
        import aiohttp
        try:
            async for msg in self.ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                data = json.loads(msg.data)
                if data.get("t") == "text":
                    self.out.text(data["d"])
                elif data.get("t") == "prompt":
                    self.out.prompt()
        except (ConnectionError, OSError):
            pass
        self.out.eof()

    async def send_line(self, line: str) -> None:
        await self.ws.send_str(json.dumps({"t": "line", "d": line}))

    async def first_prompt(self) -> str:
        return await self.out.wait(None, 15.0)

    async def quit(self) -> None:
        await self.pace()
        await self.send_line("quit")
        await quit_closes(self)
        await self.close()

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()
        self.task.cancel()


@dataclass
class Honest:
    name: str
    web: bool
    game: GameTable
    looks: dict = field(default_factory=lambda: {"baseline": [], "attack": [], "after": []})
    commands: int = 0
    logins: int = 0
    refused: list = field(default_factory=list)
    dropped: list = field(default_factory=list)
    went_wrong: int = 0
    slowed: int = 0                           # "Slow down" seen (never, at Paced.GAP)
    paged: int = 0                            # more prompts seen (never, with NAWS 1000 rows)
    seen_wallet: int | None = None            # from `balance` once nothing was held
    held_at_end: str = ""


@dataclass
class HostileReport:
    seconds: float = 0.0
    baseline_seconds: float = 0.0
    after_wait: float = 0.0
    raised: dict = field(default_factory=dict)
    players: list = field(default_factory=list)
    attack: dict = field(default_factory=dict)   # the attackers' own counts
    samples: list = field(default_factory=list)  # (t, phase, rss MiB, fds)
    stop_exit: int | None = None
    check: dict = field(default_factory=dict)
    wallets: dict = field(default_factory=dict)  # name -> (ledger wallet, sum of statement)
    log_errors: list = field(default_factory=list)
    games: tuple = ()
    core: tuple = ()
    fds_after_attack: int = 0
    fd_bound: int = 0
    rss_bound: float = 0.0

    def looks(self, phase: str) -> list[float]:
        return [s for p in self.players for s in p.looks[phase]]

    @property
    def refused(self) -> int:
        return sum(len(p.refused) for p in self.players)

    @property
    def dropped(self) -> int:
        return sum(len(p.dropped) for p in self.players)

    def phase_max(self, phase: str, index: int) -> float:
        return max((s[index] for s in self.samples if s[1] == phase), default=0.0)

    def baseline_fds(self) -> int:
        return int(self.phase_max("baseline", 3))

    def wallets_exact(self) -> bool:
        return bool(self.wallets) and all(
            p.seen_wallet is not None and self.wallets[p.name][0] == p.seen_wallet == self.wallets[p.name][1]
            for p in self.players)

    def targets(self, latency: bool = True) -> dict[str, bool]:
        attack = self.looks("attack")
        out = {
            "no honest player refused or disconnected": self.refused == 0 and self.dropped == 0,
            "every game played": bool(self.core) and (
                set(self.games) if len(self.players) >= len(self.games) else set(self.core)
            ) <= {p.game.title for p in self.players},
            "open files bounded": self.phase_max("attack", 3) <= self.fd_bound
            and self.fds_after_attack <= self.fd_bound,
            "memory bounded": self.phase_max("attack", 2) <= self.rss_bound,
            "SIGTERM exits 0": self.stop_exit == 0,
            "ledger check ok": bool(self.check.get("ok")) and self.check.get("open_holds") == 0,
            "every honest wallet exact": self.wallets_exact(),
            "nothing went wrong (no 'Something went wrong' or 'Slow down', no server errors)":
                not self.log_errors and not any(p.went_wrong or p.slowed for p in self.players),
        }
        if latency:
            out["honest look p99 <= 100 ms under attack"] = bool(attack) and p99(attack) <= 100.0
        return out


def p99(ms: list[float]) -> float:
    s = sorted(ms)
    return s[max(0, int(len(s) * 0.99) - 1)]


def make_accounts(db: Path, names: list[str]) -> None:
    code = (
        "import asyncio, sys\n"
        "from server.accounts.store import AccountStore\n"
        "from server.accounts.passwords import Argon2id\n"
        "from server.ledger import Ledger\n"
        "async def main():\n"
        "    ledger = await Ledger.open(sys.argv[1]); store = AccountStore(sys.argv[1])\n"
        f"    h = Argon2id().hash({PASSWORD!r})\n"
        "    for name in sys.argv[2:]:\n"
        "        await store.create(name, h)\n"
        f"        await ledger.mint(f'start:{{name}}', name, {STARTING}, 'starting chips')\n"
        "    store.close(); await ledger.close()\n"
        "asyncio.run(main())\n")
    subprocess.run([sys.executable, "-c", code, str(db), *names], cwd=ROOT, check=True)


class Run:
    def __init__(self, report: HostileReport, port: int, web_port: int, rng: random.Random) -> None:
        self.report, self.port, self.web_port, self.rng = report, port, web_port, rng
        self.phase = "baseline"
        self.playing = True
        self.gate = asyncio.Semaphore(LOGINS_AT_ONCE)

    async def login(self, p: Honest) -> TelnetPlayer | WebPlayer:
        async with self.gate:
            c: TelnetPlayer | WebPlayer = WebPlayer() if p.web else TelnetPlayer()
            try:
                await c.open(self.web_port if p.web else self.port)
                await c.first_prompt()
                out = await c.cmd(f"connect {p.name} {PASSWORD}", "Exits:", 30.0)
            except (Closed, asyncio.TimeoutError, ConnectionError, OSError) as e:
                p.refused.append(f"{self.phase}: {type(e).__name__} {str(e)[-200:]!r}")
                await c.close()
                raise Closed from e
            if any(r in out for r in REFUSED):
                p.refused.append(f"{self.phase}: {out[-200:]!r}")
            p.logins += 1
            return c

    async def honest(self, p: Honest) -> None:
        rng = random.Random(self.rng.random())
        words = play_words(p.game.title)
        try:
            c = await self.login(p)
        except Closed:
            return
        try:
            while self.playing:
                for step in p.game.there:
                    await c.cmd(step, "Exits:")
                await c.cmd(f"play {p.game.word}")
                for _ in range(rng.randint(10, 25)):
                    if not self.playing:
                        break
                    for _ in range(2):
                        out = await c.cmd(rng.choice(words))
                        p.commands += 1
                        p.went_wrong += out.count("Something went wrong")
                        p.slowed += out.count("Slow down")
                    phase = self.phase
                    await c.cmd("look", "Exits:")
                    p.looks[phase].append(c.elapsed * 1000)
                    await asyncio.sleep(rng.uniform(0.1, 0.3))
                if not self.playing:
                    break
                if rng.random() < 0.5:           # log out (a disconnect for the bets) and in again
                    p.paged += c.paged
                    await c.quit()
                    try:
                        c = await self.login(p)
                    except Closed:               # counted in p.refused
                        return
                else:                            # or walk out and back
                    await c.cmd("leave")
                    for step in p.game.back:
                        await c.cmd(step, "Exits:")
            await self.settle(c, p)
        except Closed as e:
            p.dropped.append(f"{self.phase}: closed after {str(e)[-200:]!r}")
        except asyncio.TimeoutError as e:
            p.dropped.append(f"{self.phase}: no answer: {e}")
        finally:
            p.paged += c.paged
            await c.close()

    async def settle(self, c: TelnetPlayer | WebPlayer, p: Honest) -> None:
        """Play out what is at stake without betting, leave, read the wallet."""
        p.seen_wallet = None
        started = time.monotonic()
        for i in range(400):
            out = await c.cmd("balance", "Wallet:")
            if "Held at" not in out or time.monotonic() - started > SETTLE_SECONDS:
                # (past the time, leaving settles it by the game's rule)
                await c.cmd("leave")
                out = await c.cmd("balance", "Wallet:")
                if "Held at" not in out:
                    m = re.search(r"Wallet: (\d+) chips", out)
                    p.seen_wallet = int(m.group(1)) if m else None
                    p.held_at_end = ""
                    for step in p.game.back:
                        await c.cmd(step, "Exits:")
                    return
                await c.cmd(f"play {p.game.word}")
            p.held_at_end = out
            await c.cmd(SETTLE[i % len(SETTLE)])
            await asyncio.sleep(0.1)


def sample(pid: int) -> tuple[float, int]:
    """The casino's memory (MiB) and open files: the portal's and the game process's
    added up (bench/procs.py).

    Files are counted once however many processes hold them: the portal keeps its
    descriptor of every socket it hands to the game process (so a crash of the game
    process drops nobody), and that is one connection, one kernel socket, not two.
    A leak shows as distinct files growing, which is what the bound is about."""
    rss = 0.0
    files: set[object] = set()
    for one in casino_pids(pid):
        for line in Path(f"/proc/{one}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss += int(line.split()[1]) / 1024
        for fd in os.listdir(f"/proc/{one}/fd"):
            try:
                target = os.readlink(f"/proc/{one}/fd/{fd}")
            except OSError:
                continue            # closed while we looked
            # socket:[inode] and pipe:[inode] name one kernel object; anything else
            # (an epoll, a file path opened twice) counts per descriptor
            files.add(target if re.fullmatch(r"(socket|pipe):\[\d+\]", target) else (one, fd))
    return rss, len(files)


def cpu_seconds(pid: int) -> float:
    """CPU seconds of the casino's processes (the portal and the game process)."""
    total = 0
    for one in casino_pids(pid):
        fields = Path(f"/proc/{one}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def run_hostile_soak(work: Path, *, players: int = 20, web_players: int | None = None, baseline: float = 15.0,
                     seconds: float = 60.0, seed: int = 1, per_kind: int = 2,
                     after_wait: float = 6.0, one_process: bool = False) -> HostileReport:
    """The soak against `casino serve` as shipped (the portal and its game
    process), or with `one_process` against `--one-process` (issue #36 compares
    the two in one invocation)."""
    report = HostileReport(seconds=seconds, baseline_seconds=baseline, after_wait=after_wait)
    rng = random.Random(seed)
    config = soak_config(work)            # raises limits for one address: put the shipped ones back
    shipped = (ROOT / "config" / "server.yaml").read_text()
    raised = {"connections_per_ip": max(20, players + 10)}
    report.raised = raised
    text = shipped
    for key, value in raised.items():
        text, n = re.subn(rf"(\n\s+{key}:) \S+", rf"\1 {value}", text)
        assert n == 1, key
    (config / "server.yaml").write_text(text)
    games = game_tables(config)
    report.games = tuple(sorted({g.title for g in games}))
    # every game has players: one table of each title, the core ones first
    # (bank craps, a variant, simplified, alley, Pig, roulette), then round
    firsts = sorted({g.title: g for g in reversed(games)}.values(),
                    key=lambda g: (CORE.index(g.title) if g.title in CORE else len(CORE), g.title))
    report.core = tuple(t for t in CORE if t in report.games)
    web_players = max(1, round(players * 3 / 20)) if web_players is None else web_players
    web = {1 + k * (players // web_players) for k in range(web_players)} if web_players else set()
    honest = [Honest(f"honest{i}", i in web, firsts[i % len(firsts)]) for i in range(players)]
    report.players = honest
    db = work / "hostile.db"
    make_accounts(db, [p.name for p in honest])
    port, web_port = free_port(), free_port()
    while web_port == port or {port, web_port} & {4000, 4080}:
        port, web_port = free_port(), free_port()
    log = work / "server.log"
    proc = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--web-port", str(web_port), "--data", str(db),
         "--config", str(config), "--seed", str(seed), "--pid-file", str(work / "casino.pid"),
         *(["--one-process"] if one_process else [])],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log.open("w"))
    attackers: subprocess.Popen | None = None
    try:
        wait_listening(port, proc, 30, lambda: log.read_text()[-2000:])
        wait_listening(web_port, proc, 30, lambda: log.read_text()[-2000:])
        run = Run(report, port, web_port, rng)
        stop_sampling = threading.Event()
        t0 = time.monotonic()

        def sampler() -> None:
            while not stop_sampling.is_set() and proc.poll() is None:
                try:
                    rss, fds = sample(proc.pid)
                    cpu = cpu_seconds(proc.pid)
                except OSError:
                    break
                report.samples.append((time.monotonic() - t0, run.phase, rss, fds, cpu,
                                       os.getloadavg()[0]))
                stop_sampling.wait(0.25)

        thread = threading.Thread(target=sampler, daemon=True)
        thread.start()

        async def main() -> None:
            nonlocal attackers
            tasks = [asyncio.create_task(run.honest(p)) for p in honest]
            await asyncio.sleep(baseline)
            run.phase = "attack"
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            attackers = subprocess.Popen(
                [sys.executable, "-m", "bench.hostile_soak", "attack", str(port), str(web_port), str(seconds),
                 str(per_kind)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                preexec_fn=lambda: os.nice(ATTACKER_NICE))
            out = await asyncio.to_thread(attackers.communicate, timeout=seconds + 60)
            report.attack = json.loads(out[0] or "{}")
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            report.attack["attackers' CPU seconds (niced)"] = round(
                after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, 1)
            run.phase = "after"
            # the attackers are gone: their sockets close (HTTP ones within http_timeout)
            deadline = time.monotonic() + after_wait      # default: http_timeout (5 s) and a second
            while time.monotonic() < deadline and sample(proc.pid)[1] > report.baseline_fds() + 5:
                await asyncio.sleep(0.25)
            report.fds_after_attack = sample(proc.pid)[1]
            run.playing = False
            await asyncio.wait_for(asyncio.gather(*tasks), 120)

        asyncio.run(main())
        stop_sampling.set()
        thread.join()
        base_rss = max((s[2] for s in report.samples if s[1] == "baseline"), default=0.0)
        report.rss_bound = base_rss + 100.0
        report.fd_bound = report.baseline_fds() + 200 + 20     # + max_login_connections, + slack
        proc.send_signal(signal.SIGTERM)
        try:
            report.stop_exit = proc.wait(30)
        except subprocess.TimeoutExpired:
            report.stop_exit = None
    finally:
        for p in (attackers, proc):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
    done = subprocess.run([sys.executable, "-m", "server.cli", "ledger", "check", "--data", str(db), "--json"],
                          cwd=ROOT, capture_output=True, text=True)
    report.check = json.loads(done.stdout) if done.stdout.strip() else {"ok": False, "error": done.stderr}
    report.wallets = wallets_and_statements(db, [p.name for p in honest])
    bad = re.compile(r"Traceback|event=(line_error|command_error|shell_error|table_error|tick_error)")
    report.log_errors = [line for line in log.read_text(errors="replace").splitlines() if bad.search(line)]
    return report


def describe(report: HostileReport, latency: bool = True) -> list[str]:
    lines = ["limits: the shipped config/server.yaml, except (for the honest players on 127.0.0.1): "
             + ", ".join(f"{k} {v}" for k, v in report.raised.items())]
    web = sum(p.web for p in report.players)
    lines.append(f"{len(report.players)} honest players from 127.0.0.1 ({web} over the WebSocket), "
                 f"{report.baseline_seconds:.0f} s alone then {report.seconds:.0f} s under attack from "
                 f"{len(ADDRESSES)} addresses; games: " + ", ".join(
                     f"{t} {sum(p.game.title == t for p in report.players)}" for t in report.games))
    a = report.attack
    if a:
        lines.append("attackers: " + "; ".join(f"{k} {v}" for k, v in sorted(a.items())))
    lines.append(f"honest: logins {sum(p.logins for p in report.players)}, commands "
                 f"{sum(p.commands for p in report.players)}, told to slow down "
                 f"{sum(p.slowed for p in report.players)}, paged {sum(p.paged for p in report.players)}, "
                 f"refused {report.refused}, "
                 f"disconnected {report.dropped}")
    for p in report.players:
        for why in p.refused + p.dropped:
            lines.append(f"  {p.name}: {why}")
    for phase in ("baseline", "attack"):
        ms = report.looks(phase)
        if ms:
            lines.append(f"look {phase:>8}: {len(ms)} samples, p50 {statistics.median(ms):.1f} ms, "
                         f"p99 {p99(ms):.1f} ms, worst {max(ms):.1f} ms")
    for phase in ("baseline", "attack"):
        got = [x for x in report.samples if x[1] == phase]
        if len(got) > 1:
            lines.append(f"server CPU {phase}: {100 * (got[-1][4] - got[0][4]) / (got[-1][0] - got[0][0]):.0f}% "
                         f"of a core; machine load average {got[-1][5]:.2f} (2 cores shared)")
    lines.append(f"server RSS MiB (portal + game process): baseline max {report.phase_max('baseline', 2):.1f}, attack max "
                 f"{report.phase_max('attack', 2):.1f} (bound {report.rss_bound:.1f}), end "
                 f"{report.samples[-1][2] if report.samples else 0:.1f}")
    attack = [x for x in report.samples if x[1] == "attack"]
    if len(attack) >= 4:
        quarters = [attack[len(attack) * k // 4:len(attack) * (k + 1) // 4] for k in range(4)]
        lines.append("server RSS MiB max by quarter of the attack: "
                     + ", ".join(f"{max(x[2] for x in q):.1f}" for q in quarters)
                     + "; open fds: " + ", ".join(f"{max(x[3] for x in q)}" for q in quarters))
    lines.append(f"server open files (portal + game process, a socket both hold counted once): baseline max {report.baseline_fds()}, attack max "
                 f"{int(report.phase_max('attack', 3))} (bound {report.fd_bound}: baseline + "
                 f"max_login_connections 200 + 20), {report.after_wait:.0f} s after the attack {report.fds_after_attack} "
                 f"({report.fds_after_attack - report.baseline_fds():+d}: sockets whose client hung up "
                 f"behind more unread input than the socket buffers hold, counted in the caps until "
                 f"their input is read or login_timeout)")
    exact = sum(1 for p in report.players if p.seen_wallet is not None
                and report.wallets.get(p.name, (None, None))[0] == p.seen_wallet == report.wallets[p.name][1])
    lines.append(f"SIGTERM exit {report.stop_exit}; ledger check ok={report.check.get('ok')} "
                 f"open_holds={report.check.get('open_holds')}; honest wallets equal to what the player "
                 f"read and to their statement: {exact} of {len(report.players)}")
    for p in report.players:
        if p.seen_wallet is None or report.wallets.get(p.name, (None,))[0] != p.seen_wallet:
            lines.append(f"  {p.name}: saw {p.seen_wallet}, ledger {report.wallets.get(p.name)} "
                         f"{p.held_at_end[-200:]!r}")
    lines += [f"  server log: {e}" for e in report.log_errors[:10]]
    for target, ok in report.targets(latency).items():
        lines.append(f"{'PASS' if ok else 'FAIL'}  {target}")
    return lines


# --- the attackers (a process of their own) ----------------------------------

async def attack(port: int, web_port: int, seconds: float, per_kind: int) -> dict:
    import aiohttp
    until = time.monotonic() + seconds
    counts: dict[str, int] = {}

    def count(key: str, n: int = 1) -> None:
        counts[key] = counts.get(key, 0) + n

    async def telnet(source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 5)

    async def sink(reader: asyncio.StreamReader, kind: str) -> None:
        try:
            while data := await reader.read(65536):
                if b"Too many" in data:
                    count(f"{kind} told 'Too many'")
        except (ConnectionError, OSError):
            pass

    async def send_until_closed(writer: asyncio.StreamWriter, reader_task: asyncio.Task, chunk: bytes) -> None:
        while time.monotonic() < until and not reader_task.done():
            writer.write(chunk)
            try:
                await asyncio.wait_for(writer.drain(), max(0.01, until - time.monotonic()))
            except asyncio.TimeoutError:
                break

    async def looping(kind: str, source: str, once) -> None:
        while time.monotonic() < until:
            try:
                count(f"{kind} connections")
                await once(source)
            except (ConnectionError, OSError, asyncio.TimeoutError, aiohttp.ClientError):
                count(f"{kind} failed")
            await asyncio.sleep(0.2)

    async def line_flood(source: str) -> None:
        reader, writer = await telnet(source)
        t = asyncio.create_task(sink(reader, "line_flood"))
        await send_until_closed(writer, t, b"look\r\nsay hi\r\n" * 5000)
        writer.transport.abort()
        t.cancel()

    async def toggles(source: str) -> None:
        reader, writer = await telnet(source)
        t = asyncio.create_task(sink(reader, "toggles"))
        chunk = (bytes([IAC, DO, ECHO, IAC, DONT, ECHO, IAC, WILL, NAWS, IAC, SB, NAWS, 0, 80, 0, 24, IAC, SE,
                        IAC, WONT, NAWS, IAC, WILL, TTYPE, IAC, SB, TTYPE, 0]) + b"xterm" + bytes([IAC, SE])) * 500
        await send_until_closed(writer, t, chunk)
        writer.transport.abort()
        t.cancel()

    async def bad_charset(source: str) -> None:
        reader, writer = await telnet(source)
        t = asyncio.create_task(sink(reader, "bad_charset"))
        for name in ("rot13", "base64", "hex", "no-such-codec", "idna", "x" * 300):
            writer.write(bytes([IAC, WILL, CHARSET, IAC, SB, CHARSET, 2]) + name.encode() + bytes([IAC, SE]))
            writer.write(bytes([IAC, WILL, NEW_ENVIRON, IAC, SB, NEW_ENVIRON, 0, 0]) + b"LANG" + bytes([1])
                         + f"en_US.{name}".encode() + bytes([IAC, SE]))
        chunk = "look\r\nsay café ☃\r\nhelp\r\n".encode() + b"\xc3(\xff\xfe\x01\r\n"
        while time.monotonic() < until and not t.done():
            writer.write(chunk)
            await asyncio.wait_for(writer.drain(), max(0.01, until - time.monotonic()))
            await asyncio.sleep(0.05)
        writer.transport.abort()
        t.cancel()

    async def gmcp_junk(source: str) -> None:
        reader, writer = await telnet(source)
        t = asyncio.create_task(sink(reader, "gmcp_junk"))
        junk = [b"Core.Hello " + b"[" * 3000 + b"]" * 3000, b"Core.Hello {not json", b"\x00\x01" * 50,
                b"Char.Login " + b'{"a":' * 500, b"x" * 2000]
        writer.write(bytes([IAC, WILL, GMCP, IAC, DO, GMCP]))
        i = 0
        while time.monotonic() < until and not t.done():
            writer.write(bytes([IAC, SB, GMCP]) + junk[i % len(junk)] + bytes([IAC, SE, IAC, SB, 99]) + b"what"
                         + bytes([IAC, SE]))
            i += 1
            try:
                await asyncio.wait_for(writer.drain(), max(0.01, until - time.monotonic()))
            except asyncio.TimeoutError:
                break
            await asyncio.sleep(0.01)
        writer.transport.abort()
        t.cancel()

    async def tiny_frames(source: str) -> None:
        # no closing handshake at the end: the server reads the close frame
        # only after every frame queued before it, at the budget's pace
        http = aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0)))
        t = None
        try:
            ws = await asyncio.wait_for(http.ws_connect(f"http://127.0.0.1:{web_port}/ws", autoping=False), 5)

            async def read() -> None:
                async for _ in ws:
                    pass
            t = asyncio.create_task(read())
            while time.monotonic() < until and not t.done() and not ws.closed:
                left = max(0.01, until - time.monotonic())
                await asyncio.wait_for(ws.send_str(""), left)
                await asyncio.wait_for(ws.send_bytes(b""), left)
                await asyncio.wait_for(ws.ping(), left)
                await asyncio.wait_for(ws.send_str("{"), left)
                count("tiny_frames frames", 4)
        finally:
            if t is not None:
                t.cancel()
            await http.close()

    async def silent_slot(source: str) -> None:
        reader, writer = await telnet(source)
        try:
            first = await asyncio.wait_for(reader.read(200), 3)
        except asyncio.TimeoutError:
            first = b""
        if b"Too many" in first:
            count("silent_slots refused")
            writer.transport.abort()
            await asyncio.sleep(1.0)
            return
        count("silent_slots held")
        # silent from now on; never reads again
        while time.monotonic() < until and not reader.at_eof():
            await asyncio.sleep(0.2)
            if writer.is_closing():
                break
        writer.transport.abort()

    async def slow_http(source: str) -> None:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", web_port, local_addr=(source, 0)), 5)
        t = asyncio.create_task(sink(reader, "slow_http"))
        try:
            writer.write(b"GET / HTTP/1.1\r\n")
            for ch in b"Host: 127.0.0.1\r\nX-Slow: " + b"a" * 200:
                if t.done() or time.monotonic() > until:
                    break
                writer.write(bytes([ch]))
                await asyncio.sleep(0.3)
            count("slow_http closed by server" if t.done() else "slow_http outlived")
        finally:
            writer.transport.abort()
            t.cancel()

    kinds = {"line_flood": line_flood, "tiny_frames": tiny_frames, "toggles": toggles, "silent_slots": silent_slot,
             "slow_http": slow_http, "bad_charset": bad_charset, "gmcp_junk": gmcp_junk}
    per = {"silent_slots": 7, "slow_http": 4}        # try past login_connections_per_ip (5)
    jobs = []
    only = [k for k in os.environ.get("HOSTILE_KINDS", "").split(",") if k]   # diagnosis: some kinds only
    for i, source in enumerate(ADDRESSES):
        kind = KINDS[i % len(KINDS)]
        if only and kind not in only:
            continue
        for _ in range(per.get(kind, per_kind)):
            jobs.append(looping(kind, source, kinds[kind]))
    try:
        await asyncio.wait_for(asyncio.gather(*jobs, return_exceptions=True), seconds + 1)
    except asyncio.TimeoutError:            # a send blocked past the end: cancelled
        pass
    return counts


if __name__ == "__main__" and sys.argv[1:2] == ["attack"]:
    port_, web_port_, seconds_, per_kind_ = sys.argv[2:6]
    print(json.dumps(asyncio.run(attack(int(port_), int(web_port_), float(seconds_), int(per_kind_)))))

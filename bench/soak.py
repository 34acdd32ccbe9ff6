"""A bounded soak: bots play every game against the real server, badly.

Used by `make bench` (bench_soak, longer) and by tests/e2e/test_soak.py (short).

The server is the real process (`python -m server --seed N`) on a fresh data
file. Every table the config seats is found, with the way to its room from
the start room (game_tables); each bot has an account and, until the time is
up, connects, walks to a game (bot i visits game i first, so every game is
played), sits and plays it with that game's words, mixing in bad input (odd
Unicode, over-long lines, bursts past the rate limit, raw telnet commands,
invalid UTF-8), and now and then drops its connection (an abort), logs in
again from a second connection while the first is still open (a takeover),
or quits. Bots do not wait for replies; a reader drains each connection and
counts what matters ("Something went wrong").

Midway the server (the portal and the game process both) is killed with SIGKILL and started again on the same file
(start-up recovery closes what was open); at the end it is stopped with
SIGTERM. Then: `casino ledger check` must be ok with no open holds, and each
player's wallet must equal the sum of their own statement (every movement
of their chips the ledger recorded, starting chips included).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from bench.bench_server import wait_listening
from bench.procs import crash, kill_all

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "soakpass1"

# What bots type at each game, by catalogue key. A game not listed here (one
# added later) is played with its own words from the catalogue, bare and
# with an amount; every game the config seats is visited (game_tables).
ACTIONS = {
    "bank_craps": ["bet pass 5", "bet field 2", "bet come 5", "bet dontpass 5", "odds pass 10",
                   "bet place 6 6", "roll", "roll", "ready", "unbet field", "unbet all", "bets", "table",
                   "press 6 6"],
    "simplified_craps": ["bet pass 5", "bet dontpass 5", "roll", "roll", "press", "ride", "collect", "table"],
    "alley_craps": ["start", "bet 10", "bet 20", "fade 10", "fade", "roll", "roll", "pass", "table"],
    "pig": ["start", "roll", "roll", "hold", "ready", "table"],
    "roulette": ["bet red 5", "bet 17 5", "bet split 17 20 5", "bet black 10", "bets", "unbet red",
                 "spin", "spin", "table"],
}


@dataclass(frozen=True)
class GameTable:
    title: str
    word: str                  # play <word>
    there: tuple[str, ...]     # exits from the start room to the table's room
    back: tuple[str, ...]      # and back
    actions: tuple[str, ...]


def _path(rooms: dict, start: str, goal: str) -> tuple[str, ...]:
    paths = {start: ()}
    todo = [start]
    while todo:
        here = todo.pop(0)
        if here == goal:
            return paths[here]
        for direction, there in rooms[here].exits.items():
            if there not in paths:
                paths[there] = paths[here] + (direction,)
                todo.append(there)
    raise LookupError(f"no way from {start} to {goal}")


def game_tables(config_dir: Path) -> list[GameTable]:
    """Every table the config seats, with the way to it and what to type there."""
    from server.config.load import load_config
    from server.games.catalogue import entry_for
    config = load_config(config_dir, ROOT / "rooms")
    start = config.settings.start_room
    out = []
    for room in config.rooms.values():
        for table_id in room.tables:
            entry = entry_for(config.tables[table_id])
            actions = ACTIONS.get(entry.key) or [v for w in entry.words for v in (w, f"{w} 5", f"{w} 10")]
            out.append(GameTable(entry.title, entry.word, _path(config.rooms, start, room.id),
                                 _path(config.rooms, room.id, start), tuple(actions)))
    return out


BAD = [
    "statement ²", "bet pass ٣", "bet ¹⁰", "fade １０", "grant x ² y", "say \u202eevil\u200b",
    "unbet ²", "roll \u0301", "e\u0301" * 30, "x" * 700, "", "   ", "help ½", "play ⅻ",
]


@dataclass
class SoakReport:
    connections: int = 0
    lines: int = 0
    aborts: int = 0
    takeovers: int = 0
    went_wrong: int = 0
    bets_accepted: int = 0
    live_at_kill: bool = False
    kill_recovered: int = 0
    stop_exit: int | None = None
    check: dict = field(default_factory=dict)
    wallets: dict = field(default_factory=dict)       # player -> (wallet, sum of statement)
    log_errors: list = field(default_factory=list)
    visits: dict = field(default_factory=dict)        # game title -> visits by bots

    games: tuple = ()                                  # every game the config seats

    @property
    def ok(self) -> bool:
        return (set(self.games) <= set(self.visits) and self.stop_exit == 0 and self.kill_recovered > 0 and self.went_wrong == 0 and not self.log_errors
                and self.check.get("ok") and self.check.get("open_holds") == 0
                and all(w == s for w, s in self.wallets.values()) and bool(self.wallets))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def soak_config(work: Path) -> Path:
    config = work / "config"
    shutil.copytree(ROOT / "config", config, dirs_exist_ok=True)
    server = config / "server.yaml"
    text = server.read_text()
    for key, value in (("connections_per_ip", 500), ("accounts_per_ip_per_hour", 1000),
                       ("max_login_connections", 500), ("login_connections_per_ip", 500)):
        text, n = re.subn(rf"(\n\s+{key}:) \S+", rf"\1 {value}", text)
        assert n == 1, key
    server.write_text(text)
    return config


class Server:
    def __init__(self, work: Path, seed: int) -> None:
        self.work, self.seed = work, seed
        self.port = free_port()
        self.config = soak_config(work)
        self.games = game_tables(self.config)
        self.proc: subprocess.Popen | None = None
        self.logs: list[Path] = []

    def start(self) -> None:
        log = self.work / f"server-{len(self.logs)}.log"
        self.logs.append(log)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server", "--port", str(self.port), "--data", str(self.work / "soak.db"),
             "--config", str(self.config), "--seed", str(self.seed),
             "--web-port", "0",                       # never the config's fixed browser port
             "--pid-file", str(self.work / "casino.pid")],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log.open("w"),
            start_new_session=True)                   # its own group: kill() kills both processes
        wait_listening(self.port, self.proc, 30, lambda: log.read_text()[-2000:])

    def kill(self) -> None:
        """kill -9 of the casino: the portal and the game process (bench/procs.py)."""
        crash(self.proc)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return -1


class Bot:
    def __init__(self, name: str, rng: random.Random, server: Server, report: SoakReport,
                 first: int = 0) -> None:
        self.name, self.rng, self.server, self.report = name, rng, server, report
        self.next_game: int | None = first      # the first visit goes here: bots cover every game

    async def connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, asyncio.Task]:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.server.port)
        self.report.connections += 1
        return reader, writer, asyncio.create_task(self.drain(reader))

    async def drain(self, reader: asyncio.StreamReader) -> None:
        tail = b""
        try:
            while data := await reader.read(65536):
                text = tail + data
                self.report.went_wrong += text.count(b"Something went wrong")
                self.report.bets_accepted += text.count(b"Bet accepted")
                tail = text[-40:]
        except (ConnectionError, OSError):
            pass

    async def send(self, writer: asyncio.StreamWriter, line: str | bytes) -> None:
        data = line if isinstance(line, bytes) else line.encode("utf-8") + b"\r\n"
        writer.write(data)
        self.report.lines += 1
        await writer.drain()
        await asyncio.sleep(self.rng.uniform(0.05, 0.2))

    async def login(self, writer: asyncio.StreamWriter) -> None:
        await self.send(writer, f"create {self.name} {PASSWORD}")
        await self.send(writer, f"connect {self.name} {PASSWORD}")

    async def visit(self, until: float) -> None:
        """One connection: log in, play one game for a while, leave somehow."""
        rng = self.rng
        reader, writer, drainer = await self.connect()
        try:
            await asyncio.sleep(0.6)           # the banner comes after connect_maxwait
            await self.login(writer)
            games = self.server.games
            game = games[self.next_game % len(games)] if self.next_game is not None else rng.choice(games)
            self.next_game = None
            for step in game.there:
                await self.send(writer, step)
            await self.send(writer, f"play {game.word}")
            self.report.visits[game.title] = self.report.visits.get(game.title, 0) + 1
            for _ in range(rng.randint(5, 40)):
                if time.monotonic() > until:
                    break
                roll = rng.random()
                if roll < 0.75:
                    await self.send(writer, rng.choice(game.actions))
                elif roll < 0.85:
                    await self.send(writer, rng.choice(BAD))
                elif roll < 0.88:
                    await self.send(writer, b"flood\r\n" * 60)           # past the rate limit
                elif roll < 0.90:
                    await self.send(writer, b"\xff\xf1" * 20 + b"\xc3(\xff\xfe look\r\n")
                elif roll < 0.93:
                    await self.takeover(until)
                else:
                    await self.send(writer, rng.choice(["leave", "look", "balance", "who", *game.back]))
            ending = rng.random()
            if ending < 0.4:
                writer.transport.abort()           # a dropped connection, bets live
                self.report.aborts += 1
            elif ending < 0.7:
                await self.send(writer, "quit")
                await self.send(writer, "quit")
            else:
                writer.close()
        except (ConnectionError, OSError):
            pass
        finally:
            if not writer.is_closing():
                writer.transport.abort()
            drainer.cancel()

    async def takeover(self, until: float) -> None:
        """Log in again from a second connection while this one is live."""
        self.report.takeovers += 1
        reader, writer, drainer = await self.connect()
        try:
            await asyncio.sleep(0.6)
            await self.login(writer)
            await self.send(writer, "look")
        finally:
            writer.transport.abort()
            drainer.cancel()

    async def run(self, until: float) -> None:
        while time.monotonic() < until:
            try:
                await self.visit(until)
            except (ConnectionError, OSError):
                await asyncio.sleep(0.2)           # the server is down (killed): try again


async def play(bots: list[Bot], seconds: float) -> None:
    until = time.monotonic() + seconds
    await asyncio.gather(*(bot.run(until) for bot in bots))


async def pin_a_live_bet(server: Server) -> tuple[bool, asyncio.StreamWriter]:
    """Just before the kill: one more player with a bet known to be durable
    ("Bet accepted" is shown only then), still connected when the server is
    killed, so the kill has a live stake for start-up recovery to refund."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    seen = b""
    try:
        await asyncio.sleep(0.6)
        for line in (f"create soakpin {PASSWORD}", f"connect soakpin {PASSWORD}", "north", "play craps"):
            writer.write(line.encode() + b"\r\n")
        deadline = time.monotonic() + 15
        bets = ["bet pass 5", "bet field 2", "bet place 6 6", "bet come 5", "bet dontpass 5"]
        while b"Bet accepted" not in seen and time.monotonic() < deadline:
            writer.write(bets[0].encode() + b"\r\n")
            bets.append(bets.pop(0))
            try:
                seen += await asyncio.wait_for(reader.read(65536), 0.5)
            except asyncio.TimeoutError:
                pass
    except (ConnectionError, OSError):
        pass
    return b"Bet accepted" in seen, writer


def wallets_and_statements(db: Path, names: list[str]) -> dict:
    code = (
        "import asyncio, json, sys\n"
        "from server.ledger import Ledger\n"
        "async def main():\n"
        "    ledger = await Ledger.open(sys.argv[1]); out = {}\n"
        "    for name in sys.argv[2:]:\n"
        "        rows = await ledger.statement(name, 1000)\n"
        "        assert len(rows) < 1000, 'statement truncated'\n"
        "        out[name] = [(await ledger.balance(name)).wallet, sum(r.amount for r in rows)]\n"
        "    await ledger.close(); print(json.dumps(out))\n"
        "asyncio.run(main())\n")
    done = subprocess.run([sys.executable, "-c", code, str(db), *names], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    return {k: tuple(v) for k, v in json.loads(done.stdout).items()}


def log_errors(paths: list[Path]) -> list[str]:
    bad = re.compile(r"Traceback|event=(line_error|command_error|shell_error|table_error|tick_error)")
    return [line for p in paths for line in p.read_text(errors="replace").splitlines() if bad.search(line)]


def run_soak(work: Path, *, bots: int, before_kill: float, after_kill: float, seed: int = 1) -> SoakReport:
    report = SoakReport()
    rng = random.Random(seed)
    server = Server(work, seed)
    report.games = tuple(g.title for g in server.games)
    players = [Bot(f"soak{i}", random.Random(rng.random()), server, report, first=i) for i in range(bots)]
    server.start()
    try:
        async def until_kill() -> bool:
            pin = asyncio.create_task(play(players, before_kill))
            await asyncio.sleep(max(0.0, before_kill - 1.5))
            live, pinned = await pin_a_live_bet(server)
            await pin
            server.kill()                            # kill -9 mid-play
            pinned.transport.abort()
            return live
        report.live_at_kill = asyncio.run(until_kill())
        server.start()
        asyncio.run(play(players, after_kill))
        report.stop_exit = server.stop()
    finally:
        if server.proc and server.proc.poll() is None:
            kill_all(server.proc)
    report.kill_recovered = sum(p.read_text().count("event=recovery") for p in server.logs)
    db = work / "soak.db"
    done = subprocess.run([sys.executable, "-m", "server.cli", "ledger", "check", "--data", str(db), "--json"],
                          cwd=ROOT, capture_output=True, text=True)
    report.check = json.loads(done.stdout) if done.stdout.strip() else {"ok": False, "error": done.stderr}
    report.wallets = wallets_and_statements(db, [p.name for p in players] + ["soakpin"])
    report.log_errors = log_errors(server.logs)
    return report


def describe(report: SoakReport) -> list[str]:
    matched = sum(w == s for w, s in report.wallets.values())
    return [
        "games visited: " + ", ".join(f"{title} {n}" for title, n in sorted(report.visits.items())),
        f"connections {report.connections}, lines sent {report.lines}, aborted connections {report.aborts}, "
        f"takeovers {report.takeovers}, bets accepted {report.bets_accepted}",
        f"kill -9 then restart (a live bet pinned first: {report.live_at_kill}): "
        f"{report.kill_recovered} open stakes closed by start-up recovery",
        f"SIGTERM exit {report.stop_exit}; ledger check ok={report.check.get('ok')} "
        f"open_holds={report.check.get('open_holds')} minted={report.check.get('minted')} "
        f"balances={report.check.get('balances')}",
        f"wallets matching their own statement: {matched} of {len(report.wallets)}",
        f"'Something went wrong' seen: {report.went_wrong}; server log errors: {len(report.log_errors)}",
        "RESULT: " + ("ok" if report.ok else "FAILED"),
    ]


if __name__ == "__main__":
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        if os.environ.get("KEEP"):
            tmp = tempfile.mkdtemp()
            print(tmp)
        print("\n".join(describe(run_soak(Path(tmp), bots=int(os.environ.get("BOTS", 8)),
                                          before_kill=5, after_kill=5))))

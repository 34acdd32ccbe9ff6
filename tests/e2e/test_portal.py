"""The portal and the game process, for real: `python -m server` (the portal)
with its `casino game` child, a crowd of telnet and browser clients, and the
game process restarted (`restart`, `casino restart`) or killed (kill -9).
Nobody is disconnected; everyone is logged in again where they were, with
their display settings; every stake on a table is refunded and its player
told; the ledger check is ok afterwards. When the portal dies, the game
process stops by itself, cleanly.

The test config raises the per-address caps (every client here is 127.0.0.1)
and gives bank craps a long betting window, so no roll settles a stake while
a test runs: each wallet is then exactly its starting 1000 chips."""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import telnetlib3

from support.telnet import Client, login, plain
from support.web import WebClient

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "secret123"
OPERATOR_PASSWORD = "opsecret1"
STAKE = 10
TELNET_CLIENTS = 50
WEB_CLIENTS = 5

# Where each player goes from the lobby, and the room's name that `look` shows.
WALKS = [((), "The Lobby"), (("north",), "Bank Craps"), (("west",), "The Pig Parlour"),
         (("south",), "The Quiet Table"), (("north", "east"), "Single-Zero Roulette")]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def crowd_config(work: Path) -> Path:
    """The shipped config with room for one address's crowd and a bank craps
    table that never rolls by itself within a test."""
    config = work / "config"
    shutil.copytree(ROOT / "config", config)
    server = config / "server.yaml"
    text = server.read_text()
    for key, value in (("connections_per_ip", 500), ("accounts_per_ip_per_hour", 1000),
                       ("max_login_connections", 500), ("login_connections_per_ip", 500),
                       ("hash_queue", 500), ("hashes_per_ip", 500), ("commands_per_second", 100)):
        text, n = re.subn(rf"(\n\s+{key}:) \S+", rf"\1 {value}", text)
        assert n == 1, key
    server.write_text(text)
    tables = config / "casino_tables.yaml"
    text, n = re.subn(r"(- id: bank_craps\n(?:  .*\n)*?    field_12: 3[^\n]*\n)",
                      r"\1    timing: {window: 600, last_call: 3, shooter: 3600, autoroll: 3}\n",
                      tables.read_text(), count=1)
    assert n == 1
    tables.write_text(text)
    return config


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "server.cli", *args], cwd=ROOT, input=stdin,
                          capture_output=True, text=True, timeout=60)


def ledger_check(url: str) -> dict:
    check = cli("ledger", "check", "--database", url, "--json")
    assert check.returncode == 0, check.stdout + check.stderr
    return json.loads(check.stdout)


@dataclass
class Server:
    proc: subprocess.Popen
    port: int
    web_port: int
    url: str
    pid_file: Path
    log: Path

    def children(self) -> list[int]:
        """The portal's child processes (its game process)."""
        out = []
        for task in Path(f"/proc/{self.proc.pid}/task").iterdir():
            with contextlib.suppress(OSError):
                out += [int(p) for p in (task / "children").read_text().split()]
        return out

    def game_pid(self) -> int:
        [pid] = self.children()
        return pid

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=30)


def listening(server: Server, within: float) -> None:
    """Until the server's browser port and then its telnet port (the last it opens) accept."""
    deadline = time.monotonic() + within
    for p in (server.web_port, server.port):
        while True:
            try:
                socket.create_connection(("127.0.0.1", p), timeout=1).close()
                break
            except OSError:
                if server.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(server.log_text())
                time.sleep(0.05)     # polling for a real process to listen, not game time


@contextlib.contextmanager
def serving(work: Path, url: str, args: list[str], kind=Server, within: float = 30):
    """`python -m server ARGS` on free telnet and web ports, its log in work/server.log,
    in a process group of its own: all of it killed afterwards if still running."""
    port, web_port = free_port(), free_port()
    log = work / "server.log"
    pid_file = work / "casino.pid"
    with log.open("w") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "server", "--port", str(port), "--web-port", str(web_port), *args,
             "--pid-file", str(pid_file)],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    server = kind(proc, port, web_port, url, pid_file, log)
    try:
        listening(server, within)
        yield server
    finally:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)    # the portal and its game process
            proc.wait()


@contextlib.contextmanager
def portal_server(work: Path, config_of=crowd_config, kind=Server):
    """A two-process casino (portal and game process) on free ports, an SQLite file and
    the test config (`config_of(work)`), with the operator account `admin`; killed
    afterwards if still running."""
    url = f"sqlite:///{work / 'casino.db'}"
    made = cli("account", "create", "admin", "--database", url, stdin=f"{OPERATOR_PASSWORD}\n")
    assert made.returncode == 0, made.stderr
    with serving(work, url, ["--database", url, "--config", str(config_of(work))], kind) as server:
        yield server


def flat(text: str) -> str:
    """`text` as one line: where it wraps depends on the player's width."""
    return " ".join(text.split())


# --- the crowd ------------------------------------------------------------------------

@dataclass
class Player:
    name: str
    client: Client | WebClient
    room: str                        # the room's name `look` shows
    staked: bool = False             # a live pass bet at bank craps
    settings: list[str] | None = None   # what `set` showed before the restart

    @property
    def web(self) -> bool:
        return isinstance(self.client, WebClient)

    async def expect(self, text: str) -> str:
        """Everything up to the reply that shows `text`, wherever it was wrapped."""
        seen = ""
        while text not in flat(seen):
            if self.web and self.client.closed:
                raise ConnectionError(f"{self.name}: the WebSocket closed before {text!r}: {seen!r}")
            seen += plain(await self.client.read_until_prompt(timeout=60))
        return seen

    async def do(self, line: str, until: str) -> str:
        """`line`'s reply, read up to the one that shows `until` (others' news may come first)."""
        await self.client.send(line)
        return await self.expect(until)

    async def look(self) -> str:
        """`look`'s reply; for a telnet client, in colour exactly if its settings say so."""
        await self.client.send("look")
        raw = await self.client.expect("Exits:", timeout=60)
        if not self.web and self.settings:
            coloured = any(re.match(r"color +on ", line) for line in self.settings)
            assert ("\x1b[" in raw) == coloured, (self.name, self.settings, raw)
        return plain(raw)

    async def shown_settings(self) -> list[str]:
        """The display settings `set` shows, one line each."""
        shown = await self.do("set", "Change: set")
        return re.findall(r"\b(?:color|unicode|dice|width) +\S+ +(?:guessed|set by you)", shown)


async def make_player(server: Server, i: int, web: bool) -> Player:
    name = f"{'w' if web else 't'}{i:02d}"
    if web:
        client: Client | WebClient = await WebClient.open(server.web_port, cols=70 if i == 1 else None)
        await client.read_until_prompt()
        said = await client.cmd(f"create {name} {PASSWORD}", timeout=30)
    else:
        # some report a narrow window (NAWS), some say nothing of their terminal
        cols = 80 if i % 7 == 3 else 250
        ttype = "dumb" if i % 11 == 5 else "xterm-256color"
        client = await Client.open(server.port, cols=cols, ttype=ttype)
        said = await login(client, name, PASSWORD)
    assert "You have 1000 chips" in plain(said), said
    walk, room = WALKS[i % len(WALKS)]
    player = Player(name, client, room)
    for way in walk:
        await player.do(way, "Exits:")
    if i % 7 == 0:
        await player.do("set width 60", "width is now 60")
    if i % 6 == 1:
        await player.do("set colour off", "color is now off")
    if room == "Bank Craps" and i % 2 == 1:
        await player.do("play craps", "joins the table")
        await player.do(f"bet pass {STAKE}", f"Bet accepted: pass {STAKE}.")
        player.staked = True
    player.settings = await player.shown_settings()
    assert len(player.settings) == 4, player.settings
    return player


async def gather_bounded(coros, limit: int = 12) -> list:
    """Run `coros`, `limit` at a time; the first failure cancels the rest."""
    gate = asyncio.Semaphore(limit)

    async def one(coro):
        async with gate:
            return await coro
    async with asyncio.TaskGroup() as group:
        tasks = [group.create_task(one(c)) for c in coros]
    return [t.result() for t in tasks]


async def crowd(server: Server, telnet: int = TELNET_CLIENTS, web: int = WEB_CLIENTS) -> list[Player]:
    return await gather_bounded([make_player(server, i, False) for i in range(telnet)]
                                + [make_player(server, i, True) for i in range(web)])


async def operator(server: Server) -> Client:
    admin = await Client.open(server.port)
    assert "You have" in plain(await login(admin, "admin", OPERATOR_PASSWORD, create=False))
    return admin


async def anonymous(server: Server, n: int) -> list[Client]:
    """Clients at the Name: prompt, not logged in."""
    out = []
    for _ in range(n):
        c = await Client.open(server.port)
        assert "Name:" in plain(await c.read_until_prompt())
        out.append(c)
    return out


class GmcpClient(telnetlib3.TelnetClient):
    """A MUD client that asks for the Char and Room GMCP modules once, at connect."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("gmcp_modules", ["Char 1", "Room 1"])
        super().__init__(*args, **kwargs)
        self.messages: list[tuple[str, object]] = []

    def on_gmcp(self, package, data):
        super().on_gmcp(package, data)
        self.messages.append((package, data))


async def gmcp_until(reader, text: str, then: str = "") -> str:
    """Read until `text` has arrived, and `then` after it."""
    seen = ""

    async def go() -> None:
        nonlocal seen
        while text not in seen or then not in seen[seen.index(text) + len(text):]:
            chunk = await reader.read(65536)
            if not chunk:
                raise ConnectionError("closed")
            seen += chunk
    await asyncio.wait_for(go(), 30)       # a guard against a hung server, not a wait
    return seen


async def gmcp_player(server: Server):
    """A GMCP client logged in and in Bank Craps (Room.Info says 6185)."""
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", server.port, client_factory=GmcpClient, connect_minwait=0.05,
        connect_maxwait=1.0, encoding="utf8")
    await gmcp_until(reader, "Name:")
    writer.write(f"create gmcp1 {PASSWORD}\r\n")
    await gmcp_until(reader, "Exits:")
    writer.write("north\r\n")
    await gmcp_until(reader, "Exits:")
    await asyncio.sleep(0)          # let the GMCP that follows the text be read
    rooms = [d for p, d in writer.protocol.messages if p == "Room.Info"]
    assert rooms and rooms[-1]["id"] == "6185", writer.protocol.messages
    return reader, writer


async def gmcp_after_restart(reader, writer) -> None:
    """Logged in again in the same room, and still sent the modules it asked for."""
    before = len(writer.protocol.messages)
    await gmcp_until(reader, "You are logged in again.", "Exits:")
    writer.write("look\r\n")
    await gmcp_until(reader, "Exits:")
    await asyncio.sleep(0)
    after = writer.protocol.messages[before:]
    assert [d["id"] for p, d in after if p == "Room.Info"][-1:] == ["6185"], after
    assert any(p == "Char.Status" and d["wallet"] == 1000 for p, d in after), after
    # it named Char: Char.Stats at the login again too (its modules kept by the portal)
    assert any(p == "Char.Stats" and d["name"] == "gmcp1" for p, d in after), after


WIDE = re.compile(r"[^\r\n]{61,}")


async def logged_in_again(player: Player, after_failure: bool) -> str:
    """What the player read through the restart; asserts they were told, in order,
    and are back where they were with their settings and every chip."""
    seen = await player.expect("You are logged in again.")
    seen = flat(seen)
    rest = seen[seen.index("You are logged in again."):]
    told = seen.index("The casino is restarting")
    assert told < seen.index("You are logged in again."), seen
    if after_failure:
        assert "The casino restarted after a failure. You are logged in again." in seen, seen
    assert "Name:" not in seen and "Welcome" not in seen, seen        # not greeted anew
    assert "You have 1000 chips." in rest, seen
    if player.staked:
        if after_failure:      # the ledger's recovery refunded it, and says so at login
            assert re.search(rf"Notice: Your stake of {STAKE} chips at table bank_craps was still open", seen), seen
        else:                  # the table closed, refunding, and said so
            assert "Every live stake at this table is refunded." in seen, seen
            assert f"Refunded to your wallet: pass {STAKE}." in seen, seen
    look = await player.look()
    assert player.room in look, (player.name, player.room, look)
    assert await player.shown_settings() == player.settings, player.name
    if any(re.match(r"width +60 ", line) for line in player.settings or ()):
        assert not WIDE.search(look), look
    balance = await player.do("balance", "Wallet:")
    assert "Wallet: 1000 chips." in balance and "Held at" not in balance, (player.name, balance)
    return seen


async def close_all(clients) -> None:
    for c in clients:
        with contextlib.suppress(Exception):
            await c.close()


async def through_a_restart(server: Server, players: list[Player], anon: list[Client],
                            after_failure: bool) -> None:
    await gather_bounded([logged_in_again(p, after_failure) for p in players], limit=64)
    for c in anon:
        seen = plain(await c.expect("Please log in again.", timeout=60))
        assert "The casino is restarting" in seen, seen
    for i, c in enumerate(anon):
        said = plain(await c.cmd(f"create anon{i} {PASSWORD}", timeout=30))
        assert "You have 1000 chips." in said, said


def stopped_cleanly(server: Server) -> None:
    assert server.stop() == 0, server.log_text()[-3000:]
    report = ledger_check(server.url)
    assert report["ok"] and report["open_holds"] == 0, report
    log = server.log_text()
    assert "Traceback" not in log and "Something went wrong" not in log, log[-3000:]


# --- the tests --------------------------------------------------------------------------

async def test_a_restart_drops_nobody(tmp_path):
    """50 telnet and 5 browser players in five rooms, a few at a narrow width or
    without colour, some with a stake at bank craps, and two clients at the Name:
    prompt, and a GMCP client: the operator's `restart` keeps every connection; each player is told,
    logged in again in the same room with the same settings and every chip (the
    stakes refunded, with the table's word for it); the anonymous ones log in."""
    with portal_server(tmp_path) as server:
        players = await crowd(server)
        anon = await anonymous(server, 2)
        admin = await operator(server)
        gmcp_reader, gmcp_writer = await gmcp_player(server)
        assert sum(p.staked for p in players) >= 5
        first_game = server.game_pid()
        started = time.monotonic()
        try:
            said = plain(await admin.cmd_expect("restart new dice", "Restarting now"))
            assert "Restarting now: everyone stays connected." in said, said
            await asyncio.gather(through_a_restart(server, players, anon, after_failure=False),
                                 gmcp_after_restart(gmcp_reader, gmcp_writer))
            took = time.monotonic() - started
            seen = flat(plain(await admin.expect("You are logged in again.", timeout=30)))
            assert "*** The casino is restarting. New dice. One moment. ***" in seen, seen   # the reason too
            assert server.game_pid() != first_game          # the code now on disk
            assert server.proc.poll() is None
            print(f"restart: {len(players) + len(anon) + 2} connections logged in again in {took:.2f} s")
        finally:
            await close_all([p.client for p in players] + anon + [admin])
            gmcp_writer.close()
        stopped_cleanly(server)
    log = server.log_text()
    assert "event=operator_restart" in log and "event=game_restarting" in log


async def test_a_killed_game_process_drops_nobody(tmp_path):
    """The same crowd, and kill -9 of the game process: the portal keeps every
    connection and starts a new one; the ledger's recovery refunds every stake
    and tells its player at the login again; nothing is lost."""
    with portal_server(tmp_path) as server:
        players = await crowd(server)
        anon = await anonymous(server, 2)
        try:
            first_game = server.game_pid()
            started = time.monotonic()
            os.kill(first_game, signal.SIGKILL)
            await through_a_restart(server, players, anon, after_failure=True)
            took = time.monotonic() - started
            assert server.game_pid() != first_game and server.proc.poll() is None
            print(f"kill -9: {len(players) + len(anon)} connections logged in again in {took:.2f} s")
        finally:
            await close_all([p.client for p in players] + anon)
        stopped_cleanly(server)
    log = server.log_text()
    assert "crashed=True" in log and "event=recovery" in log, log[-3000:]


async def test_casino_restart_from_the_shell(tmp_path):
    """`casino restart --pid-file`: exit 0, one line, and the players kept (the stake
    refunded); once the casino has stopped, the same command says in one line that no
    casino runs there, exit 1, as it does for a pid file whose casino is gone."""
    with portal_server(tmp_path) as server:
        players = await crowd(server, telnet=4, web=1)
        try:
            first_game = server.game_pid()
            done = await asyncio.to_thread(cli, "restart", "--pid-file", str(server.pid_file))
            assert done.returncode == 0, done.stderr
            assert done.stdout.splitlines() == [
                f"Restart requested (casino pid {server.proc.pid}): every player stays connected."]
            await gather_bounded([logged_in_again(p, after_failure=False) for p in players])
            assert server.game_pid() != first_game
        finally:
            await close_all([p.client for p in players])
        stopped_cleanly(server)
        assert not server.pid_file.exists()          # removed by the casino that wrote it
    gone = cli("restart", "--pid-file", str(server.pid_file))
    assert gone.returncode == 1 and gone.stdout == ""
    assert gone.stderr.splitlines() == [f"casino restart: no casino is running here ({server.pid_file} is missing)"]
    server.pid_file.write_text(f"{server.proc.pid}\n")          # left behind by a casino that died
    stale = cli("restart", "--pid-file", str(server.pid_file))
    assert stale.returncode == 1 and stale.stdout == ""
    assert stale.stderr.splitlines() == [
        f"casino restart: the casino of {server.pid_file} (pid {server.proc.pid}) is not running"]


async def test_restart_is_refused_in_one_process(casino, connect):
    """In one process there is no portal to keep the connections: `restart` answers
    with one line, and nobody is dropped or told anything."""
    from server.accounts.create import create_account
    await create_account(casino.accounts, casino.ledger, casino.passwords, "admin", PASSWORD, 1000)
    bystander = await connect(ttype="dumb")
    await login(bystander, "bea")
    admin = await connect(ttype="dumb")
    await login(admin, "admin", create=False)
    said = plain(await admin.cmd_expect("restart", "one process"))
    lines = [line for line in said.splitlines() if line.strip() and line.strip() != ">"]
    assert len(lines) == 1 and "runs in one process" in flat(said), said
    assert not casino.closing and not casino.stop_requested.is_set()
    heard = plain(await bystander.cmd_expect("balance", "Wallet:"))
    assert "Wallet: 1000 chips." in heard and "restart" not in heard, heard
    assert "Exits:" in plain(await admin.cmd("look"))


async def test_the_game_process_stops_when_the_portal_dies(tmp_path):
    """kill -9 of the portal: its clients are disconnected, as in one process; the game
    process sees the link end and stops by itself, refunding every stake, so the ledger
    check finds no open hold."""
    with portal_server(tmp_path) as server:
        players = await crowd(server, telnet=4, web=1)
        assert any(p.staked for p in players)
        game = server.game_pid()
        try:
            server.proc.send_signal(signal.SIGKILL)
            server.proc.wait(timeout=10)
            for p in players:
                if p.web:
                    await p.client.read_until_closed(timeout=10)
                    assert p.client.closed
                else:
                    await p.client.read_until_closed(timeout=10)      # raises unless it ends
        finally:
            await close_all([p.client for p in players])
        deadline = time.monotonic() + 15
        while alive(game):
            assert time.monotonic() < deadline, f"game process {game} still running"
            await asyncio.sleep(0.05)      # polling another process's exit, not game time
    log = server.log_text()
    assert "event=portal_gone" in log and "event=shutdown" in log, log[-3000:]
    assert "Traceback" not in log, log[-3000:]
    report = ledger_check(server.url)
    assert report["ok"] and report["open_holds"] == 0, report


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie, exited but not yet reaped by its new parent, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def test_lines_typed_during_a_restart_are_handled_once(tmp_path):
    """What a player types while the game process restarts waits in the portal (or is
    handled before it stops) and is handled once: never lost, never twice."""
    with portal_server(tmp_path) as server:
        players = await crowd(server, telnet=3, web=0)
        talker, listener = players[0], players[2]
        assert (talker.room, listener.room) == ("The Lobby", "The Pig Parlour")
        await listener.do("east", "Exits:")           # now in the lobby with the talker
        admin = await operator(server)
        try:
            await admin.send("restart")
            await talker.client.send("say first word")           # at once, as the restart begins
            await admin.expect("Restarting now", timeout=30)
            await talker.client.send("say second word")          # while the game process stops
            said = await talker.expect("You are logged in again.")
            await talker.client.send("say third word")           # as soon as it is back
            said += await talker.expect('You say, "third word"')
            heard = await listener.expect(f'{talker.name} says, "third word"')
            said, heard = flat(said), flat(heard)
            for word in ("first", "second", "third"):
                assert said.count(f'You say, "{word} word"') == 1, (word, said)
                assert heard.count(f'{talker.name} says, "{word} word"') == 1, (word, heard)
            # typed once the old game process had stopped taking input: run by the new one
            assert said.index("You are logged in again.") < said.index('You say, "second word"'), said
        finally:
            await close_all([p.client for p in players] + [admin])
        stopped_cleanly(server)


async def test_the_browser_page_gets_its_stats_view_through_the_portal(tmp_path):
    """`stats` in the browser: the text, and the Char.Stats data frame for the page's own
    view, which the game process sends through the portal (a `data` message); the
    tables' Casino packages and Room.Info come as data frames too (GMCP through the
    portal, kept by the page's channel there), never Char.Status."""
    with portal_server(tmp_path) as server:
        page = await WebClient.open(server.web_port)
        try:
            await page.read_until_prompt()
            assert "You have 1000 chips" in plain(await page.cmd(f"create wanda {PASSWORD}", timeout=30))
            await page.cmd("north")
            assert "Welcome to" in plain(await page.cmd("play craps"))
            await page.cmd("bet pass 10")
            for _ in range(60):                  # the shooter rolls until the pass bet is decided
                await page.cmd("roll")
                if "Your bets" not in plain(await page.cmd("bets")):
                    break
            else:
                raise AssertionError("the pass bet was not decided in 60 rolls")
            assert "Total" in plain(await page.cmd("stats"))
            packages = [p for p, _ in page.data]
            assert [p for p in packages if p.startswith("Char.")] == ["Char.Stats"], packages
            assert {"Room.Info", "Casino.Table", "Casino.Roll"} <= set(packages), packages
            assert set(packages) <= {"Char.Stats", "Room.Info", "Casino.Table", "Casino.Roll",
                                     "Casino.Settlement"}, packages
            table = next(d for p, d in page.data if p == "Casino.Table")
            assert isinstance(table, dict) and table["game"] == "bank_craps", table
            stats = next(d for p, d in page.data if p == "Char.Stats")
            assert isinstance(stats, dict) and stats["name"] == "wanda", stats
        finally:
            await page.close()
        assert server.stop() == 0

"""The hostile soak's part three: the six attacks of issue 42 against `casino serve`.

One casino as shipped runs it (`python -m server`: the portal and its game
process), on PostgreSQL when it is installed (attack 6 needs a database that
can go away; tests/support/postgres.py starts one of its own), else on SQLite
without attack 6. An honest telnet player, `victim`, times LOOKS `look`s
before anything (the baseline of this run) and after each attack. Each attack
is the end-to-end tests' own code (tests/support/attacks.py); after each,
`casino ledger check` runs on the live database and must be ok.

1. 40 anonymous sockets each answer TTYPE with 9,000 bytes, then `casino
   restart`: the seconds until the victim and all 40 are answered again.
2. A logged-in player with a live stake sends one 360,000-byte TTYPE IS,
   then `casino restart`: the seconds until both are logged in again.
3. A browser `say`s a lone surrogate: the other browser hears U+FFFD.
4, 5. bench/bench_floods.py's floods (anonymous CR LF sockets, logged-in
   players sending `look`), on a server of their own with the shipped
   limits, smaller than `python -m bench floods` (--flood-* options).
6. The database refuses every new connection, then `casino restart`; and,
   once the new game process has served CRASH_SOON seconds (so that its
   death is a crash, not one more failed start), PostgreSQL stops and the
   game process is killed: the seconds from the database's return until the
   victim and a player with a pass bet open are logged in again, and the
   stake the kill left open refunded by the ledger's recovery.

Each attack's line ends in its target and PASS or FAIL: `ledger check` ok
with no chip lost (its conservation invariant: the balances add up to what
was minted) after each, SIGTERM's exit 0 at the end; for 4 and 5 the
victim's p99 at most 100 ms over the floods' baseline and the portal's RSS
at most 100 MiB over it; for 6 the open stake refunded. With `--runs N` the
bench prints each run and then the medians of the runs.

The config is the tests' (`config_of`): input_bytes_per_second raised
(attack 2's subnegotiation costs 17 million bytes' worth: minutes at the
shipped budget), the per-address caps raised for clients that all come from
127.0.0.1, and a bank craps table that never rolls by itself.
"""
from __future__ import annotations

import asyncio
import json
import re
import statistics
import subprocess
import sys
import time
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from support import attacks  # noqa: E402
from support.postgres import Cluster, bindir  # noqa: E402
from support.siblings import sibling  # noqa: E402
from support.telnet import Client, login, plain  # noqa: E402
from support.web import WebClient  # noqa: E402

from bench import bench_floods  # noqa: E402
from bench.bench_server import free_port, wait_listening  # noqa: E402
from server.portal.game_process import CRASH_SOON  # noqa: E402

PASSWORD = "honestpass1"
LOOKS = 40
LOOK_EVERY = 0.05
FAST_BUDGET = 40_000_000
WAITING = "The casino is waiting for its database; your connection is kept."
portal_helpers = sibling("portal_helpers", ROOT / "tests" / "e2e" / "test_portal.py")


def config_of(work: Path) -> Path:
    """The end-to-end tests' config (test_portal.py's crowd_config: the per-address caps
    raised, a bank craps table that never rolls by itself, so a stake stays open until
    the attack ends it) with test_hostile_three's input budget."""
    config = portal_helpers.crowd_config(work)
    server = config / "server.yaml"
    text, n = re.subn(r"(\n\s+input_bytes_per_second:) \S+", rf"\1 {FAST_BUDGET}", server.read_text())
    assert n == 1
    server.write_text(text)
    return config


def game_pid(portal: int) -> int:
    children = [int(p) for task in Path(f"/proc/{portal}/task").iterdir()
                for p in (task / "children").read_text().split()]
    assert len(children) == 1, children
    return children[0]


def ledger(url: str) -> dict[str, float]:
    """`casino ledger check` on the live database: ok (1.0 or 0.0; its conservation
    invariant is "no chip lost"), open holds, and chips minted less chips held anywhere."""
    done = attacks.casino_cli("ledger", "check", "--database", url, "--json")
    report = json.loads(done.stdout) if done.stdout.strip().startswith("{") else {}
    ok = done.returncode == 0 and bool(report.get("ok"))
    return {"ledger_ok": float(ok), "open_holds": float(report.get("open_holds", -1)),
            "chips_lost": float(report.get("minted", 0)) - float(report.get("balances", 0))}


async def looks(c: Client, n: int = LOOKS) -> list[float]:
    """`n` looks, each timed from the line sent to the prompt after its `Exits:` line."""
    out = []
    for _ in range(n):
        start = time.perf_counter()
        await c.cmd_expect("look", "Exits:", timeout=60)
        out.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(LOOK_EVERY)        # a player's pace (real time: a bench)
    return out


def p99(ms: list[float]) -> float:
    s = sorted(ms)
    return s[max(0, int(len(s) * 0.99) - 1)]


class Casino:
    """`python -m server` on `url`, free ports, its log in work/server.log."""

    def __init__(self, work: Path, url: str) -> None:
        self.url, self.port, self.web_port = url, free_port(), free_port()
        self.pid_file, self.log = work / "casino.pid", work / "server.log"
        made = attacks.casino_cli("account", "create", "admin", "--database", url, stdin="opsecret1\n")
        assert made.returncode == 0, made.stderr
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "server", "--port", str(self.port), "--web-port", str(self.web_port),
             "--database", url, "--config", str(config_of(work)), "--pid-file", str(self.pid_file)],
            cwd=ROOT, stdout=self.log.open("w"), stderr=subprocess.STDOUT)
        why = lambda: self.log.read_text(errors="replace")[-2000:]      # noqa: E731
        wait_listening(self.web_port, self.proc, 60, why)
        wait_listening(self.port, self.proc, 60, why)

    def logged(self, text: str) -> bool:
        return text in self.log.read_text(errors="replace")

    def stop(self) -> int | None:
        self.proc.terminate()
        try:
            return self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            return None


async def until_logged(casino: Casino, text: str, within: float = 60.0) -> None:
    deadline = time.monotonic() + within
    while not casino.logged(text):
        assert time.monotonic() < deadline, f"{text!r} never logged"
        await asyncio.sleep(0.05)               # polling a real process's log


async def attack_1(casino: Casino, victim: Client) -> dict[str, float]:
    anon = await attacks.long_ttypes(casino.port, 40)
    start = time.monotonic()
    await attacks.restart_from_the_shell(casino.pid_file)
    await victim.expect("You are logged in again.", timeout=60)
    for c in anon:
        await c.expect("Please log in again.", timeout=60)
        assert "Name:" in plain(await c.cmd("", timeout=30))
    back = time.monotonic() - start
    for c in anon:
        await c.close()
    return {"back_s": back}


async def attack_2(casino: Casino, victim: Client) -> dict[str, float]:
    hostile = await Client.open(casino.port)
    assert "You have 1000 chips" in plain(await login(hostile, "hostile", PASSWORD))
    await hostile.cmd_expect("north", "Exits:")
    await hostile.cmd_expect("play craps", "joins the table")
    await hostile.cmd_expect("bet pass 10", "Bet accepted: pass 10.")
    attacks.huge_ttype(hostile)
    during = await looks(victim, LOOKS // 2)       # while the game process parses it
    await until_logged(casino, "length=360000")
    await hostile.cmd_expect("look", "Exits:", timeout=30)
    start = time.monotonic()
    await attacks.restart_from_the_shell(casino.pid_file)
    for c in (hostile, victim):
        await c.expect("You are logged in again.", timeout=60)
    back = time.monotonic() - start
    assert "Wallet: 1000 chips." in plain(await hostile.cmd_expect("balance", "Wallet:"))
    await hostile.close()
    return {"during_p50": statistics.median(during), "during_p99": p99(during), "back_s": back}


async def attack_3(casino: Casino, victim: Client) -> dict[str, float]:
    speaker, listener = await WebClient.open(casino.web_port), await WebClient.open(casino.web_port)
    for name, web in (("speaker", speaker), ("listener", listener)):
        await web.read_until_prompt()
        assert "You have 1000 chips" in plain(await web.cmd(f"create {name} {PASSWORD}", timeout=30))
    await attacks.lone_surrogate(speaker)
    assert attacks.SURROGATE_HEARD in plain(await listener.expect("odd", timeout=30))
    assert attacks.SURROGATE_HEARD in plain(await victim.expect("odd", timeout=30))
    await speaker.send("say still here")
    assert "still here" in plain(await listener.expect("still here", timeout=30))
    for web in (speaker, listener):
        await web.close()
    return {}


async def staked(casino: Casino) -> Client:
    """A player with a pass bet open at bank craps (its table never rolls by itself here)."""
    staker = await Client.open(casino.port)
    assert "chips" in plain(await login(staker, "staker", PASSWORD))
    await staker.cmd_expect("north", "Exits:")
    await staker.cmd_expect("play craps", "joins the table")
    await staker.cmd_expect("bet pass 10", "Bet accepted: pass 10.")
    return staker


async def whole(staker: Client) -> None:
    """Back, the stake refunded: every chip in the wallet, nothing held."""
    said = plain(await staker.cmd_expect("balance", "Wallet:"))
    assert "Wallet: 1000 chips." in said and "Held at" not in said, said


def refunded(casino: Casino) -> int:
    """Stakes the ledger's recoveries refunded, from the log."""
    return sum(int(n) for n in re.findall(r"recovery done .*refunded=(\d+)", casino.log.read_text(errors="replace")))


async def attack_6(casino: Casino, victim: Client, cluster: Cluster) -> dict[str, float]:
    """The database refuses, then `restart`; back; served CRASH_SOON (so its death is a
    crash, not a failed start); then PostgreSQL stopped and the game process killed.
    Each half with a stake open, each timed from the database's return."""
    name = casino.url.rsplit("/", 1)[1]
    staker = await staked(casino)
    attacks.refuse_connections(cluster.url(), name)
    await attacks.restart_from_the_shell(casino.pid_file)
    for c in (victim, staker):
        await c.read_until_text(WAITING, timeout=60)
    await until_logged(casino, "event=game_start_failed")
    start = time.monotonic()
    attacks.refuse_connections(cluster.url(), name, refuse=False)
    for c in (victim, staker):
        await c.expect("You are logged in again.", timeout=120)
    refused_back = time.monotonic() - start
    await whole(staker)                           # a clean stop refunded it
    await staker.cmd_expect("play craps", "joins the table")
    await staker.cmd_expect("bet pass 10", "Bet accepted: pass 10.")
    before = refunded(casino)
    await asyncio.sleep(CRASH_SOON)               # real time: the portal's own measure
    attacks.stop_database(cluster, game_pid(casino.proc.pid))
    for c in (victim, staker):
        await c.read_until_text(WAITING, timeout=60)
    start = time.monotonic()
    cluster.pg_ctl("start", "-w")
    seen = [plain(await c.expect("You are logged in again.", timeout=120)) for c in (victim, staker)]
    stopped_back = time.monotonic() - start
    if "Notice:" not in seen[1]:                  # the recovery's word on the stake, at login
        seen[1] += plain(await staker.expect("Notice:", timeout=30))
    assert re.search(r"Your stake of 10 chips at table bank_craps was still open", seen[1]), seen[1]
    await whole(staker)                           # the ledger's recovery refunded it
    await staker.close()
    return {"refused_back_s": refused_back, "stopped_back_s": stopped_back,
            "refunded": float(refunded(casino) - before)}


def run_issue42(work: Path, *, floods: tuple[int, int, float] = (200, 200, 10.0)) -> dict[str, dict[str, float]]:
    """Each attack's figures: the victim's look p50/p99 after it (ms), its own
    figures, and whether `ledger check` was ok (1.0) after it; "baseline" first."""
    cluster = Cluster().start() if bindir() is not None else None
    url = cluster.create_database() if cluster is not None else f"sqlite:///{work / 'casino.db'}"
    figures: dict[str, dict[str, float]] = {}
    casino = Casino(work, url)
    try:
        async def main() -> None:
            victim = await Client.open(casino.port)
            assert "You have 1000 chips" in plain(await login(victim, "victim", PASSWORD))
            base = await looks(victim)
            figures["baseline"] = {"p50": statistics.median(base), "p99": p99(base)}
            steps = [("1 long TTYPEs, restart", attack_1), ("2 huge TTYPE, restart", attack_2),
                     ("3 lone surrogate", attack_3)]
            for name, step in steps:
                got = await step(casino, victim)
                after = await looks(victim)
                figures[name] = {**got, "p50": statistics.median(after), "p99": p99(after), **ledger(url)}
            if cluster is not None:
                got = await attack_6(casino, victim, cluster)
                after = await looks(victim)
                figures["6 database away"] = {**got, "p50": statistics.median(after), "p99": p99(after),
                                              **ledger(url)}
            await victim.close()
        asyncio.run(main())
        code = casino.stop()
        figures["stop"] = {"exit": float(-1 if code is None else code), **ledger(url)}
    finally:
        if casino.proc.poll() is None:
            casino.proc.kill()
        if cluster is not None:
            with suppress(Exception):
                cluster.stop()
    anon, logged_in, seconds = floods
    flood_work = work / "floods"
    flood_work.mkdir()
    got = bench_floods.run_floods(flood_work, anon=anon, logged_in=logged_in, seconds=seconds, baseline=5.0)
    books = ledger(f"sqlite:///{flood_work / 'floods.db'}")
    for phase, name in (("alone", "4-5 floods: baseline"), ("blank", f"4 {anon} CR LF sockets"),
                        ("look", f"5 {logged_in} players sending look")):
        f = got[phase]
        figures[name] = {"p50": f["p50"], "p99": f["p99"], "portal_mib": f["portal_mib"],
                         "game_mib": f["game_mib"], "lines": f["lines"], "closed": f.get("closed", 0.0),
                         **({} if phase == "alone" else books)}
    return figures


BOOKS = ("ledger_ok", "open_holds", "chips_lost")
FLOOD_BASE = "4-5 floods: baseline"


def baseline_of(figures: dict[str, dict[str, float]], name: str) -> dict[str, float]:
    """Attacks 4 and 5 against the floods' own baseline (a server of their own), the rest
    against the victim's looks before attack 1."""
    return figures.get(FLOOD_BASE, figures["baseline"]) if name.startswith(("4", "5")) else figures["baseline"]


def target(figures: dict[str, dict[str, float]], name: str) -> tuple[bool, str] | None:
    """Whether `name` met issue 42's targets, and which: `ledger check` ok and no chip
    lost after each; for 4 and 5 the victim's p99 at most +100 ms and the portal at
    most +100 MiB; for 6 the stake the kill left open refunded. None: no target."""
    f = figures[name]
    if "ledger_ok" not in f:
        return None
    ok = f["ledger_ok"] == 1.0 and f["chips_lost"] == 0
    said = ["ledger ok, no chip lost"]
    if name.startswith(("4 ", "5 ")):
        base = baseline_of(figures, name)
        ok = ok and f["p99"] - base["p99"] <= 100 and f["portal_mib"] - base["portal_mib"] <= 100
        said.append("p99 +100 ms, portal +100 MiB at most")
    if name.startswith("6 "):
        ok = ok and f["refunded"] >= 1
        said.append("the open stake refunded")
    if name == "stop":
        ok = ok and f["exit"] == 0
        said.append("SIGTERM exit 0")
    return ok, "; ".join(said)


def describe42(figures: dict[str, dict[str, float]]) -> list[str]:
    out = []
    for name, f in figures.items():
        got = target(figures, name)
        books = (f"ledger check ok: {bool(f['ledger_ok'])}, {f['open_holds']:.0f} open holds, "
                 f"{f['chips_lost']:.0f} chips lost" if "ledger_ok" in f else "")
        extra = "; ".join(f"{k} {v:.0f}" if v >= 1000 else f"{k} {v:.1f}"
                          for k, v in f.items() if k not in ("p50", "p99", "exit", *BOOKS))
        if name == "stop":
            line = f"SIGTERM exit {f['exit']:.0f}; {books}"
        else:
            line = f"{name}: look p50 {f['p50']:.1f} ms p99 {f['p99']:.1f} ms"
            base = baseline_of(figures, name)
            if base is not f:
                line += (f" ({f['p50'] / base['p50']:.2f}x, {f['p99'] / base['p99']:.2f}x the baseline; "
                         f"p99 {f['p99'] - base['p99']:+.1f} ms"
                         + (f", portal {f['portal_mib'] - base['portal_mib']:+.1f} MiB" if "portal_mib" in f else "")
                         + ")")
            line += "".join(f"; {part}" for part in (books, extra) if part)
        if got is not None:
            line += f"; target ({got[1]}): {'PASS' if got[0] else 'FAIL'}"
        out.append(line)
    if "6 database away" not in figures:
        out.append("6 database away: not run (no PostgreSQL installed)")
    return out


def passed(figures: dict[str, dict[str, float]]) -> bool:
    """Every target of `target` met."""
    return all(got[0] for name in figures if (got := target(figures, name)) is not None)


def medians(runs: list[dict[str, dict[str, float]]]) -> dict[str, dict[str, float]]:
    """Each figure's median over the runs (the names of the first run)."""
    return {name: {k: statistics.median(r[name][k] for r in runs) for k in f}
            for name, f in runs[0].items()}

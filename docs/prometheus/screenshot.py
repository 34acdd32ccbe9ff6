"""Make docs/prometheus-graph.png, the picture in docs/operating.md ("Metrics"):
a real run, photographed.

    .venv/bin/python docs/prometheus/screenshot.py            # 6 players, 150 s: about 3 minutes
    .venv/bin/python docs/prometheus/screenshot.py --players 6 --seconds 300 --out /tmp/graph.png

It starts a `casino serve` with `server.metrics` on (the portal and its game
process, on free ports, in a temporary directory), Debian's `prometheus`
scraping both every second, and real telnet players who come in one after
another, play (simplified craps, roulette, blackjack in turn, paced as a person
types) and walk the casino, and one who leaves before the end. Then headless
Chromium photographs Prometheus' own graph page (its classic UI, the one
Debian's package ships) with four panels: players, reply time p50 and p99,
commands a second by result, chips settled a second by game. Everything it
started is stopped before it exits. Needs `prometheus` and `chromium` (Debian's);
`pngquant` or `optipng`, where installed, make the picture smaller.
"""
from __future__ import annotations

import argparse
import asyncio
import contextlib
import datetime
import html
import http.server
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import types
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))     # bench/, server/ and tests/ of this checkout
# the repository's tests/ (a package another installed distribution also names `tests`)
sys.modules.setdefault("tests", types.ModuleType("tests"))
sys.modules["tests"].__path__ = [str(ROOT / "tests")]

from tests.support import prometheus as live   # noqa: E402
from tests.support.telnet import Client, login, plain   # noqa: E402

SEED = 41
PANELS = (      # one graph each on the page
    "sum(casino_players)",                   # players logged in
    "histogram_quantile(0.99, sum by (le) (rate(casino_reply_seconds_bucket[30s])))",   # reply p99
    "sum by (result) (rate(casino_commands_total[30s]))",       # commands a second
    "sum by (game) (rate(casino_chips_settled_total[1m]))",     # chips settled a second
)
FRAME = (640, 950)      # each graph page's frame, in pixels
CUT = 95                # of its top: the navigation bar


async def pause(rng: random.Random) -> None:
    await asyncio.sleep(rng.uniform(0.4, 1.2))      # a person's pace, under the command cap


class Player(Client):
    name = ""


SHOW = False       # --show: each line sent and the reply's last line, to see what the players do


async def say(client: Player, line: str, rng: random.Random) -> str:
    await pause(rng)
    reply = plain(await client.cmd(line, timeout=30))
    if SHOW:
        last = [text for text in reply.splitlines() if text.strip(" >")][-1:]
        print(f"{client.name}> {line}: {' '.join(last)}", flush=True)
    return reply


async def craps(client: Player, rng: random.Random, until: float, room: str = "south",
                table: str = "craps", *first: str) -> None:
    """A pass line bet and rolls to its decision, again and again: simplified craps at
    the quiet table (south), its practice table, or bank craps (north)."""
    await say(client, room, rng)
    for line in (f"play {table}", *first):
        await say(client, line, rng)
    while time.monotonic() < until:
        await say(client, f"bet pass {rng.choice((5, 10, 25))}", rng)
        for _ in range(30):
            reply = await say(client, "roll", rng)
            if any(done in reply for done in ("new bet", "no bets down", "bet first")) or time.monotonic() >= until:
                break


async def bank_craps(client: Player, rng: random.Random, until: float) -> None:
    await craps(client, rng, until, "north")


async def practice_craps(client: Player, rng: random.Random, until: float) -> None:
    await craps(client, rng, until, "south", "classic_craps", "seed glibc 41")


async def roulette(client: Player, rng: random.Random, until: float) -> None:
    for line in ("north", "east", "play roulette"):
        await say(client, line, rng)
    while time.monotonic() < until:
        await say(client, f"bet {rng.choice(('red', 'black', 'odd', 'even'))} {rng.choice((5, 10))}", rng)
        await say(client, "spin", rng)
        await asyncio.sleep(3.5)         # the ball drops 3 s after the spin


async def blackjack(client: Player, rng: random.Random, until: float) -> None:
    await say(client, "up", rng)
    reply = await say(client, "play blackjack", rng)
    while time.monotonic() < until:
        if "Insurance?" in reply or "insurance first" in reply:
            line = "insurance no"
        elif "Your turn" in reply:       # "Hit, stand or double?", then "Hit or stand?"
            totals = re.findall(r"\((?:soft )?(\d+)\) against", reply)
            line = "hit" if totals and int(totals[-1]) < 17 else "stand"
        elif "Bet accepted" in reply or "the cards are out" in reply:
            line = "table"              # the cards come by themselves
        else:
            line = "bet 10"
        reply = await say(client, line, rng)


async def wander(client: Player, rng: random.Random, until: float) -> None:
    while time.monotonic() < until:
        await say(client, rng.choice(("look", "who", "help", "north", "south", "say evening", "nosuchword")), rng)


GAMES = (craps, roulette, blackjack, wander, bank_craps, practice_craps)


async def player(port: int, i: int, start: float, until: float) -> None:
    rng = random.Random(SEED + i)
    await asyncio.sleep(start)
    # each from an address of its own: the casino makes at most so many accounts an address an hour
    client = await Player.open(port, ttype="dumb", source=f"127.0.0.{i + 2}")
    assert isinstance(client, Player)
    client.name = f"player{i + 1}"
    await login(client, client.name)
    try:
        await GAMES[i % len(GAMES)](client, rng, until)
        await say(client, "leave", rng)
    finally:
        client.writer.write(b"quit\r\n")
        await client.writer.drain()
        client.writer.close()


async def play(port: int, players: int, seconds: float) -> None:
    """`players` come in one every few seconds over the first third of the run;
    the last of them leaves at two thirds, the others play to the end."""
    begin = time.monotonic()
    end = begin + seconds
    step = seconds / 3 / max(players, 1)
    await asyncio.gather(*(player(port, i, i * step, begin + seconds * 2 / 3 if i == players - 1 and players > 1
                                  else end) for i in range(players)))


def graph_url(prom: int, expr: str, minutes: int) -> str:
    """Prometheus' graph page (its classic UI, the one Debian ships) for one query."""
    return f"http://127.0.0.1:{prom}/classic/graph?" + urllib.parse.urlencode(
        {"g0.expr": expr, "g0.tab": "0", "g0.range_input": f"{minutes}m", "g0.stacked": "0"})


def page(prom: int, minutes: int, caption: str) -> str:
    """Prometheus' graph page, once a panel, two by two, under one caption (each page
    in a frame of its own, its navigation bar cut off)."""
    frames = "".join(f'<div class="panel"><iframe src="{html.escape(graph_url(prom, expr, minutes))}">'
                     "</iframe></div>" for expr in PANELS)
    return ("<!doctype html><meta charset=utf-8><style>"
            "body{margin:0;font:15px sans-serif;background:#fff}"
            "p{margin:6px 10px}"
            ".grid{display:grid;grid-template-columns:1fr 1fr}"
            f".panel{{height:{FRAME[1] - CUT}px;overflow:hidden}}"
            f"iframe{{border:0;width:{FRAME[0]}px;height:{FRAME[1]}px;margin-top:-{CUT}px}}"
            f"</style><p>{html.escape(caption)}</p><div class=grid>{frames}</div>")


@contextlib.contextmanager
def serving(text: str) -> Iterator[str]:
    """`text` as a page on a local port while Chromium takes it (a file:// page may not
    frame http ones)."""
    body = text.encode()

    class One(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:      # noqa: N802 - the library's name
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), One)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def photograph(url: str, out: Path, size: tuple[int, int]) -> None:
    chromium = shutil.which("chromium") or "chromium"
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run([chromium, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                        f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}",
                        "--virtual-time-budget=15000", f"--screenshot={out}", url],
                       check=True, capture_output=True, timeout=120)
    if shutil.which("pngquant"):
        subprocess.run(["pngquant", "--force", "--skip-if-larger", "--output", str(out), "32", str(out)],
                       check=False, timeout=60)
    elif shutil.which("optipng"):
        subprocess.run(["optipng", "-quiet", "-o2", str(out)], check=False, timeout=120)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--players", type=int, default=6)
    p.add_argument("--seconds", type=float, default=150.0, help="how long they play")
    p.add_argument("--out", type=Path, default=ROOT / "docs" / "prometheus-graph.png")
    p.add_argument("--show", action="store_true", help="print what each player types and reads")
    args = p.parse_args()
    global SHOW
    SHOW = args.show
    with tempfile.TemporaryDirectory(prefix="casino-shot-") as tmp:
        with live.casino(Path(tmp), SEED) as (port, metrics), \
                live.prometheus(Path(tmp), [metrics, metrics + 1]) as prom:
            day = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            asyncio.run(play(port, args.players, args.seconds))
            time.sleep(5)                    # the last scrapes after the players are gone
            minutes = int(args.seconds // 60) + 1
            wrapper = page(prom, minutes, f"casino serve (portal and game process), {day}: "
                           f"{args.players} telnet players over {args.seconds:g} s, scraped every second")
            with serving(wrapper) as url:
                photograph(url, args.out.resolve(), (2 * FRAME[0], 2 * (FRAME[1] - CUT) + 30))
    print(f"{args.out}: {args.players} players, {args.seconds:g} s, {args.out.stat().st_size} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

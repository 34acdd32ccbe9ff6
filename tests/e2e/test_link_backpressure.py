"""Backpressure on the portal's link (issue 42): a paused game process, a browser flood.

A browser's lines cross the portal's link to the game process. With the game
process stopped (SIGSTOP) and 60 logged-in browsers typing as fast as their
byte budget lets them (raised here so the flood is quick: 25 MB of lines in a
few seconds), the portal holds at most what the link's cap and each
connection's wait of 20 lines allow: its RSS stays within a few MiB of what
it was (without the cap it held every line: 51 MiB more), and each browser
reads that its lines were not sent, never nothing. After SIGCONT every
connection, browser and telnet, answers `look`, and `ledger check` is ok.
"""
from __future__ import annotations

import asyncio
import os
import re
import signal
import threading
import time
from pathlib import Path

from support.siblings import sibling
from support.telnet import Client, login, plain
from support.web import WebClient

ph = sibling("portal_helpers", Path(__file__).with_name("test_portal.py"))

BROWSERS = 60
FRAMES = 14                  # frames each browser sends, each of LINES lines of 500 characters:
LINES = 60                   # 25 MB in all, and with the last frame and line 901 lines a browser,
LINE = "zq" + "x" * 498      # within the game's command rate (its burst of 1000 lines)
BUSY = "The casino is busy; that line was not sent."
GROWTH_MIB = 25              # what the portal may grow by under the flood (12 seen; 51 without the cap)


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no VmRSS for {pid}")


class Peak:
    """A process's RSS sampled every 50 ms in a thread, the highest kept."""

    def __init__(self, pid: int) -> None:
        self.pid, self.peak, self.done = pid, rss_mib(pid), False
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        while not self.done:
            self.peak = max(self.peak, rss_mib(self.pid))
            time.sleep(0.05)     # sampling a real process, not game time

    def stop(self) -> float:
        self.done = True
        self.thread.join()
        return max(self.peak, rss_mib(self.pid))


def flood_config(work: Path) -> Path:
    """The crowd's config, with a byte budget that floods the link in seconds and a
    command rate that lets the game process answer every line it was sent."""
    config = ph.crowd_config(work)
    server = config / "server.yaml"
    text = server.read_text()
    for key, value in (("input_bytes_per_second", 1_000_000), ("commands_per_second", 1000)):
        text, n = re.subn(rf"(\n\s+{key}:) \S+", rf"\1 {value}", text)
        assert n == 1, key
    server.write_text(text)
    return config


async def browser(server, i: int) -> WebClient:
    client = await WebClient.open(server.web_port)
    await client.read_until_prompt()
    said = await client.cmd(f"create b{i:02d} {ph.PASSWORD}", timeout=60)
    assert "You have 1000 chips" in plain(said), said
    return client


def refused(seen: str) -> int:
    """The lines the portal said it did not send."""
    return seen.count(BUSY) + sum(int(n) for n in re.findall(r"The casino is busy; (\d+) lines were not sent", seen))


async def flood(client: WebClient, full: asyncio.Event) -> tuple[str, int]:
    """FRAMES frames of lines; once the link is full (some browser was told its lines
    were not sent), one more frame, which fills this connection's wait of 20, and one
    more line: what the browser reads up to the refusal of that line, and how many
    of its lines the portal took (sent on, or kept to send)."""
    async def read() -> str:
        seen = ""
        while BUSY not in seen:
            seen += plain(await client.read_until_prompt(timeout=120))
            if "lines were not sent" in seen:
                full.set()
        return seen
    reading = asyncio.create_task(read())
    frame = "\n".join([LINE] * LINES)
    for _ in range(FRAMES):
        await client.send(frame)
    await full.wait()
    await client.send(frame)
    await client.send("look")
    seen = await reading
    return seen, (FRAMES + 1) * LINES + 1 - refused(seen)


async def answered(client: WebClient, taken: int) -> None:
    """Every line the portal took is answered, in order, then a `look`."""
    seen = ""
    while seen.count("No such command") < taken:
        seen += plain(await client.read_until_prompt(timeout=120))
    assert seen.count("No such command") == taken, seen[-300:]
    await client.send("look")
    assert "The Lobby" in await client.expect("Exits:", timeout=120)


async def test_a_paused_game_process_under_a_browser_flood_keeps_the_portal_small(tmp_path):
    with ph.portal_server(tmp_path, flood_config) as server:
        browsers = await ph.gather_bounded([browser(server, i) for i in range(BROWSERS)], limit=8)
        teller = await Client.open(server.port)
        assert "You have 1000 chips" in plain(await login(teller, "t00"))
        game, portal = server.game_pid(), server.proc.pid
        before = rss_mib(portal)
        os.kill(game, signal.SIGSTOP)
        try:
            peak = Peak(portal)
            full = asyncio.Event()
            said = await asyncio.gather(*(flood(b, full) for b in browsers))
            grown = peak.stop() - before
            assert grown < GROWTH_MIB, f"the portal grew {grown:.1f} MiB under the flood"
            for seen, taken in said:
                assert "lines were not sent" in seen, seen[-300:]     # told, never silently
                assert 20 <= taken <= FRAMES * LINES + 20, (taken, seen[-300:])   # its wait of 20 at least
        finally:
            os.kill(game, signal.SIGCONT)
        await asyncio.gather(*(answered(b, taken) for b, (_, taken) in zip(browsers, said)))   # read at once
        assert "The Lobby" in plain(await teller.cmd("look"))
        assert server.game_pid() == game         # not replaced: it was only slow
        await ph.close_all([*browsers, teller])
        ph.stopped_cleanly(server)             # and `ledger check` ok, no hold open

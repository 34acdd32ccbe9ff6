"""Several portals, for real: `casino serve` with `server.portals: 2`, a supervisor,
its game process and two portals sharing one telnet port and one web port.

The kernel spreads the connections over both portals (SO_REUSEPORT); each is
found out here by the sockets it holds (/proc). Players on either meet in the
same rooms; a restart or a kill -9 of the game process keeps everyone on both;
a portal killed disconnects its own players only, with a line, and the
supervisor starts another on the same port; the casino stops with a goodbye to
all. After each, every wallet is exact and `ledger check` ok."""
from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from pathlib import Path

from support.siblings import sibling
from support.telnet import Client, login, plain
from support.web import WebClient

portal_helpers = sibling("portal_helpers", Path(__file__).with_name("test_portal.py"))
ph = portal_helpers

PORTAL_LEFT = "The door you came in by closed. Connect again."


class Portals(ph.Server):
    """The supervisor (`proc`), its game process and its portals."""

    def _argv(self, pid: int) -> bytes:
        with contextlib.suppress(OSError):
            return Path(f"/proc/{pid}/cmdline").read_bytes()
        return b""

    def game_pid(self) -> int:
        [pid] = [p for p in self.children() if b"server.cli\0game" in self._argv(p)]
        return pid

    def portal_pids(self) -> list[int]:
        return sorted(p for p in self.children() if b"server.portal" in self._argv(p))


def two_portals_config(work: Path, portals: int = 2) -> Path:
    config = ph.crowd_config(work)
    server = config / "server.yaml"
    server.write_text(server.read_text().replace("server:\n", f"server:\n  portals: {portals}\n", 1))
    return config


def left_behind(pgid: int) -> list[str]:
    """The command lines of the processes still alive in process group `pgid`."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if fields[0] != "Z" and int(fields[2]) == pgid:
                out.append((stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode())
    return out


@contextlib.contextmanager
def portals_server(work: Path):
    """Two portals; once the test has stopped the casino, none of its processes is left
    (a portal that outlived its supervisor would dial for ever on the casino's port)."""
    with ph.portal_server(work, two_portals_config, Portals) as server:
        deadline = time.monotonic() + 30
        while len(server.portal_pids()) < 2:         # both listen before "Listening:" is logged
            assert time.monotonic() < deadline, server.log_text()
            time.sleep(0.05)     # real processes starting, not game time
        yield server
        assert server.proc.poll() is not None, "the test stops the casino"
        deadline = time.monotonic() + 10
        while left := left_behind(server.proc.pid):
            assert time.monotonic() < deadline, left
            time.sleep(0.05)     # real processes exiting, not game time


def peer_ports(pid: int) -> set[int]:
    """The remote ports of the TCP connections process `pid` holds a descriptor of."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(fd)
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    ports = set()
    for table in ("tcp", "tcp6"):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/net/{table}").read_text().splitlines()[1:]:
                fields = line.split()
                if fields[9] in inodes:
                    ports.add(int(fields[2].rsplit(":", 1)[1], 16))
    return ports


def local_port(client: Client | WebClient) -> int:
    info = (client.ws.get_extra_info("sockname") if isinstance(client, WebClient)
            else client.writer.get_extra_info("sockname"))
    return int(info[1])


def by_portal(server: Portals, players: list) -> dict[int, list]:
    """Each portal's pid, with the players whose connection it holds."""
    held = {pid: peer_ports(pid) for pid in server.portal_pids()}
    out: dict[int, list] = {pid: [] for pid in held}
    for p in players:
        [pid] = [pid for pid, ports in held.items() if local_port(p.client) in ports]
        out[pid].append(p)
    return out


async def crowd_on_both(server: Portals, telnet: int, web: int) -> list:
    """A crowd with players on each portal (the kernel's choice: more are made until it is)."""
    players = await ph.crowd(server, telnet=telnet, web=web)
    while min(len(ps) for ps in by_portal(server, players).values()) < 2:
        assert len(players) < telnet + 40, "the kernel gave every connection to one portal"
        players.append(await ph.make_player(server, len(players), False))
    return players


async def test_two_portals_share_a_port_and_a_restart_or_a_crash_drops_nobody(tmp_path):
    """Players on both portals, in the same rooms: a `say` on one portal is heard on
    the other; the operator's `restart`, then a kill -9 of the game process, log
    every player of both portals in again where they were, with every chip."""
    with portals_server(tmp_path) as server:
        players = await crowd_on_both(server, telnet=12, web=3)
        admin = await ph.operator(server)
        try:
            held = by_portal(server, players)
            assert len(held) == 2 and all(len(ps) >= 2 for ps in held.values()), held
            here, there = ([p for p in ps if not p.web and p.room == "The Lobby"] for ps in held.values())
            if here and there:                # the same room across portals: one casino
                await here[0].client.send("say hello from the other door")
                seen = await there[0].expect("hello from the other door")
                assert f"{here[0].name} says" in ph.flat(seen), seen
            first = server.game_pid()
            said = plain(await admin.cmd_expect("restart", "Restarting now"))
            assert "Restarting now: everyone stays connected." in said, said
            await ph.through_a_restart(server, players, [], after_failure=False)
            await admin.expect("You are logged in again.", timeout=30)
            for p in players:
                p.staked = False              # the restart's table close refunded every stake
            second = server.game_pid()
            assert second != first
            os.kill(second, signal.SIGKILL)
            await ph.through_a_restart(server, players, [], after_failure=True)
            await admin.expect("You are logged in again.", timeout=30)
            assert server.game_pid() != second and len(server.portal_pids()) == 2
        finally:
            await ph.close_all([p.client for p in players] + [admin])
        ph.stopped_cleanly(server)
    log = server.log_text()
    assert "(2 portals)" in log and "crashed=True" in log, log[-3000:]


async def test_a_killed_portal_drops_only_its_own_players(tmp_path):
    """kill -9 of one portal: its telnet players read the door closed and are
    disconnected, its browser players too; the other portal's players play on and
    read nothing of it; the supervisor starts another portal on the same port, where
    the disconnected log in again, to their chips."""
    with portals_server(tmp_path) as server:
        players = await crowd_on_both(server, telnet=12, web=3)
        try:
            held = by_portal(server, players)
            victim, survivor = sorted(held, key=lambda pid: -len(held[pid]))
            os.kill(victim, signal.SIGKILL)
            for p in held[victim]:
                if p.web:                     # its WebSocket was the dead portal's own
                    await p.client.read_until_closed(timeout=30)
                    assert p.client.closed, p.name
                else:
                    seen = plain(await p.client.read_until_closed(timeout=30))
                    assert PORTAL_LEFT in seen, (p.name, seen)
            for p in held[survivor]:
                look = await p.look()
                assert p.room in look and "restarting" not in look.lower(), (p.name, look)
                balance = await p.do("balance", "Wallet:")
                assert "restarting" not in balance.lower(), balance
            deadline = time.monotonic() + 30
            while len(server.portal_pids()) < 2 or victim in server.portal_pids():
                assert time.monotonic() < deadline, server.log_text()[-3000:]
                await asyncio.sleep(0.05)   # a real process starting, not game time
            for p in held[victim][:4]:
                if p.web:
                    continue
                again = await Client.open(server.port)
                said = plain(await login(again, p.name, ph.PASSWORD, create=False))
                assert "You have" in said or "Held at" in said or "chips" in said, said
                p.client = again
        finally:
            await ph.close_all([p.client for p in players])
        ph.stopped_cleanly(server)
    log = server.log_text()
    assert "event=portal_died" in log and "event=portal_left" in log, log[-3000:]


async def test_the_portals_stop_when_their_supervisor_is_killed(tmp_path):
    """kill -9 of the supervisor alone: its portals read the end of their lifeline
    and stop, closing their connections; none is left dialing on the port."""
    with portals_server(tmp_path) as server:
        portals = server.portal_pids()
        client = await Client.open(server.port)
        try:
            assert "You have 1000 chips" in plain(await login(client, "zed", ph.PASSWORD))
            os.kill(server.proc.pid, signal.SIGKILL)
            server.proc.wait()
            await client.read_until_closed(timeout=30)
        finally:
            await client.close()
        deadline = time.monotonic() + 30
        while any(Path(f"/proc/{pid}").exists() and b"Z" not in Path(f"/proc/{pid}/stat").read_bytes()
                  for pid in portals):
            assert time.monotonic() < deadline, portals
            await asyncio.sleep(0.05)    # real processes exiting, not game time
    report = ph.ledger_check(server.url)       # the kill left the ledger whole
    assert report["ok"] and report["open_holds"] == 0, report

"""A restart never takes the casino down (issue 38, item 1), for real: the portal and its
game process, with a mistake made in config/casino_tables.yaml while they run.

The operator's `restart`, `casino restart` and a bare SIGUSR1 to the portal each check the
config and rooms first, as `reload` does, and refuse with every error as file:line:
the same game process serves on and every player is still answered. And when a
new game process cannot start anyway (the files broke after the check: here the
game process is killed once they are broken), the portal starts one on the copy
of the files the last good start read, and everyone is logged in again."""
from __future__ import annotations

import asyncio
import os
import re
import signal
import time
from pathlib import Path

from support.siblings import sibling
from support.telnet import Client, login, plain

# test_portal.py's real portal and game process, and its helpers (the tests run with
# --import-mode=importlib: tests/e2e is not on the path)
portal_helpers = sibling("portal_helpers", Path(__file__).with_name("test_portal.py"))
PASSWORD, Server = portal_helpers.PASSWORD, portal_helpers.Server
cli, close_all, operator = portal_helpers.cli, portal_helpers.close_all, portal_helpers.operator
portal_server, stopped_cleanly = portal_helpers.portal_server, portal_helpers.stopped_cleanly

BROKEN = "casino_tables[bank_craps].craps.field_12: must be one of 2, 3; not the text 'banana'"


def break_tables(work: Path) -> str:
    """A mistake in the running casino's casino_tables.yaml; its error's `file:line`."""
    tables = work / "config" / "casino_tables.yaml"
    lines = tables.read_text().splitlines(keepends=True)
    [at] = [i for i, line in enumerate(lines) if re.match(r"\s+field_12: 3\b", line)][:1]
    lines[at] = lines[at].replace("field_12: 3", "field_12: banana")
    tables.write_text("".join(lines))
    return f"{tables}:{at + 1}"


async def player(server: Server, name: str) -> Client:
    client = await Client.open(server.port)
    assert "You have 1000 chips" in plain(await login(client, name, PASSWORD))
    return client


async def still_answered(client: Client) -> None:
    said = plain(await client.cmd_expect("balance", "Wallet:", timeout=30))
    assert "Wallet: 1000 chips." in said, said


async def test_a_broken_config_refuses_every_restart_and_nobody_is_dropped(tmp_path):
    with portal_server(tmp_path) as server:
        bob = await player(server, "bob")
        admin = await operator(server)
        try:
            game = server.game_pid()
            where = break_tables(tmp_path)

            said = plain(await admin.cmd_expect("restart", "everyone plays on", timeout=30))
            assert "Restart refused: 1 error in the config; nothing changed, everyone plays on." in said, said
            assert f"{where}: {BROKEN}" in " ".join(said.split()), said
            assert "Restarting now" not in said, said

            # the config it checks is the running casino's (its command line), not ./config
            shell = await asyncio.to_thread(cli, "restart", "--pid-file", str(server.pid_file))
            assert shell.returncode == 1 and shell.stdout == "", shell
            assert shell.stderr.splitlines()[1:] == [f"{where}: {BROKEN}"], shell.stderr
            assert "refused, nothing changed" in shell.stderr.splitlines()[0], shell.stderr
            assert "--pid-file" not in shell.stderr            # no hint that leads round the check

            os.kill(server.proc.pid, signal.SIGUSR1)            # passed on as `restart`, checked there
            deadline = time.monotonic() + 30
            while "event=restart_refused error=" not in server.log_text():
                assert time.monotonic() < deadline, server.log_text()[-3000:]
                await asyncio.sleep(0.05)       # polling a real process's log, not game time
            await still_answered(bob)
            await still_answered(admin)
            assert server.game_pid() == game and server.proc.poll() is None
            # bob read nothing of it
            await bob.send("look")
            seen = plain(await bob.expect("Exits:", timeout=30))
            assert "restart" not in seen.lower() and "Goodbye" not in seen, seen
        finally:
            await close_all([bob, admin])
        log = server.log_text()
        assert "event=restart_refused" in log and f"error={where}: {BROKEN}" in log, log[-3000:]
        assert "event=game_restarting" not in log, log[-3000:]
        stopped_cleanly(server)


async def test_a_game_process_that_cannot_start_goes_back_to_the_last_good_config(tmp_path):
    with portal_server(tmp_path) as server:
        bob = await player(server, "bob")
        try:
            first = server.game_pid()
            break_tables(tmp_path)
            assert server.game_pid() == first, server.log_text()[-3000:]   # nothing replaced it meanwhile
            os.kill(first, signal.SIGKILL)          # its replacement reads the broken files
            seen = plain(await bob.expect("You are logged in again.", timeout=60))
            flat = " ".join(seen.split())
            assert "The casino is restarting" in flat, flat
            assert "The casino restarted after a failure. You are logged in again." in flat, flat
            assert "could not start" not in flat and "Goodbye" not in flat, flat
            await still_answered(bob)
            assert server.proc.poll() is None and server.game_pid() != first
        finally:
            await close_all([bob])
        log = server.log_text()
        events = "\n".join(line for line in log.splitlines() if "event=" in line)   # the whole story if not
        assert "event=game_on_last_good_config" in log and "config=last_good" in log, events
        assert "game_keeps_failing" not in log, events
        assert server.stop() == 0, server.log_text()[-3000:]


def set_connections_per_ip(work: Path, n: int) -> None:
    server_yaml = work / "config" / "server.yaml"
    text, changed = re.subn(r"(\n\s+connections_per_ip:) \S+", rf"\1 {n}", server_yaml.read_text())
    assert changed == 1
    server_yaml.write_text(text)


async def refused(server: Server) -> str:
    """A new connection's first words if the portal refuses it at once, else ""."""
    client = await Client.open(server.port, negotiate=False)
    try:      # let in: the banner and its prompt; refused: its line, then closed (however loaded the machine)
        said = plain(await client.read_until_prompt(timeout=30))
    except ConnectionError:
        said = plain(client.take_text())
    await client.close()
    return said if "Too many connections" in said else ""


async def test_the_portals_caps_follow_the_config_the_game_process_read(tmp_path):
    """The portal reads no config of its own: the caps it applies are the settings the
    game process last read, told at a reload (`reloaded`) and at each start (`ready`),
    so a restart that changed server.yaml changes them too."""
    with portal_server(tmp_path) as server:
        bob = await player(server, "bob")
        held: list[Client] = []
        try:
            set_connections_per_ip(tmp_path, 3)
            os.kill(server.proc.pid, signal.SIGHUP)
            deadline = time.monotonic() + 30
            while "event=portal_reloaded" not in server.log_text():
                assert time.monotonic() < deadline, server.log_text()[-3000:]
                await asyncio.sleep(0.05)       # polling a real process's log, not game time
            held += [await Client.open(server.port, negotiate=False) for _ in range(2)]
            assert "Too many connections from your address" in await refused(server)

            set_connections_per_ip(tmp_path, 5)
            os.kill(server.proc.pid, signal.SIGUSR1)
            await bob.expect("You are logged in again.", timeout=60)
            deadline = time.monotonic() + 30
            while await refused(server):        # until the new game process's `ready` is read
                assert time.monotonic() < deadline, server.log_text()[-3000:]
                await asyncio.sleep(0.05)       # polling a real process, not game time
            held += [await Client.open(server.port, negotiate=False) for _ in range(2)]  # five now
            assert "Too many connections from your address" in await refused(server)
            await still_answered(bob)
        finally:
            await close_all([bob, *held])
        assert server.stop() == 0, server.log_text()[-3000:]

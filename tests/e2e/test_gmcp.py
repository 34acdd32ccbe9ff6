"""GMCP and MSSP over real telnet: telnetlib3's own client (a real GMCP client:
it answers DO GMCP, sends Core.Hello and Core.Supports.Set) plays a bank craps
roll and reads the casino's data; a client that refuses both gets neither,
and the text every player sees is the same either way."""
from __future__ import annotations

import asyncio
import re

import telnetlib3

from support.gmcp import ScriptingClient, command, packages, until
from support.telnet import Client, login

GMCP_OPT, MSSP_OPT = 201, 70


async def test_a_gmcp_client_reads_status_room_table_roll_and_settlement(casino_factory):
    app = await casino_factory(seed=11, limits={"commands_per_second": 1000})
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", app.port, client_factory=ScriptingClient, connect_minwait=0.05,
        connect_maxwait=1.0, encoding="utf8")
    client = writer.protocol
    try:
        await until(reader, "Name:")
        await command(reader, writer, "create gina secret123", "Exits:")
        await asyncio.sleep(0)          # let the data that follows the text be read
        [status] = packages(client, "Char.Status")
        assert status == {"name": "gina", "wallet": 1000, "held": 0, "held_at": {}}
        assert packages(client, "Room.Info")[-1]["id"] == "lobby"

        await command(reader, writer, "north", "Exits:")
        room = packages(client, "Room.Info")[-1]
        assert room["id"] == "6185" and room["exits"]["south"] == "lobby"
        assert {"id": "bank_craps", "game": "bank_craps", "word": "craps"} in room["tables"]

        await command(reader, writer, "play craps")
        await command(reader, writer, "bet pass 10")
        table = packages(client, "Casino.Table")[-1]
        assert table["table"] == "bank_craps" and table["game"] == "bank_craps"
        assert table["shooter"] == "gina" and table["phase"] == "come-out" and table["point"] is None
        assert table["seated"] == [{"name": "gina", "sitting_out": False, "leaving": False}]
        assert packages(client, "Char.Status")[-1] == {"name": "gina", "wallet": 990, "held": 10,
                                                       "held_at": {"bank_craps": 10}}
        # Roll until the pass line is decided; every roll comes as data too.
        for _ in range(60):
            text = await command(reader, writer, "roll")
            await asyncio.sleep(0)
            roll = packages(client, "Casino.Roll")[-1]
            d1, d2 = roll["dice"]
            assert roll["total"] == d1 + d2 and roll["call"] in text     # the same call as the text
            if packages(client, "Casino.Settlement"):
                break
        [settled] = packages(client, "Casino.Settlement")
        assert settled["player"] == "gina" and settled["net"] in (10, -10)
        assert (settled["won"] or settled["lost"])[0]["bet"] == "pass"
        assert re.search(rf"net {settled['net']:+d}", text)
        wallet = 1000 + settled["net"]
        assert packages(client, "Char.Status")[-1]["wallet"] == wallet

        mssp = writer.mssp_data
        assert mssp["NAME"] == "The Casino" and mssp["GMCP"] == "1" and mssp["MSSP"] == "1"
        assert mssp["PORT"] == str(app.port) and mssp["CODEBASE"].startswith("casino")
        assert int(mssp["PLAYERS"]) >= 0 and int(mssp["UPTIME"]) > 0
    finally:
        writer.close()


async def test_a_client_that_refuses_gets_neither_and_the_same_text(casino, connect):
    app = casino
    plain = await connect()                   # answers DONT GMCP and DONT MSSP
    await login(plain, "hal")
    await plain.cmd("north")
    await plain.cmd("play craps")
    await plain.cmd("bet pass 10")
    text = await plain.cmd("roll")
    assert "Your bets" in text or "Settlement" in text
    assert GMCP_OPT not in plain.subnegotiated and MSSP_OPT not in plain.subnegotiated
    assert app.online["hal"].gmcp is not None and not app.online["hal"].gmcp.enabled


class RawGmcpClient(Client):
    """Our byte-level client, agreeing to GMCP: the raw stream keeps the order
    in which text and data really arrived."""

    def _feed(self, data: bytes) -> list[int]:
        self.log = getattr(self, "log", bytearray()) + data   # every byte, in order
        return super()._feed(data)

    def _answer(self, cmd: int, opt: int) -> None:
        if cmd == 251 and opt == GMCP_OPT:                    # IAC WILL GMCP -> IAC DO GMCP
            self.writer.write(bytes([255, 253, GMCP_OPT]))
            return
        super()._answer(cmd, opt)


async def test_gmcp_data_follows_the_text_it_was_caused_with(casino_factory):
    """docs/gmcp.md: data after text. The player whose own command moved chips
    gets the bet's text first and its Char.Status after it."""
    app = await casino_factory(seed=11, limits={"commands_per_second": 1000})
    c = await RawGmcpClient.open(app.port)
    await login(c, "hedy")
    await c.cmd("north")
    await c.cmd("play craps")
    mark = len(c.log)
    await c.cmd_expect("bet pass 10", "Your bets")
    for _ in range(5):                                        # the data may follow the prompt
        if b"Char.Status" in c.log[mark:]:
            break
        await c.cmd("look")
    raw = bytes(c.log[mark:])
    assert b"Char.Status" in raw
    assert raw.index(b"Bet accepted") < raw.index(b"Char.Status")
    await c.close()


async def test_the_documented_tintin_recipe_fires_in_a_real_tintin(casino_factory, tmp_path):
    """docs/gmcp.md's TinTin++ lines, as written there, in a real TinTin++ under
    tmux: the roll's GMCP event fires (without the IAC DO line it never did)."""
    from pathlib import Path

    from support.screen import TINTIN, Screen, require_tools
    require_tools("tmux", "tt++")
    docs = (Path(__file__).resolve().parents[2] / "docs" / "gmcp.md").read_text()
    recipe = [line for line in docs.splitlines() if line.startswith("#event {IAC ")]
    assert len(recipe) == 2 and "IAC WILL GMCP" in recipe[0]
    app = await casino_factory(seed=3, limits={"commands_per_second": 1000})
    script = tmp_path / "casino.tin"
    script.write_text("\n".join(recipe + [f"#session casino 127.0.0.1 {app.port}"]) + "\n")
    screen = Screen(f"env LANG=C.UTF-8 {TINTIN} -G {script}", width=100)
    try:
        await screen.wait_for(r"Name:")
        for line in ("create tess secret123", "north", "play craps", "bet pass 10", "roll"):
            screen.type(line)
        text = await screen.wait_for(r"Rolled \{table\}\{bank_craps\}")
        assert "{dice}" in text and "{total}" in text
    finally:
        screen.close()

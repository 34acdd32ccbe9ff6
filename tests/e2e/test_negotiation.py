"""What a client is offered whatever it answers to TTYPE (issue 28 item 9).

telnetlib3 opens with DO TTYPE alone and by itself offers the rest (NAWS,
CHARSET, EOR, GMCP, MSSP ...) only once the client has agreed to something:
a client that answers WONT TTYPE was never offered any of it. The server
offers it all to every client that answers at all, and a client that ignores
negotiation (netcat) is offered nothing more and still gets its banner
within connect_maxwait (test_connection.py).
"""
from __future__ import annotations

import asyncio

from support.telnet import (BINARY, CHARSET, DO, DONT, EOR, IAC, NAWS, NEW_ENVIRON, SB, TTYPE, WILL, WONT,
                            Client, login, plain)

GMCP, MSSP = 201, 70


class NoTtypeClient(Client):
    """A MUD client that will not say its terminal type (answers WONT TTYPE)
    but takes GMCP and NAWS (and EOR when `want_eor`); keeps every byte."""

    def _feed(self, data: bytes) -> list[int]:
        self.log = getattr(self, "log", bytearray()) + data
        return super()._feed(data)

    def _answer(self, cmd: int, opt: int) -> None:
        if cmd == DO and opt == TTYPE:
            self.writer.write(bytes([IAC, WONT, TTYPE]))
        elif cmd == WILL and opt == GMCP:
            self.writer.write(bytes([IAC, DO, GMCP]))
        else:
            super()._answer(cmd, opt)


async def test_a_client_refusing_ttype_is_offered_everything_before_the_banner(casino):
    c = await NoTtypeClient.open(casino.port)
    try:
        banner = await c.read_until_prompt(timeout=5)
        assert "Welcome to the Casino" in banner
        seen = bytes(c.log)
        for offer in ((WILL, GMCP), (DO, NAWS), (WILL, EOR), (WILL, MSSP), (DO, CHARSET), (DO, BINARY),
                      (DO, NEW_ENVIRON)):
            assert bytes([IAC, *offer]) in seen, offer
        assert bytes([IAC, SB, TTYPE]) not in seen         # it said no: never asked again
    finally:
        await c.close()


async def test_a_client_refusing_ttype_has_look_wrapped_at_its_naws_width(casino):
    c = await NoTtypeClient.open(casino.port, cols=40)
    try:
        await login(c, "nora")
        out = plain(await c.cmd("look"))
        lines = out.split("\r\n")
        assert max(len(line) for line in lines) <= 40, out
        assert max(len(line) for line in lines) > 30, out     # filled to its width, not far short
        assert casino.online["nora"].width == 40
    finally:
        await c.close()


async def test_a_client_refusing_ttype_gets_eor_prompts_when_it_agrees_to_eor(casino):
    c = await NoTtypeClient.open(casino.port, want_eor=True)
    try:
        await login(c, "nina")
        await c.cmd("look")
        assert c.prompts[-1] == 239                           # IAC EOR, not IAC GA
    finally:
        await c.close()


async def test_a_client_refusing_ttype_gets_gmcp_once_it_answers_do_gmcp(casino):
    c = await NoTtypeClient.open(casino.port)
    try:
        await login(c, "nell")
        await c.cmd("north")
        assert GMCP in c.subnegotiated
        raw = bytes(c.log)
        start = raw.index(bytes([IAC, SB, GMCP]))
        assert raw.index(bytes([IAC, WILL, GMCP])) < start    # offered, agreed, then data
        assert b"Char.Status" in raw and b"Room.Info" in raw
        assert casino.online["nell"].gmcp.enabled
    finally:
        await c.close()


async def test_a_client_refusing_ttype_and_gmcp_gets_no_gmcp(casino):
    """The offer is only an offer: a client that answers DONT GMCP gets no data."""

    class Refuser(NoTtypeClient):
        def _answer(self, cmd: int, opt: int) -> None:
            if cmd == WILL and opt == GMCP:
                self.writer.write(bytes([IAC, DONT, GMCP]))
            else:
                super()._answer(cmd, opt)

    c = await Refuser.open(casino.port)
    try:
        await login(c, "noel")
        await c.cmd("north")
        assert bytes([IAC, WILL, GMCP]) in bytes(c.log)
        assert GMCP not in c.subnegotiated
        assert not casino.online["noel"].gmcp.enabled
    finally:
        await c.close()


async def test_a_client_refusing_ttype_waits_for_no_timeout(casino_factory):
    """It answers everything it is asked at once, so its banner comes at once,
    not after connect_maxwait (here a long one)."""
    app = await casino_factory(connect_maxwait=3.0)
    loop = asyncio.get_running_loop()
    started = loop.time()
    c = await NoTtypeClient.open(app.port, cols=50)
    try:
        await c.read_until_prompt(timeout=5)
        assert loop.time() - started < 1.0
        assert bytes([IAC, DO, NAWS]) in bytes(c.log)
    finally:
        await c.close()


async def test_a_client_refusing_ttype_and_ignoring_the_rest_still_gets_its_banner(casino):
    """One that says WONT TTYPE and then answers nothing waits no longer than
    connect_maxwait (half a second as shipped), like netcat."""

    class Mute(NoTtypeClient):
        def _answer(self, cmd: int, opt: int) -> None:
            if cmd == DO and opt == TTYPE:
                super()._answer(cmd, opt)

    loop = asyncio.get_running_loop()
    started = loop.time()
    c = await Mute.open(casino.port)
    try:
        banner = await c.read_until_prompt(timeout=5)
        assert loop.time() - started < 1.0
        assert "Welcome to the Casino" in banner and bytes([IAC, WILL, GMCP]) in bytes(c.log)
        assert "Welcome, nils!" in plain(await c.cmd("create nils secret123"))
    finally:
        await c.close()

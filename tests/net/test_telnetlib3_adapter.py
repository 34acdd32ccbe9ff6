"""telnetlib3's private parts, as server.net.telnetlib3_adapter uses them,
checked on a real telnetlib3 server and protocol over a real socket: an
upgrade that renames or changes one of them fails here."""
from __future__ import annotations

import asyncio
import codecs
import importlib.metadata
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
import telnetlib3
from telnetlib3 import server_base
from telnetlib3.telopt import BINARY, IAC, SB, SE, TTYPE, WILL

from server.net import telnetlib3_adapter as tl

ROOT = Path(__file__).resolve().parents[2]
MCCP3 = bytes([87])


async def until(check: Any, seconds: float = 5.0) -> None:
    """Wait for the network (a real socket), never for the clock."""
    loop = asyncio.get_running_loop()
    end = loop.time() + seconds
    while not check():
        assert loop.time() < end, "timed out"
        await asyncio.sleep(0.005)


class Guarded(tl.CompressionGuard, telnetlib3.TelnetServer):
    compressing = 0

    def client_compressing(self) -> None:
        self.compressing += 1


class Live:
    """A telnetlib3 server on a free port and one client of it, its shell started."""

    def __init__(self, server: Any, protocol: Any, reader: Any, client: asyncio.StreamWriter) -> None:
        self.server = server
        self.protocol = protocol
        self.reader = reader
        self.client = client


async def _live(protocol_factory: Any = telnetlib3.TelnetServer, hello: bytes = b"") -> Live:
    shells: asyncio.Queue[tuple[Any, Any]] = asyncio.Queue()
    done = asyncio.Event()

    async def shell(reader: Any, writer: Any) -> None:
        await shells.put((reader, writer))
        await done.wait()

    server = await telnetlib3.create_server(host="127.0.0.1", port=0, protocol_factory=protocol_factory,
                                            shell=shell, encoding="utf8", force_binary=True,
                                            line_mode=True, connect_maxwait=0.05, timeout=False,
                                            compression=False)
    port = server.sockets[0].getsockname()[1]
    _, client = await asyncio.open_connection("127.0.0.1", port)
    client.write(hello)                      # answered while telnetlib3 negotiates
    reader, writer = await asyncio.wait_for(shells.get(), 5)
    live = Live(server, writer.protocol, reader, client)
    live.done = done  # type: ignore[attr-defined]
    return live


async def _end(live: Live) -> None:
    live.done.set()  # type: ignore[attr-defined]
    live.client.transport.abort()
    live.server.close()
    await live.server.wait_closed()


@pytest.fixture
async def live():
    it = await _live()
    yield it
    await _end(it)


def test_the_version_tested_is_the_version_pinned_and_installed():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = [d for d in project["dependencies"] if re.match(r"telnetlib3\b", d)]
    assert pins == [f"telnetlib3=={tl.PINNED}"]
    assert importlib.metadata.version("telnetlib3") == tl.PINNED


async def test_closing_is_what_the_server_prunes_its_clients_by(live):
    proto = live.protocol
    assert tl.is_closing(proto) is False
    assert proto in live.server.clients
    tl.mark_closing(proto)
    assert tl.is_closing(proto) is True
    assert proto not in live.server.clients
    proto.connection_lost(None)              # counted closed: telnetlib3 does nothing more
    assert not live.reader.at_eof()


async def test_closing_is_set_by_connection_lost(live):
    live.protocol.connection_lost(None)
    assert tl.is_closing(live.protocol) is True and live.reader.at_eof()


class Counting(telnetlib3.TelnetServer):
    begun = 0

    def begin_advanced_negotiation(self) -> None:
        self.begun += 1
        super().begin_advanced_negotiation()


class Flagged(Counting):
    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        tl.mark_advanced(self)


async def test_the_advanced_flag_is_off_for_a_client_that_answers_nothing(live):
    assert tl.is_advanced(live.protocol) is False


@pytest.mark.parametrize("flagged", [False, True])
async def test_advanced_negotiation_begins_once_a_client_agrees_unless_flagged(flagged):
    it = await _live(Flagged if flagged else Counting, hello=IAC + WILL + TTYPE)
    try:
        proto = it.protocol
        assert proto.writer.remote_option.enabled(TTYPE)
        await until(lambda: proto.begun or flagged)
        await asyncio.sleep(0)                # telnetlib3 begins it a loop turn after deciding
        assert tl.is_advanced(proto) is True
        assert proto.begun == (0 if flagged else 1)
    finally:
        await _end(it)


async def test_the_base_negotiation_leaves_out_will_binary_that_telnet_server_offers(live):
    proto = live.protocol
    assert server_base.BaseServer in type(proto).__mro__
    sent: list[tuple[bytes, bytes]] = []
    proto.writer.iac = lambda cmd, opt=b"": sent.append((cmd, opt)) or True
    tl.begin_base_negotiation(proto)
    assert (WILL, BINARY) not in sent
    telnetlib3.TelnetServer.begin_advanced_negotiation(proto)
    assert (WILL, BINARY) in sent             # what begin_base_negotiation is there to skip


async def test_received_and_sent_counts_are_telnetlib3s_own(live):
    proto = live.protocol
    before = proto.rx_bytes
    live.client.write(b"hello\r\n")
    await until(lambda: proto.rx_bytes == before + 7)      # telnetlib3 counts what it reads there
    tl.count_received(proto, 5)
    assert proto.rx_bytes == before + 12
    sent = proto.tx_bytes
    proto.writer.write("x")
    assert proto.tx_bytes > sent                           # and what it writes
    sent = proto.tx_bytes
    tl.count_sent(proto, 9)
    assert proto.tx_bytes == sent + 9


async def test_extra_is_what_get_extra_info_answers(live):
    tl.set_extra(live.protocol, "agreed_charset", "latin-1")
    assert live.protocol.get_extra_info("agreed_charset") == "latin-1"
    assert live.protocol.writer.get_extra_info("agreed_charset") == "latin-1"


async def test_the_reader_buffer_holds_what_is_unread_and_clears(live):
    reader = live.reader
    assert tl.reader_buffered(reader) == 0
    live.client.write(b"unread\r\n")
    await until(lambda: tl.reader_buffered(reader) == 8)
    tl.clear_reader(reader)
    assert tl.reader_buffered(reader) == 0
    live.client.write(b"next\r\n")
    assert await asyncio.wait_for(reader.read(100), 5) == "next\r\n"   # the cleared bytes are gone


async def test_a_client_starting_mccp3_decompresses_unless_guarded():
    plain = await _live()
    try:
        assert tl.is_decompressing(plain.protocol) is False
        plain.client.write(IAC + SB + MCCP3 + IAC + SE)
        await until(lambda: tl.is_decompressing(plain.protocol))
    finally:
        await _end(plain)
    guarded = await _live(Guarded)
    try:
        guarded.client.write(IAC + SB + MCCP3 + IAC + SE)
        await until(lambda: guarded.protocol.compressing == 1)
        assert tl.is_decompressing(guarded.protocol) is False
    finally:
        await _end(guarded)


async def test_the_servers_client_queue_keeps_clients_until_replaced(live):
    assert live.server._new_client.qsize() == 1           # the client we made, kept
    assert tl.keep_no_clients(live.server) is True
    second = await _live_client(live)
    try:
        assert live.server._new_client.qsize() == 0
    finally:
        second.transport.abort()


async def _live_client(live: Live) -> asyncio.StreamWriter:
    """A second client of `live`'s server, once its shell has started."""
    before = len(live.server.clients)
    port = live.server.sockets[0].getsockname()[1]
    _, client = await asyncio.open_connection("127.0.0.1", port)
    await until(lambda: len(live.server.clients) > before and all(
        p.writer is not None and p._waiter_connected.done() for p in live.server.clients))
    return client


def test_text_codecs_are_told_from_the_others():
    assert tl.is_text_codec(codecs.lookup("utf-8")) and tl.is_text_codec(codecs.lookup("cp437"))
    assert not tl.is_text_codec(codecs.lookup("rot13"))
    assert not tl.is_text_codec(codecs.lookup("base64"))


async def test_our_protocols_own_names_shadow_nothing_of_telnetlib3s(live):
    """CasinoTelnetServer keeps state in attributes of its own (`_held`,
    `_raw` ...): none may be a name telnetlib3 uses, on the class or on a
    live protocol."""
    source = (ROOT / "server" / "net" / "telnet.py").read_text()
    body = source[source.index("class CasinoTelnetServer"):source.index("\n_reading")]
    ours = set(re.findall(r"self\.(_[a-z]\w*)\s*(?::[^=\n]*)?=[^=]", body))
    ours |= set(re.findall(r"def (_[a-z]\w*)\(", body))
    assert {"_held", "_raw", "_pauses"} <= ours
    theirs = set(dir(telnetlib3.TelnetServer)) | set(vars(live.protocol))
    assert not ours & theirs


def test_no_other_module_touches_a_telnetlib3_private():
    """Modules that use telnetlib3 reach its private parts only through the adapter."""
    privates = re.compile(r"\._(closing|advanced|mccp3\w*|rx_bytes|tx_bytes|extra|buffer|new_client|"
                          r"is_text_encoding)\b|server_base")
    adapter = ROOT / "server" / "net" / "telnetlib3_adapter.py"
    for path in (ROOT / "server").rglob("*.py"):
        text = path.read_text()
        if path == adapter or not re.search(r"^(import|from) telnetlib3", text, re.M):
            continue
        assert not privates.search(text), path


async def test_negotiated_state_is_put_back_on_another_socket_without_a_byte_sent():
    """What a client negotiated (its TTYPE answers, NAWS, EOR) is recorded as
    JSON data and restored on a protocol over another socket: the shell starts
    at once, get_extra_info answers the same, and nothing is sent to negotiate
    again (a client cycles its TTYPE answers: asking anew gets other ones)."""
    import json
    import socket

    from telnetlib3.telopt import DO, EOR, NAWS
    hello = (IAC + WILL + TTYPE + IAC + SB + TTYPE + b"\x00TINTIN++" + IAC + SE
             + IAC + WILL + NAWS + IAC + SB + NAWS + b"\x00\x3c\x00\x18" + IAC + SE + IAC + DO + EOR)
    first = await _live(hello=hello)
    try:
        await until(lambda: first.protocol.get_extra_info("ttype1") == "TINTIN++"
                    and first.protocol.writer.local_option.enabled(EOR))
        kept = json.loads(json.dumps(tl.negotiated(first.protocol)))     # what crosses the portal
    finally:
        await _end(first)
    ours, theirs = socket.socketpair()
    shells: asyncio.Queue[Any] = asyncio.Queue()

    async def shell(reader: Any, writer: Any) -> None:
        await shells.put(writer)

    class Adopted(telnetlib3.TelnetServer):
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            tl.restore(self, kept)

        def begin_negotiation(self) -> None:      # the adopter negotiates nothing (server.net.telnet)
            pass
    proto = Adopted(shell=shell, encoding="utf8", force_binary=True, line_mode=True, connect_maxwait=5.0,
                    timeout=False, compression=False)
    loop = asyncio.get_running_loop()
    transport, _ = await loop.connect_accepted_socket(lambda: proto, ours)
    try:
        writer = await asyncio.wait_for(shells.get(), 1)      # at once: not after connect_maxwait
        assert writer.protocol.get_extra_info("ttype1") == "TINTIN++"
        assert writer.protocol.get_extra_info("cols") == 60
        assert writer.local_option.enabled(EOR) and writer.remote_option.enabled(NAWS)
        writer.write("hello\r\n")     # the first bytes the client reads: no negotiation before them
        theirs.setblocking(False)
        got = b""
        while not got.endswith(b"\r\n"):
            got += await loop.sock_recv(theirs, 100)
        assert got == b"hello\r\n", got
    finally:
        transport.abort()
        theirs.close()

"""The portal link never carries what the other side cannot read (issue 42).

Each message is bounded where it is made (client facts capped, a hello split
into `conns`, an adopt packet fitted), a message still too long is never sent,
and a line that is not a message fails the reader loudly (BadLine) instead of
being skipped by a process that then serves on deaf to its link."""
from __future__ import annotations

import asyncio
import json

import pytest

from server.net.lines import LineSplitter, valid_text
from server.portal import handover, protocol


def conn(cid: int, ttype: str) -> protocol.Conn:
    return {"id": cid, "ip": "127.0.0.1", "x": {"ttype1": protocol.capped_fact(ttype)}, "s": None, "new": True}


def test_a_client_fact_is_capped_and_valid_text() -> None:
    assert protocol.capped_fact("\x01" * 9000) == "\x01" * protocol.MAX_FACT
    assert protocol.capped_fact("xterm\ud800") == "xterm\ufffd"
    assert protocol.capped_fact(["m" * 500] * 1000) == ["m" * protocol.MAX_FACT] * protocol.MAX_FACT_ITEMS
    assert protocol.capped_fact(80) == 80


def test_a_hello_of_many_connections_is_split_so_no_line_passes_the_limit() -> None:
    # 40 sockets with a 9,000-byte TTYPE of 0x01 bytes were one 4.3 MB hello uncapped;
    # capped, push it past one line with thousands of connections all the same
    conns = [conn(i, "\x01" * 9000) for i in range(4000)]
    messages = protocol.hello_messages(conns, "why", 4000, 4001)
    lines = [protocol.encode(m) for m in messages]
    assert len(messages) > 1 and messages[0]["t"] == "hello"
    assert all(m["t"] == "conns" for m in messages[1:])
    assert max(len(line) for line in lines) <= protocol.LINE_LIMIT
    carried = [c["id"] for m in messages for c in m["conns"]]      # type: ignore[typeddict-item]
    assert carried == list(range(4000))


def test_a_hello_of_a_few_connections_is_one_message() -> None:
    messages = protocol.hello_messages([conn(1, "xterm")], None, 1, 2)
    assert [m["t"] for m in messages] == ["hello"]


def test_text_that_is_not_valid_unicode_is_sent_as_valid_utf8() -> None:
    line = protocol.encode({"t": "w", "id": 3, "d": "say \ud800!"})
    assert json.loads(line.decode("utf-8")) == {"t": "w", "id": 3, "d": "say \ufffd!"}


@pytest.mark.parametrize("line", [b"{not json", b"[1, 2]", b'{"id": 3}', b'"text"', b"\xed\xa0\x80"])
def test_a_line_that_is_not_a_message_fails_the_reader(line: bytes) -> None:
    with pytest.raises(protocol.BadLine):
        protocol.decode(line)


def test_a_message_of_an_unknown_kind_is_ignored() -> None:
    assert protocol.decode(b'{"t": "from-a-newer-side"}') == {"t": "from-a-newer-side"}


async def read_all(data: bytes) -> list[protocol.Message]:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    return [m async for m in protocol.messages(reader)]


def test_the_reader_fails_on_a_line_past_the_limit_even_inside_one_chunk() -> None:
    long = b'{"t":"w","id":1,"d":"' + b"a" * (protocol.LINE_LIMIT + 10) + b'"}\n'
    with pytest.raises(protocol.BadLine):
        asyncio.run(read_all(long + b'{"t":"ready"}\n'))


def test_the_reader_fails_on_junk_between_messages() -> None:
    with pytest.raises(protocol.BadLine):
        asyncio.run(read_all(b'{"t":"ready"}\njunk\n{"t":"ready"}\n'))


def test_a_message_too_long_to_read_is_never_sent_its_connection_is_hung_up() -> None:
    async def send() -> bytes:
        sent: list[bytes] = []

        class Writer:
            def is_closing(self) -> bool:
                return False

            def write(self, data: bytes) -> None:
                sent.append(data)
        outbox = protocol.Outbox(Writer())   # type: ignore[arg-type]
        outbox.send({"t": "w", "id": 7, "d": "x" * (protocol.LINE_LIMIT + 1)})
        outbox.send({"t": "ready"})
        outbox.flush()
        return b"".join(sent)
    data = asyncio.run(send())
    assert [json.loads(line) for line in data.splitlines()] == [{"t": "abort", "id": 7}, {"t": "ready"}]


def test_an_adopt_packet_is_fitted_to_what_the_receiver_reads() -> None:
    lines: list[protocol.PackedLine] = ["\x01" * 512] * 20       # 61 KiB of JSON escapes
    message: handover.Adopt = {"t": "adopt", "id": 1, "ip": "127.0.0.1", "k": json.dumps({"a": "b" * 9000}),
                               "s": {"name": "ann", "room": "lobby"}, "new": False, "why": None,
                               "l": list(lines)}
    data = handover.fitted(message)
    assert len(data) <= handover.PACKET
    kept = json.loads(data)
    assert kept["k"] is not None and 0 < len(kept["l"]) < 20
    assert kept["l"] == lines[:len(kept["l"])]        # the first lines typed are the ones kept


def test_player_text_is_valid_unicode_at_the_door() -> None:
    splitter = LineSplitter(100)
    assert splitter.feed("say \ud800 and \udfff\r\nlook\r\n") == ["say \ufffd and \ufffd", "look"]
    assert valid_text("plain \u2660") == "plain \u2660"


def test_the_outbox_knows_what_a_reader_that_does_not_read_has_left_it() -> None:
    """What the kernel has not taken stays in the transport's buffer: `held` counts it,
    `full` says so past HOLD_BYTES, and both fall once the other side reads."""
    async def run() -> None:
        import socket
        ours, theirs = socket.socketpair()
        _, writer = await asyncio.open_unix_connection(sock=ours)
        outbox = protocol.Outbox(writer)
        line: protocol.In = {"t": "in", "id": 1, "l": ["x" * 1000]}
        for _ in range(3000):                  # 3 MB the far end does not read
            outbox.send(line)
        assert outbox.held() == (3000 * len(protocol.encode(line)), 3000) and outbox.full()   # not yet written
        outbox.flush()
        held, messages = outbox.held()
        assert outbox.full() and held >= protocol.HOLD_BYTES and 0 < messages <= 3000
        theirs.setblocking(False)
        while outbox.full():                   # the far end reads: the kernel takes the rest
            try:
                while theirs.recv(1 << 20):
                    pass
            except BlockingIOError:
                pass
            await asyncio.sleep(0)             # a turn for the transport to write what it can
        assert outbox.held()[0] < protocol.HOLD_BYTES
        writer.close()
        theirs.close()
    asyncio.run(run())

"""Every use of telnetlib3's private parts, each behind one named function.

telnetlib3 (pinned in pyproject.toml: PINNED) has no public way to do a few
things the telnet edge needs; each one is done here and nowhere else, with
why. tests/net/test_telnetlib3_adapter.py checks each against a real
telnetlib3 server and protocol, so an upgrade that renames or changes one
fails there, not in production. No other module touches a telnetlib3 private.

(`is_text_codec` reads a private of CPython's codecs, not telnetlib3's; it
is here so that every private the edge depends on is in one place and tested.)
"""
from __future__ import annotations

import asyncio
import codecs

from telnetlib3.server import Server, TelnetServer
from telnetlib3.server_base import BaseServer
from telnetlib3.stream_reader import TelnetReader

PINNED = "5.0.1"       # the telnetlib3 version these functions are tested against


# --- the protocol (telnetlib3.server_base.BaseServer) -----------------------

def is_closing(protocol: BaseServer) -> bool:
    """Whether telnetlib3 counts the protocol closed (`_closing`): set by its
    connection_lost, after which it handles nothing more of it."""
    return bool(protocol._closing)


def mark_closing(protocol: BaseServer) -> None:
    """Count a connection we refused at once as closed (`_closing`):
    telnetlib3's Server prunes its list of protocols by this flag, and its
    connection_lost then does nothing (no shell was ever started)."""
    protocol._closing = True


def is_advanced(protocol: BaseServer) -> bool:
    """Whether the advanced negotiation (NAWS, CHARSET ...) has begun
    (`_advanced`): telnetlib3 has no public flag for it."""
    return bool(protocol._advanced)


def mark_advanced(protocol: BaseServer) -> None:
    """Record that we began the advanced negotiation ourselves (for a client
    that answered WONT TTYPE), so telnetlib3 does not begin it again."""
    protocol._advanced = True


def is_decompressing(protocol: BaseServer) -> bool:
    """Whether client-to-server MCCP3 is on (`_mccp3_decompressor`): such
    input must go through telnetlib3's data_received, never straight to the
    reader."""
    return protocol._mccp3_decompressor is not None


def count_received(protocol: BaseServer, n: int) -> None:
    """Add `n` to telnetlib3's count of bytes received (`_rx_bytes`, read by
    its public rx_bytes), for input we hand to the reader ourselves."""
    protocol._rx_bytes += n


def count_sent(protocol: BaseServer, n: int) -> None:
    """Add `n` to telnetlib3's count of bytes sent (`_tx_bytes`, read by its
    public tx_bytes), for a prompt we write to the transport ourselves."""
    protocol._tx_bytes += n


def set_extra(protocol: BaseServer, key: str, value: object) -> None:
    """Put `key` in what get_extra_info answers (`_extra`): the charset the
    client really agreed to, which telnetlib3 does not keep."""
    protocol._extra[key] = value


def begin_base_negotiation(protocol: BaseServer) -> None:
    """telnetlib3's BaseServer.begin_advanced_negotiation, skipping
    TelnetServer's own (which offers WILL BINARY and WILL SGA): our edge
    offers its own list instead (server.net.telnet)."""
    BaseServer.begin_advanced_negotiation(protocol)


# --- a connection's negotiated state, carried to another process ----------

MAX_KEPT_TEXT = 256     # characters kept of any one negotiated string (a TTYPE, a LANG)


def negotiated(protocol: TelnetServer) -> dict[str, object]:
    """What negotiation with this client decided, as plain JSON data: both
    option tables, what get_extra_info answers from telnetlib3's own record
    (`_extra`: TTYPE, TERM, LANG, cols, the charset), the writer's environ
    encoding and refusals, and the flags that say which negotiations are
    done (`_advanced`, `_echo_negotiated`, `_environ_requested`,
    `_ttype_count`). A process that adopts the socket restores it with
    `restore` and negotiates nothing again: a client cycles its TTYPE
    answers, so asking again would not give the same ones."""
    writer = protocol.writer
    assert writer is not None, "negotiated on a connected protocol"
    extra: dict[str, object] = {}
    for key, value in protocol._extra.items():
        if isinstance(value, bool | int | float):
            extra[str(key)] = value
        elif isinstance(value, str):
            extra[str(key)] = value[:MAX_KEPT_TEXT]
    return {
        "local": {opt.hex(): bool(on) for opt, on in writer.local_option.items()},
        "remote": {opt.hex(): bool(on) for opt, on in writer.remote_option.items()},
        "extra": extra,
        "environ_encoding": str(writer.environ_encoding)[:MAX_KEPT_TEXT],
        "always_wont": sorted(opt.hex() for opt in writer.always_wont),
        "advanced": bool(protocol._advanced),
        "echo_negotiated": bool(protocol._echo_negotiated),
        "environ_requested": bool(protocol._environ_requested),
        "ttype_count": int(protocol._ttype_count),
    }


def _options(table: object) -> dict[bytes, bool]:
    if not isinstance(table, dict):
        return {}
    out: dict[bytes, bool] = {}
    for key, on in table.items():
        try:
            out[bytes.fromhex(str(key))] = bool(on)
        except ValueError:
            continue
    return out


def restore(protocol: TelnetServer, kept: dict[str, object]) -> None:
    """Put back what `negotiated` recorded on a protocol just connected to an
    adopted socket, and count negotiation done: the shell starts at once
    (`_waiter_connected`), nothing is sent to the client."""
    writer = protocol.writer
    assert writer is not None, "restored on a connected protocol"
    for table, key in ((writer.local_option, "local"), (writer.remote_option, "remote")):
        for opt, on in _options(kept.get(key)).items():
            dict.__setitem__(table, opt, on)      # no change callbacks: nothing is pending
    extra = kept.get("extra")
    if isinstance(extra, dict):
        for k, v in extra.items():
            if isinstance(v, bool | int | float) or (isinstance(v, str) and len(v) <= MAX_KEPT_TEXT):
                protocol._extra[str(k)] = v
    encoding = kept.get("environ_encoding")
    if isinstance(encoding, str):
        writer.environ_encoding = encoding
    refused = kept.get("always_wont")
    if isinstance(refused, list):
        writer.always_wont.update(_options({str(k): True for k in refused}))
    protocol._advanced = bool(kept.get("advanced"))
    protocol._echo_negotiated = bool(kept.get("echo_negotiated", True))
    protocol._environ_requested = bool(kept.get("environ_requested", True))
    count = kept.get("ttype_count")
    protocol._ttype_count = count if isinstance(count, int) else 1
    if not protocol.waiter_encoding.done():
        protocol.waiter_encoding.set_result(True)
    if not protocol._waiter_connected.done():
        protocol._waiter_connected.set_result(None)


class CompressionGuard:
    """Mixed into the telnet protocol: telnetlib3 starts decompressing
    client-to-server MCCP3 through the private `_mccp3_start` as soon as a
    client sends its start, even though we never offered it. We call
    `client_compressing` instead (to drop that client)."""

    def client_compressing(self) -> None:
        raise NotImplementedError

    def _mccp3_start(self) -> None:
        self.client_compressing()


# --- the reader (telnetlib3.stream_reader.TelnetReader) ---------------------

def reader_buffered(reader: TelnetReader) -> int:
    """Bytes the reader holds unread (`_buffer`)."""
    return len(reader._buffer)


def clear_reader(reader: TelnetReader) -> None:
    """Drop what the reader holds (`_buffer`): telnetlib3 keeps closed
    protocols (and so their readers) a while, and a flooder's unread input
    should not stay in memory with them."""
    reader._buffer.clear()


# --- the server (telnetlib3.server.Server) ----------------------------------

class _NoClients(asyncio.Queue[BaseServer]):
    """A queue that keeps nothing: telnetlib3's queue of new clients, unused here."""

    def put_nowait(self, item: BaseServer) -> None:
        pass


def keep_no_clients(server: Server) -> bool:
    """telnetlib3 queues each negotiated client, the last 1000 of them, for a
    wait_for_client() we never call (`_new_client`): dead connections (their
    sessions and input) would stay in memory. Nothing is queued after this.
    Returns whether the queue was there to replace."""
    if not isinstance(getattr(server, "_new_client", None), asyncio.Queue):
        return False
    server._new_client = _NoClients()
    return True


# --- CPython's codecs -------------------------------------------------------

def is_text_codec(info: codecs.CodecInfo) -> bool:
    """Whether a codec encodes text to bytes (`_is_text_encoding`): rot13,
    base64 and the like are codecs too, but bytes-to-bytes or str-to-str."""
    return bool(info._is_text_encoding)

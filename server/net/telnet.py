"""The telnet edge: telnetlib3 set up against its pitfalls, and one shell per client.

Choices made on purpose (each a pitfall of telnetlib3 5.0.1, docs/architecture.md
"telnetlib3's pitfalls"):
- force_binary with UTF-8 and errors="replace": UTF-8 both ways whatever the
  client negotiates, and a bad byte never kills the shell;
- line_mode: clients keep their own line editing and local echo;
- a short connect_maxwait: a client that ignores negotiation still gets the
  banner well within a second;
- no telnetlib3 idle timeout: idle and login deadlines count manager ticks;
- our own line reader with a length cap (readline() has none);
- WILL EOR offered, so clients that want EOR prompts get them, GA otherwise;
- everything (NAWS, CHARSET, EOR, GMCP, MSSP ...) offered to every client that
  answers DO TTYPE, WONT as well as WILL (check_negotiation);
- BINARY asked for input only (DO BINARY), never offered for output (WILL
  BINARY is refused even when a client asks): inetutils telnet turns off its
  terminal's output processing once our output is binary, and then its own
  echo of the player's Enter no longer returns the carriage, so every reply
  starts in the column where the typed command ended (the "staircase",
  docs/running.md "Connecting"). force_binary keeps UTF-8 flowing both ways regardless, and
  binary input keeps the client from stripping the eighth bit of what is typed.

What one client may cost everyone else is bounded here (docs/operating.md):
- admission: every accepted socket counts toward the per-address, total and
  not-logged-in caps from accept until the socket is really closed (the
  lifecycle every edge shares: server.net.lifecycle);
- input: each read is at most READ_SIZE bytes, and a connection may make us
  parse `input_bytes_per_second` plain bytes' worth of work: a read with a
  telnet command in it costs HEAVY a byte (telnetlib3 parses those bytes
  one by one in Python) and COMMAND_COST more per IAC (what one command,
  a DO/DONT toggle, a NAWS or TTYPE subnegotiation, costs telnetlib3 and us:
  measured by bench/bench_input_cost.py). Such a read is taken COMMAND_PIECE
  bytes at a time, and once the budget is spent the rest is held unparsed
  and we stop reading, so the kernel's buffers, not ours, hold what follows
  and no read makes us parse more than about one piece past the budget.
  telnetlib3's reader is given the transport so its own buffer pauses
  reading too, and its SLC scan (a Python loop per byte) is off: we use no
  special line characters. Complete lines then pass the per-connection
  command rate (app.on_input), where the excess is dropped with one notice;
- MCCP (compression) is refused both ways: a client-to-server zlib stream is
  a decompression bomb;
- output: the kernel's send buffer is fixed at SEND_BUFFER (no autotuning to
  megabytes), so a client that stops reading soon backs output up into our
  own queue, where Session cuts it off past `max_output`;
- closing: a polite close that has not finished within CLOSE_GRACE seconds
  (a client that does not read) is aborted (server.net.lifecycle).

telnetlib3's private parts are used only through server.net.telnetlib3_adapter.
"""
from __future__ import annotations

import asyncio
import codecs
import functools
import logging
import select
import socket
import sys
from collections import deque
from typing import Any, AsyncGenerator, ClassVar, Protocol, TypedDict, Unpack, cast

import telnetlib3
from telnetlib3.server import Server
from telnetlib3.stream_reader import TelnetReader, TelnetReaderUnicode
from telnetlib3.stream_writer import TelnetWriter, TelnetWriterUnicode
from telnetlib3.telopt import (BINARY, CHARSET, CMD_EOR, DO, ECHO, EOR, GA, GMCP, IAC, MSSP, NAWS, SGA,
                                TTYPE, WILL, WONT, name_command)

from server import logs
from server.net import arrival
from server.net import telnetlib3_adapter as tl
from server.net.edge_app import EdgeApp
from server.net.lifecycle import Connection, Edge, Entry
from server.net.mud import Gmcp, Listed, mssp_enabled, mssp_variables
from server.net.session import Session
from server.net.throttle import ByteBudget

log = logging.getLogger("casino.net")

READ_SIZE = 8192          # bytes taken from a socket in one read (bounds one parse)
# Charges in plain bytes' worth of CPU, from bench/bench_input_cost.py (a plain
# byte about 5 ns; a DO/DONT toggle about 6 us a command, a NAWS 7 us, TTYPE
# renegotiation 7 us a command, a 50-byte NEW-ENVIRON 30 us, IAC NOP 1 us):
HEAVY = 48                # each byte of a read that holds a telnet command
COMMAND_COST = 1200       # and each IAC in it
# A client's end closed (its FIN, or a reset), seen with input still unread.
HUNG_UP = getattr(select, "POLLRDHUP", 0) | select.POLLHUP | select.POLLERR
COMMAND_PIECE = 64        # bytes of such a read parsed before the budget is looked at again
READER_LIMIT = 32768      # telnetlib3's reader pauses the socket at twice this
SEND_BUFFER = 65536       # kernel send buffer per socket (Linux doubles it)
IAC_BYTE, IAC_GA, IAC_EOR = IAC, IAC + GA, IAC + CMD_EOR
READ_ALL = 1 << 30        # TelnetReaderUnicode.read(n) is quadratic when n < its buffer

# What a client may tell through NEW-ENVIRON and we keep (telnetlib3 keeps
# every variable it is sent, however many: memory without bound).
ENVIRON_KEYS = frozenset({"LANG", "TERM", "COLUMNS", "LINES", "CHARSET", "COLORTERM",
                          "TERM_PROGRAM", "USER", "LOGNAME"})
MAX_ENVIRON_VALUE = 64    # characters kept of one such variable
MAX_CHARSET_NAME = 40     # characters of a charset name worth looking up
# A client fact told in a subnegotiation (TTYPE, XDISPLOC, TSPEED) is cut to this
# when received: a real one is a few words ("MTTS 2825", "xterm-256color"), and
# telnetlib3 keeps whatever it is sent (a 360,000-byte TTYPE was kept whole, as
# TTYPE and again as TERM, and travelled in every restart's state).
MAX_CLIENT_FACT = 64
_TRIAL_TEXT = "Casino \u00e9 \u2660 \u00bd " * 12 + "\r\n"   # what every write looks like, and long


@functools.lru_cache(maxsize=256)
def writable_encoding(name: str) -> bool:
    """Whether `name` is a real text encoding we can write and read with
    (telnetlib3 takes any codec name a client gives: rot13, base64, idna or
    none at all, after which every write to that client raises)."""
    if not name or len(name) > MAX_CHARSET_NAME:
        return False
    try:
        info = codecs.lookup(name)
        if not tl.is_text_codec(info):
            return False
        _TRIAL_TEXT.encode(info.name, "replace")
        codecs.getincrementaldecoder(info.name)(errors="replace").decode(b"look\r\n")
    except Exception:          # LookupError, UnicodeError, TypeError: any codec may refuse
        return False
    return True


class TelnetApp(EdgeApp, Listed, Protocol):
    """The app as the telnet edge sees it: a network edge's app that MSSP
    also describes, listening on `port`."""

    @property
    def port(self) -> int: ...


class Handover(Entry, Protocol):
    """A connection whose socket another process holds too (the portal,
    server/portal/handover.py): told what it must keep; its session's way in
    (Entry). None in one process."""

    kept: dict[str, object] | None   # negotiated state to put back (an adopted socket), or None: negotiate

    def negotiated(self, proto: "CasinoTelnetServer") -> None:
        """Negotiation changed something the next process must keep."""

    def prompted(self, session: Session) -> None:
        """A reply ended: a login or a move may have just happened."""

    def ended(self) -> None:
        """The connection is over in this process."""


class Complaint(TypedDict, total=False):
    """What a client error's log line says beside its kind (CasinoTelnetServer.complain)."""

    charset: str            # a charset the client named that we cannot write (cut short)
    length: int             # how long a client fact it sent was, before it was cut


class _ReaderPause(asyncio.ReadTransport):
    """What telnetlib3's reader sees as its transport (it only pauses and
    resumes it): its pause and resume join our own reasons to stop reading
    instead of overriding them."""

    def __init__(self, protocol: "CasinoTelnetServer") -> None:
        super().__init__()
        self._protocol = protocol

    def pause_reading(self) -> None:
        self._protocol.pause("buffer")

    def resume_reading(self) -> None:
        self._protocol.resume("buffer")


class TelnetOut:
    """A Session's Writer over telnetlib3's writer: the prompt ends with GA
    (EOR once agreed), echo is the telnet ECHO option (WILL ECHO hides what a
    password types). The transport is kept past close(), to see it drain."""

    def __init__(self, writer: TelnetWriterUnicode) -> None:
        self.raw = writer
        self.protocol: CasinoTelnetServer = writer.protocol     # telnetlib3 types it Any: it is ours
        # the socket's: telnetlib3 types it BaseTransport, asyncio's stream transports write
        self.transport = cast("asyncio.WriteTransport | None", writer.transport)

    def write(self, text: str) -> None:
        self.raw.write(text)

    def write_prompt(self, text: str) -> None:
        # One socket write for the block and its GA (or EOR), not telnetlib3's
        # two (write, then send_ga): in a crowd the writes are most of the
        # server's work (docs/performance.md). Escaping IAC and choosing the
        # mark are what those two calls do.
        raw, transport = self.raw, self.transport
        if raw.connection_closed or raw.is_closing() or transport is None:   # None: closed
            return
        protocol = self.protocol
        data = raw.encode(text).replace(IAC_BYTE, IAC_BYTE * 2) + protocol.prompt_mark()
        transport.write(data)
        tl.count_sent(protocol, len(data))         # telnetlib3's byte count, as its writes keep it
        if protocol.handover is not None and protocol.session is not None:
            protocol.handover.prompted(protocol.session)

    def echo(self, on: bool) -> None:
        self.raw.iac(WONT if on else WILL, ECHO)

    def data(self, package: str, payload: object) -> None:
        """Telnet has no view beside the text: GMCP carries such data (server.net.mud)."""

    def get_extra_info(self, key: str) -> object:
        return self.raw.get_extra_info(key)

    def unsent(self) -> int:
        t = self.transport
        return t.get_write_buffer_size() if t is not None else 0

    def abort(self) -> None:
        self.protocol.abort()

    def close(self) -> None:
        self.raw.close()


class CappedFacts(telnetlib3.TelnetServer):
    """The client facts telnetlib3 keeps (TTYPE, XDISPLOC, TSPEED), cut short as
    they are received (MAX_CLIENT_FACT); a longer one is logged once, with its length."""

    def complain(self, kind: str, **fields: Unpack[Complaint]) -> None:
        raise NotImplementedError     # CasinoTelnetServer's

    def on_ttype(self, ttype: str) -> None:
        super().on_ttype(self._fact("ttype", ttype))

    def on_xdisploc(self, xdisploc: str) -> None:
        super().on_xdisploc(self._fact("xdisploc", xdisploc))

    def on_tspeed(self, rx: str, tx: str) -> None:
        super().on_tspeed(str(rx)[:12], str(tx)[:12])   # digits: a speed, not a megabyte of them

    def _fact(self, kind: str, text: str) -> str:
        if len(text) <= MAX_CLIENT_FACT:
            return text
        self.complain(f"long_{kind}", length=len(text))
        return text[:MAX_CLIENT_FACT]


class CasinoTelnetServer(tl.CompressionGuard, CappedFacts):
    """Input budget and negotiation over the shared lifecycle (admission and
    real-close accounting: `conn`); offers EOR and forwards window-size
    changes to the session. `app` and `edge` are bound by start_telnet."""

    app: ClassVar[TelnetApp]      # bound on the subclass start_telnet makes
    edge: ClassVar[Edge]           # ... with its admission

    # telnetlib3's create_server makes the protocol with its own arguments: passed on as they come
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.ip = "?"
        self.conn: Connection | None = None    # admitted: its place in the caps
        self.session: Session | None = None
        self._pauses: set[str] = set()
        self._resume_at: asyncio.TimerHandle | None = None
        self._budget: ByteBudget | None = None
        self._held = b""                     # input read but not parsed: past the budget
        self._raw: asyncio.Transport | None = None
        # what negotiation decided, as last worked out: the encoding by direction, the prompt's end
        self.agreed: dict[tuple[bool | None, bool | None], str | bool] = {}
        self.agreed_mark: bytes | None = None
        self.complaints: set[str] = set()   # kinds of client error already logged (complain)
        self.handover: Handover | None = None   # set before connection_made for an adopted socket
        self._report_due = False            # a negotiated change not yet told to the handover
        self.moved_away = False             # handed to another game process (let_go)

    # --- what negotiation decided ----------------------------------------
    # The wire's encoding and the prompt's end mark follow from options and
    # environment the client negotiates; telnetlib3 works them out again for
    # every read and write (a LANG lookup, option tables). They change only
    # when the client sends a telnet command, so they are worked out once and
    # kept until the next input that carries one (data_received).
    def encoding(self, outgoing: bool | None = None, incoming: bool | None = None) -> str | bool:
        key = (outgoing, incoming)
        found = self.agreed.get(key)
        if found is None:
            found = super().encoding(outgoing=outgoing, incoming=incoming)
            if isinstance(found, str) and not writable_encoding(found):
                # A charset (CHARSET or LANG) we cannot write: keep our own, say nothing.
                self.complain("bad_charset", charset=found[:MAX_CHARSET_NAME])
                found = self.default_encoding
            self.agreed[key] = found
        return found

    def prompt_mark(self) -> bytes:
        """What ends a prompt: EOR once agreed, nothing once the client asked
        to suppress GA, else GA."""
        mark = self.agreed_mark
        if mark is None:
            writer = self.writer
            assert writer is not None, "prompts are written once connected"
            local = writer.local_option
            mark = self.agreed_mark = (IAC_EOR if local.enabled(EOR)
                                       else b"" if local.enabled(SGA) else IAC_GA)
        return mark

    # --- admission and accounting ---------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        transport = cast(asyncio.Transport, transport)   # a stream protocol's: asyncio types it BaseTransport
        app = self.app
        peer = transport.get_extra_info("peername") or ("?", 0)
        self.ip = str(peer[0])
        # an adopted socket was admitted and counted where it was accepted (the portal)
        admitted = self.edge.admit(self.ip) if self.handover is None else self.edge.adopted(self.ip)
        if isinstance(admitted, str):
            # Refused before any negotiation: the line is written straight to the
            # socket, which is then dropped; nothing of ours stays behind.
            tl.mark_closing(self)
            transport.write(admitted.encode() + b"\r\n")
            transport.abort()
            return
        self.conn = admitted
        self._raw = transport
        limits = app.config.settings.limits
        loop = asyncio.get_running_loop()
        rate = limits.input_bytes_per_second
        self._budget = ByteBudget(rate, max(rate, READER_LIMIT), loop.time())
        if hasattr(transport, "max_size"):
            transport.max_size = READ_SIZE
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
            except OSError:
                pass
        super().connection_made(transport)
        writer, reader = self.writer, self.reader
        assert writer is not None and reader is not None, "telnetlib3's connection_made makes both"
        writer.slc_simulated = False
        reader.set_transport(_ReaderPause(self))
        _guard_subnegotiation(self, writer)
        self.gmcp = Gmcp(writer)
        writer.set_ext_callback(GMCP, self.gmcp.receive)
        self._mssp_sent = False
        _answer_mssp(self, writer)
        if self.handover is not None and self.handover.kept is not None:
            _restore(self, self.handover.kept)

    def begin_negotiation(self) -> None:
        # An adopted socket's negotiation was done by the process before (restore).
        if self.handover is None or self.handover.kept is None:
            super().begin_negotiation()

    def negotiation_changed(self) -> None:
        """After input with a telnet command in it: the handover hears of it once a turn."""
        if self.handover is not None and not self._report_due:
            self._report_due = True
            asyncio.get_running_loop().call_soon(_report, self)

    def connection_lost(self, exc: Exception | None) -> None:
        conn = self.conn
        if conn is None or conn.released or tl.is_closing(self):
            return
        transport = self._raw
        gone = transport is None or transport.is_closing()   # the socket itself ended
        conn.hung_up()
        if self.handover is not None and not self.moved_away:
            self.handover.ended()
        super().connection_lost(exc)
        if self._resume_at is not None:
            self._resume_at.cancel()
        self._held = b""
        if gone or transport is None:
            self._release()
        else:
            # telnetlib3 closed it politely: counted until the socket is really gone.
            conn.linger(transport, self._release)

    def _release(self) -> None:
        if self.conn is not None:
            self.conn.closed()
        self._raw = None

    def abort(self) -> None:
        """Drop the connection now, unsent output and all."""
        transport = self._raw
        if transport is not None and self.conn is not None and not self.conn.released:
            if self.handover is not None:
                _reset_at_last_close(transport)
            transport.abort()

    # --- input ------------------------------------------------------------
    def pause(self, why: str) -> None:
        if not self._pauses and self._raw is not None:
            self._raw.pause_reading()
        self._pauses.add(why)

    def resume(self, why: str) -> None:
        if why not in self._pauses:
            return
        self._pauses.discard(why)
        if not self._pauses and self._raw is not None and not self._raw.is_closing():
            self._raw.resume_reading()

    def data_received(self, data: bytes) -> None:
        if self.conn is None or tl.is_closing(self):
            return
        arrival.stamp(self.session)       # a reply's time starts here (casino_reply_seconds)
        if self._held:                  # a read that was under way when reading paused
            self._held += data
            return
        self._take(data)

    def _take(self, data: bytes) -> bool:
        """Parse `data` as far as the budget goes; hold the rest and pause
        reading once it is spent. Returns whether reading is paused for it."""
        budget, writer = self._budget, self.writer
        assert budget is not None and writer is not None, "counted: connected"
        loop = asyncio.get_running_loop()
        if IAC_BYTE not in data and not writer.is_oob:     # no command, nor inside one
            self._parse(data, False)
            return self._charge(budget.spend(len(data), loop.time()), b"")
        for start in range(0, len(data), COMMAND_PIECE):
            piece = data[start:start + COMMAND_PIECE]
            self._parse(piece, True)
            if tl.is_closing(self) or self._raw is None:
                return False
            cost = len(piece) * HEAVY + piece.count(IAC_BYTE) * COMMAND_COST
            if self._charge(budget.spend(cost, loop.time()), data[start + COMMAND_PIECE:]):
                return True
        return False

    def _charge(self, wait: float, rest: bytes) -> bool:
        """Past the budget (`wait` seconds of debt): hold `rest`, stop reading
        and go on after the wait. Returns whether it stopped."""
        if wait <= 0:
            return False
        self._held = rest
        if self._resume_at is not None:
            self._resume_at.cancel()
        self.pause("budget")
        self._resume_at = asyncio.get_running_loop().call_later(wait, self._go_on)
        return True

    def _go_on(self) -> None:
        self._resume_at = None
        held, self._held = self._held, b""
        if tl.is_closing(self) or self._raw is None:
            return
        if _hung_up(self._raw):
            # What a client left behind it is not read at its budget's pace
            # for minutes with its socket counted in the caps: it has gone.
            self._raw.abort()
            return
        if held and self._take(held):
            return
        self.resume("budget")

    def _parse(self, data: bytes, heavy: bool) -> None:
        writer, reader = self.writer, self.reader
        assert writer is not None and reader is not None, "counted: connected"
        heavy = heavy or writer.is_oob
        session = self.session
        if heavy or session is None or session.account is None or tl.is_decompressing(self):
            global _reading
            _reading, reading = self, _reading
            try:
                super().data_received(data)     # telnetlib3's warnings now: _TelnetlibNoise
            finally:
                _reading = reading
            self.agreed.clear()       # negotiation may have changed what was agreed
            self.agreed_mark = None
            self.negotiation_changed()
        else:
            # A logged-in player's line with no telnet command in it: all that
            # telnetlib3's data_received would do with it, less its per-read
            # bookkeeping (a timeout it does not use here, a clock, a trace).
            tl.count_received(self, len(data))
            reader.feed_data(data)

    def client_compressing(self) -> None:
        # Never offered; a client that starts compressing anyway is dropped
        # rather than given a zlib stream to inflate without bound.
        logs.event(log, "drop_compressing_client", ip=self.ip)
        self.abort()

    # --- negotiation ------------------------------------------------------
    def check_negotiation(self, final: bool = False) -> bool:
        # telnetlib3 opens with DO TTYPE alone and begins the rest (our
        # begin_advanced_negotiation: NAWS, CHARSET, EOR, GMCP, MSSP ...) only
        # once the client has agreed to some option: a client that answered
        # WONT TTYPE was offered nothing else. It speaks telnet all the same,
        # so it is offered everything now, and (as for a client that agreed)
        # its banner waits for the answers, at most connect_maxwait. Begun
        # here rather than a loop turn later as telnetlib3 does, so that its
        # check below sees the offers pending. A client that answers nothing
        # (netcat) is offered nothing more, as before (its banner comes after
        # connect_maxwait).
        writer = self.writer
        if not tl.is_advanced(self) and writer is not None and writer.remote_option.get(TTYPE) is False:
            tl.mark_advanced(self)
            self.begin_advanced_negotiation()
        return super().check_negotiation(final)

    def begin_advanced_negotiation(self) -> None:
        # TelnetServer.begin_advanced_negotiation, less its WILL BINARY (see the
        # module docstring: binary output turns off the client's output
        # processing, so its echoed newline no longer returns the carriage).
        # Its WILL SGA is for character mode and MCCP is off: neither applies.
        tl.begin_base_negotiation(self)
        writer = self.writer
        assert writer is not None, "negotiation begins once connected"
        writer.always_wont.add(BINARY)
        writer.iac(DO, BINARY)
        writer.iac(DO, NAWS)
        if self.default_encoding:
            writer.iac(DO, CHARSET)
        writer.iac(WILL, EOR)
        writer.iac(WILL, GMCP)
        writer.iac(WILL, MSSP)

    def on_charset(self, charset: str) -> None:
        # get_extra_info("charset") defaults to our own encoding; remember
        # what the client really agreed to, for the Unicode guess. A charset
        # we cannot write is not agreed: we keep our own and say nothing.
        if not writable_encoding(charset):
            self.complain("bad_charset", charset=charset[:MAX_CHARSET_NAME])
            writer = self.writer
            if writer is not None:
                writer.environ_encoding = "ascii"     # telnetlib3 set it already; it decodes NEW-ENVIRON
            return
        super().on_charset(charset)
        tl.set_extra(self, "agreed_charset", charset)

    def on_environ(self, mapping: dict[str, str]) -> None:
        # Only the variables we read, each cut short: a flood of variables
        # (or of long ones) costs nothing to keep.
        kept = {str(k).upper(): str(v)[:MAX_ENVIRON_VALUE] for k, v in list(mapping.items())[:64]
                if str(k).upper() in ENVIRON_KEYS}
        super().on_environ(kept)

    def complain(self, kind: str, **fields: Unpack[Complaint]) -> None:
        """Something this client sent was wrong: logged once per connection per kind."""
        logs.once(self.complaints, log, "client_error", kind, ip=self.ip, **fields)

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        if self.session is not None:
            self.session.on_resize(cols)


def kept_state(proto: CasinoTelnetServer) -> dict[str, object]:
    """What a process that adopts this socket must put back (Handover.kept):
    telnetlib3's negotiated state, the GMCP modules named, the width told."""
    state = tl.negotiated(proto)
    if proto.gmcp.modules is not None:
        state["gmcp_modules"] = sorted(proto.gmcp.modules)
    if proto.session is not None and proto.session.naws_cols:
        state["naws"] = proto.session.naws_cols
    return state


def _restore(proto: CasinoTelnetServer, kept: dict[str, object]) -> None:
    """An adopted socket: what the process before negotiated (kept_state), put back."""
    tl.restore(proto, kept)
    modules = kept.get("gmcp_modules")
    if isinstance(modules, list):
        proto.gmcp.modules = {str(m)[:64] for m in modules[:64]}


def _send_mssp(proto: CasinoTelnetServer) -> None:
    """A directory's crawler agreed to MSSP: describe the casino, once."""
    if proto._mssp_sent or tl.is_closing(proto) or not mssp_enabled(proto.writer):
        return
    proto._mssp_sent = True
    writer = proto.writer
    assert writer is not None, "MSSP was agreed on a connected writer"
    writer.send_mssp(mssp_variables(proto.app, proto.app.port))


def _report(proto: CasinoTelnetServer) -> None:
    proto._report_due = False
    if proto.handover is not None and not tl.is_closing(proto) and proto.writer is not None:
        proto.handover.negotiated(proto)


LINGER_NONE = (1).to_bytes(4, sys.byteorder) + (0).to_bytes(4, sys.byteorder)   # struct linger {1, 0}


def _reset_at_last_close(transport: asyncio.BaseTransport) -> None:
    """The portal holds an aborted socket too, so its close, not ours, is the
    last: that close must reset the connection (SO_LINGER 0, an option of the
    socket, not of a descriptor), not flush to a client that does not read."""
    sock = transport.get_extra_info("socket")
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, LINGER_NONE)
    except (OSError, AttributeError):
        pass


def _guard_subnegotiation(proto: CasinoTelnetServer, writer: TelnetWriter) -> None:
    """A subnegotiation telnetlib3 cannot take (GMCP JSON nested past
    Python's recursion limit, a CHARSET or TTABLE it refuses ...) is dropped
    with one log line per connection per kind, not a traceback a message
    (telnetlib3 logs one line per frame)."""
    handle_sb = writer.handle_subnegotiation

    def guarded_sb(buf: deque[bytes]) -> None:
        option = name_command(buf[0]) if buf else "?"
        try:
            handle_sb(buf)
        except Exception as exc:
            proto.complain(f"subnegotiation:{option}:{type(exc).__name__}")
    writer.handle_subnegotiation = guarded_sb    # type: ignore[method-assign]  # on this one writer


def _answer_mssp(proto: CasinoTelnetServer, writer: TelnetWriter) -> None:
    """Describe the casino once a crawler agrees to MSSP: telnetlib3's answer
    to DO wrapped on this one writer (it has no hook for DO)."""
    answer_do = writer.handle_do

    def handle_do(opt: bytes) -> bool:
        agreed = bool(answer_do(opt))           # telnetlib3's answer
        if opt == MSSP and agreed:
            # telnetlib3 marks the option on once this returns.
            asyncio.get_running_loop().call_soon(_send_mssp, proto)
        return agreed
    writer.handle_do = handle_do    # type: ignore[method-assign]  # on this one writer


def _hung_up(transport: asyncio.BaseTransport | None) -> bool:
    """Whether the client has closed its end (FIN or reset) behind input we
    have not read yet: reading is paused, so the event loop would see its end
    only after all of that input, at the budget's pace."""
    sock = transport.get_extra_info("socket") if transport is not None else None
    if sock is None:
        return False
    try:
        poll = select.poll()
        poll.register(sock.fileno(), HUNG_UP)
        return bool(poll.poll(0))
    except (OSError, ValueError):
        return False


_reading: "CasinoTelnetServer | None" = None     # the connection whose input telnetlib3 is parsing


class _TelnetlibNoise(logging.Filter):
    """telnetlib3 logs a warning (or a traceback, one record a line) for each
    malformed thing a client sends. While it parses one of our connections'
    input, such a record becomes that connection's `client_error`, once per
    kind (the message's template), and is not written itself."""

    def filter(self, record: logging.LogRecord) -> bool:
        proto = _reading
        if proto is None or not logging.WARNING <= record.levelno < logging.CRITICAL:
            return True
        what = str(record.msg) if record.args else "exception"
        proto.complain(f"telnet:{what[:60]}")
        return False


_NOISE = _TelnetlibNoise()


def _quiet_telnetlib() -> None:
    """Put the filter on every telnetlib3 logger (a logger's filters see
    only the records made on it, not its children's)."""
    # by module name: some are made only when first used (the writer's, per connection)
    names = {n for n in sys.modules if n == "telnetlib3" or n.startswith("telnetlib3.")}
    names |= {n for n in logging.root.manager.loggerDict if n.startswith("telnetlib3.")}
    for name in sorted(names):
        logger = logging.getLogger(name)
        if _NOISE not in logger.filters:
            logger.addFilter(_NOISE)


async def buffered_text(proto: CasinoTelnetServer) -> str:
    """Text read from the socket and not taken as lines yet (telnetlib3's reader
    buffer): for the process the connection moves to (server/casino/handoff.py)."""
    reader = proto.reader
    if reader is None or not tl.reader_buffered(reader):
        return ""
    data = await reader.read(READ_ALL)       # at once: the buffer holds it
    return data if isinstance(data, str) else bytes(data).decode("utf-8", "replace")


def let_go(proto: CasinoTelnetServer) -> None:
    """The connection moved to another game process (server/casino/handoff.py), the
    portal holding the socket: this process closes its own descriptor, sending
    nothing (no FIN while the portal's is open), and forgets it."""
    proto.moved_away = True
    transport = proto._raw
    if transport is not None:
        transport.abort()


def unsent(proto: CasinoTelnetServer) -> int:
    """Bytes written to the connection that the kernel has not taken yet."""
    transport = proto._raw
    return transport.get_write_buffer_size() if transport is not None else 0


class TelnetEdge:
    """The telnet edge of one app: its protocol class and its shell, for a
    listener (start_telnet) and for sockets accepted elsewhere (adopt)."""

    def __init__(self, app: TelnetApp) -> None:
        _quiet_telnetlib()
        self.app = app
        edge = Edge(app, "telnet", "shell_error")
        self.protocol = type("CasinoServer", (CasinoTelnetServer,), {"app": app, "edge": edge})
        self.options: dict[str, Any] = dict(
            shell=_shell,
            encoding="utf8",
            encoding_errors="replace",
            force_binary=True,
            line_mode=True,
            connect_maxwait=app.config.settings.connect_maxwait,
            compression=False,
            limit=READER_LIMIT,
            timeout=False,
        )

    async def adopt(self, sock: socket.socket, handover: Handover) -> CasinoTelnetServer:
        """Serve a socket another process accepted (and, when `handover.kept`,
        negotiated): the same protocol and shell as a listener's."""
        proto: CasinoTelnetServer = self.protocol(**self.options)
        proto.handover = handover
        await asyncio.get_running_loop().connect_accepted_socket(lambda: proto, sock)
        return proto


async def _shell(reader: TelnetReader, writer: TelnetWriter) -> None:
    # encoding="utf8" (TelnetEdge.options): telnetlib3 hands us its Unicode reader and writer
    assert isinstance(reader, TelnetReaderUnicode) and isinstance(writer, TelnetWriterUnicode)
    proto: CasinoTelnetServer = writer.protocol      # telnetlib3 types it Any: it is ours
    conn = proto.conn
    assert conn is not None, "a shell runs for admitted connections only"
    session = proto.session = conn.opened(TelnetOut(writer), drop=proto.abort)
    session.gmcp = proto.gmcp
    handover = proto.handover
    if handover is not None:
        kept = handover.kept
        if kept is not None:
            session.kept()
            naws = kept.get("naws")
            if isinstance(naws, int) and naws > 0:
                session.on_resize(naws)
            handover.kept = None              # put back (connection_made): nothing more reads it
        else:                                 # negotiation is over: what it decided is kept
            proto.negotiation_changed()       # (put back, it is what the handover was told)

    async def chunks() -> AsyncGenerator[str, None]:
        while data := await reader.read(READ_ALL):
            yield data
    try:
        await conn.serve(chunks(), handover)
    finally:
        tl.clear_reader(reader)     # telnetlib3 keeps closed protocols a while


async def start_telnet(app: TelnetApp, host: str, port: int) -> Server:
    """Listen for telnet clients; each gets a Session driven by `app`."""
    telnet = TelnetEdge(app)
    server = await telnetlib3.create_server(host=host, port=port, protocol_factory=telnet.protocol,
                                            **telnet.options)
    tl.keep_no_clients(server)      # nor does telnetlib3 keep every client for us
    return server

"""The portal's message format: one JSON object per line, over a socket pair.

Version 2. Every message is a JSON object on one line (UTF-8, ended by
"\n"); "t" names its kind, "id" the connection it is about (an integer the
portal gives each connection, never reused while the portal runs). JSON
escapes every control character, so a line of a message never holds a raw
newline whatever a player typed. Unknown kinds are ignored by both sides,
so a newer side can add kinds; a change to an existing kind raises VERSION,
and a game process that does not speak the portal's version exits at once.

Telnet connections do not travel here: their sockets are handed to the game
process (server/portal/handover.py), which reads and writes them itself;
what crosses here about them is what a restart keeps (`k`, `s`) and their end
(`gone`). The kinds below that carry text are for the browser's WebSocket
connections, which the portal relays.

Portal to game:
  hello    {v, conns: [{id, ip, x, s, new}], why, port, web_port}   first message to every
                              game process: the relayed connections open now, each with its
                              client facts `x`, its state `s` if logged in, and `new` if no
                              game process has greeted it yet; `why` is told to those logged
                              in again; the portal's ports (MSSP tells them). Sent once the
                              game process before has exited: only then is the database
                              opened (a process started ahead waits for it). A hello holds
                              as many connections as fit in a line of half LINE_LIMIT; the
                              rest follow at once in `conns` messages
  conns    {conns, why}       more connections of the hello, as it gives them (hello_messages)
  open     {id, ip, x}        a new connection
  in       {id, l, x?}        input lines ({"long": n} for a line dropped as too long),
                              with the client facts that changed since last told
  x        {id, x}            client facts changed (a window resized)
  gone     {id}               the connection ended
  stop     {why}              stop for good (the portal was told to stop)
  restart  {why}              stop and let a new game process take over (`casino restart`)
  reload   {}                 reload the configuration (SIGHUP)
  join     {id, ip, x, s, via, l}   a relayed connection walked in from another shard (`via`
                              the way it walked), logged in as `s`, with the lines it typed
                              meanwhile, in order (server/casino/handoff.py)
  moved    {id}               the portal has the `move` of a relayed connection: no more of
                              its input comes here; answered with `released`
  ping     {}                 are you there? (each second: server/portal/silence.py); `pong`

Game to portal:
  ready    {settings}         the casino is open (ledger recovered, tables open), and the
                              `server:` settings it read, whose limits the portal applies
  restarting {}               stopping to be replaced: the portal starts the next game
                              process now, which waits for its hello (sent once this one
                              has exited) before it opens the database
  w        {id, d}            text for the client (lines end CR LF)
  p        {id, d}            text ending with the prompt: the client may now type (GA/EOR)
  echo     {id, on}           the client should (not) echo what is typed (passwords)
  g        {id, p, d}         GMCP package `p` with data `d`
  data     {id, p, d}         package `p` for the browser page's own view (Char.Stats after
                              `stats`); dropped for a telnet client
  close    {id}               hang up once the text before has gone
  abort    {id}               hang up now (a client that does not read)
  s        {id, s}            the connection's state, kept by the portal for the next game
                              process: {"name": account, "room": room}, or null
  reloaded {settings}         a reload was applied: the `server:` settings now applied (as
                              plain JSON, server.config.model.plain_settings), whose
                              limits the portal applies too
                              for its own caps and limits
  again    {id, l}            input lines not handled because the game process is stopping to
                              be replaced: the portal hands them to the next one
  bye      {restart, why}     the game process is about to exit: for good, or to be replaced;
                              the portal sends nothing more and ends its side of the socket
  k        {id, k}            a handed telnet connection's negotiated state changed (what the
                              next game process restores: server.net.telnet kept_state), as
                              JSON text the portal keeps unparsed
  gone     {id}               a handed telnet connection ended: the portal closes its socket
  move     {id, to, via, s, l, r?, k?}   the player walked into a room shard `to` hosts:
                              the connection goes there as `s`, with `l` the lines read and
                              not handled and `r` an unfinished one; a telnet socket with
                              `k` its negotiated state (this process has let it go)
  behind   {id, l}            input for a relayed connection that had moved: for its shard
  released {id}               after `moved`: nothing more of that connection is here
  pong     {}                 the answer to `ping` (any message is an answer)

Client facts (`x`) are what the game reads as `get_extra_info`: ttype1-4,
TERM, LANG, cols, rows, agreed_charset, scrolls (the browser page), naws (the
width the client last told), gmcp (whether GMCP is on), gmcp_modules (the modules
the client named with Core.Supports, when it did).
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from typing import AsyncIterator, Literal, NotRequired, TypedDict, TypeGuard, cast

from server.metrics import COUNTS
from server.net.lines import TooLong, valid_text

log = logging.getLogger("casino.portal")

VERSION = 2
LINE_LIMIT = 1 << 22       # bytes: the longest message line either side reads (Outbox never sends more)
BATCH_LIMIT = LINE_LIMIT // 2   # bytes of connections a hello or conns message holds at most
MAX_FACT = 256             # characters of one client fact a message carries (a TTYPE, a LANG)
MAX_FACT_ITEMS = 64        # ... and items of a list fact (gmcp_modules)
HOLD_BYTES = 1 << 20       # bytes the portal holds for a game process that does not read (Outbox.full) ...
HOLD_MESSAGES = 10_000     # ... and messages: past either, its input waits a few lines a connection
CHUNK = 1 << 16            # bytes read at once: every message they hold is handled before the next read
FACTS = ("ttype1", "ttype2", "ttype3", "ttype4", "TERM", "LANG", "cols", "rows",
         "agreed_charset", "scrolls")

Fact = str | int | float | bool | list[str]     # gmcp_modules is the one list
Facts = dict[str, Fact]                         # a connection's client facts (`x`)
PackedLine = str | dict[str, int]               # an input line, or {"long": n} (pack_lines)


class State(TypedDict):
    """Who is logged in on a connection and where (`s`)."""

    name: str
    room: str | None


# --- portal to game (each kind as the table above says) ----------------------------
class Conn(TypedDict):
    """One connection of a `hello`."""

    id: int
    ip: str
    x: Facts
    s: State | None
    new: bool


class Hello(TypedDict):
    t: Literal["hello"]
    v: int
    conns: list[Conn]
    why: str | None
    port: int
    web_port: int


class MoreConns(TypedDict):
    t: Literal["conns"]
    conns: list[Conn]
    why: str | None


class Open(TypedDict):
    t: Literal["open"]
    id: int
    ip: str
    x: Facts


class In(TypedDict):
    t: Literal["in"]
    id: int
    l: list[PackedLine]
    x: NotRequired[Facts]


class FactsChanged(TypedDict):
    t: Literal["x"]
    id: int
    x: Facts


class Gone(TypedDict):
    t: Literal["gone"]
    id: int


class Join(TypedDict):
    t: Literal["join"]
    id: int
    ip: str
    x: Facts
    s: State
    via: str
    l: list[PackedLine]


class Moved(TypedDict):
    t: Literal["moved"]
    id: int


class Stop(TypedDict):
    t: Literal["stop"]
    why: str


class Restart(TypedDict):
    t: Literal["restart"]
    why: str


class Reload(TypedDict):
    t: Literal["reload"]


class Ping(TypedDict):
    t: Literal["ping"]


# --- game to portal -----------------------------------------------------------------
class Ready(TypedDict):
    t: Literal["ready"]
    settings: NotRequired[dict[str, object]]   # the `server:` settings it read (a restart re-reads them)


class Restarting(TypedDict):
    t: Literal["restarting"]


class Write(TypedDict):
    t: Literal["w"]
    id: int
    d: str


class Prompt(TypedDict):
    t: Literal["p"]
    id: int
    d: str


class Echo(TypedDict):
    t: Literal["echo"]
    id: int
    on: bool


class Package(TypedDict):
    t: Literal["g"]
    id: int
    p: str
    d: object               # the package's data, JSON as it is


class PageData(TypedDict):
    t: Literal["data"]
    id: int
    p: str
    d: object               # likewise


class Close(TypedDict):
    t: Literal["close"]
    id: int


class Abort(TypedDict):
    t: Literal["abort"]
    id: int


class SetState(TypedDict):
    t: Literal["s"]
    id: int
    s: State | None


class Reloaded(TypedDict):
    t: Literal["reloaded"]
    settings: NotRequired[dict[str, object]]   # NotRequired: the portal outlives its game's code


class Again(TypedDict):
    t: Literal["again"]
    id: int
    l: list[PackedLine]


class KeptChanged(TypedDict):
    t: Literal["k"]
    id: int
    k: str                  # JSON text: the portal keeps it as it is, unparsed


class Move(TypedDict):
    t: Literal["move"]
    id: int
    to: str
    via: str
    s: State
    l: list[PackedLine]
    r: NotRequired[str]
    k: NotRequired[str]


class Behind(TypedDict):
    t: Literal["behind"]
    id: int
    l: list[PackedLine]


class Released(TypedDict):
    t: Literal["released"]
    id: int


class Bye(TypedDict):
    t: Literal["bye"]
    restart: bool
    why: str


class Pong(TypedDict):
    t: Literal["pong"]


ToGame = Hello | MoreConns | Open | In | FactsChanged | Gone | Stop | Restart | Reload | Join | Moved | Ping
ForConnection = Write | Prompt | Echo | Package | PageData | Close | Abort | SetState   # Clients.deliver
ToPortal = (Ready | Restarting | ForConnection | Reloaded | Again | Bye | KeptChanged | Gone | Move | Behind
            | Released | Pong)
Message = ToGame | ToPortal
_FOR_CONNECTION = frozenset({"w", "p", "echo", "g", "data", "close", "abort", "s"})

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def encode(message: Message) -> bytes:
    """One message as the line sent: valid UTF-8 always (text that is not valid
    Unicode, a lone surrogate, is sent with U+FFFD in its place: the other side
    reads strict UTF-8 and a line it cannot read is a crash, see `messages`)."""
    text = _dumps(message) + "\n"
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return valid_text(text).encode("utf-8")


class BadLine(ValueError):
    """A line on the link that is not a message: the other side is broken."""


def decode(line: bytes) -> Message | None:
    """One received line as a message; None for a message of a kind not known
    here (a JSON object whose `t` is a string: ignored, so a newer side may add
    kinds). A line that is not a JSON object with a kind is BadLine: each side
    only ever writes what `encode` made, so such a line means the other side (or
    the link) is broken, and reading on past it would be a silent live process.
    json.loads hands over an untyped value: a JSON object with a kind is taken
    for the message the other side encoded."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError, RecursionError) as e:
        raise BadLine(f"not a message ({type(e).__name__}): {line[:80]!r}") from None
    if not isinstance(message, dict) or not isinstance(message.get("t"), str):
        raise BadLine(f"not a message: {line[:80]!r}")
    return cast(Message, message)


def hello_messages(conns: list[Conn], why: str | None, port: int, web_port: int) -> list[ToGame]:
    """The hello a new game process is sent, then as many `conns` as the rest of the
    connections need: each message holds at most BATCH_LIMIT bytes of connections,
    so none is past LINE_LIMIT however many connections are open (40 thousand
    browsers would be 8 MB in one hello, which no side reads)."""
    batches: list[list[Conn]] = [[]]
    size = 0
    for conn in conns:
        n = len(_dumps(conn))
        if batches[-1] and size + n > BATCH_LIMIT:
            batches.append([])
            size = 0
        batches[-1].append(conn)
        size += n + 1
    first, *rest = batches
    out: list[ToGame] = [{"t": "hello", "v": VERSION, "conns": first, "why": why, "port": port,
                          "web_port": web_port}]
    out += [{"t": "conns", "conns": batch, "why": why} for batch in rest]
    return out


def capped_fact(value: object) -> Fact:
    """A client fact as a message carries it: text at most MAX_FACT characters (and
    valid Unicode), a list at most MAX_FACT_ITEMS such texts, so a connection's
    facts are a few KiB at most whatever its client told."""
    if isinstance(value, bool | int | float):
        return value
    if isinstance(value, list | tuple | set | frozenset):
        return [valid_text(str(v)[:MAX_FACT]) for v in list(value)[:MAX_FACT_ITEMS]]
    return valid_text(str(value)[:MAX_FACT])


def for_connection(message: Message) -> TypeGuard[ForConnection]:
    """Whether the game process wrote `message` to one connection (Clients.deliver)."""
    return message["t"] in _FOR_CONNECTION


def naws(facts: Facts) -> int | None:
    """The width the client last told (NAWS), if it told one."""
    width = facts.get("naws")
    return width if isinstance(width, int) and width else None


def pack_lines(lines: list[str | TooLong]) -> list[PackedLine]:
    """Input lines as `in` and `again` carry them: a line dropped as too long
    travels as {"long": n}, so the side that reads it still tells the player."""
    return [{"long": x.length} if isinstance(x, TooLong) else x for x in lines]


def unpack_lines(packed: list[PackedLine]) -> list[str | TooLong]:
    """The lines of an `in` or `again` message, as the Session read them."""
    return [TooLong(int(x["long"])) if isinstance(x, dict) else str(x) for x in packed]


class Outbox:
    """What one side sends in one turn of its event loop, written at once.

    A crowd's commands and their replies are many small messages a turn: one
    write (one system call, one wake-up of the other side) for all of them
    costs a fraction of one each. The write happens at the end of the turn
    (call_soon); `flush` writes now, before a drain, an end or a close.

    It also says what this process holds for the other side (`held`): the
    messages not yet written, and those written that the kernel has not yet
    taken (the transport's buffer, which grows without bound when the other
    side stops reading: a paused game process). Past HOLD_BYTES or
    HOLD_MESSAGES the link is `full`, and the portal sends no more input on it
    until it drains (server/portal/backlog.py)."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self.writer = writer
        self._parts: list[bytes] = []
        self._size = 0                 # bytes in _parts
        self._written = 0              # bytes ever handed to the transport
        self._writes: deque[tuple[int, int]] = deque()   # each write the kernel may not have taken all of:
        self._in_writes = 0            # (_written at its end, its messages); their messages in all

    def send(self, message: Message) -> None:
        line = encode(message)
        if len(line) > LINE_LIMIT:
            line = self._too_long(message, len(line))
        if not self._parts:
            asyncio.get_running_loop().call_soon(self.flush)
        self._parts.append(line)
        self._size += len(line)
        COUNTS.link_messages["sent"] += 1

    @staticmethod
    def _too_long(message: Message, size: int) -> bytes:
        """A message the other side could not read (a bug: every sender bounds what it
        sends) is never sent: logged, and the connection it was for is hung up."""
        log.error("event=link_message_too_long kind=%s bytes=%d", message["t"], size)
        cid = message.get("id")
        if isinstance(cid, int):
            return encode({"t": "abort", "id": cid})
        return b""

    def flush(self) -> None:
        if self._parts:
            data, count = b"".join(self._parts), len(self._parts)
            self._parts, self._size = [], 0
            if not self.writer.is_closing():
                self.writer.write(data)
                self._written += len(data)
                self._writes.append((self._written, count))
                self._in_writes += count

    def held(self) -> tuple[int, int]:
        """Bytes and messages held here for the other side: not yet written, or
        written and not yet taken by the kernel (a write partly taken counts whole)."""
        buffered = self.writer.transport.get_write_buffer_size()
        taken = self._written - buffered
        while self._writes and self._writes[0][0] <= taken:
            self._in_writes -= self._writes.popleft()[1]
        return self._size + buffered, len(self._parts) + self._in_writes

    def full(self) -> bool:
        """Whether the other side has left so much unread that no more input should go."""
        size, count = self.held()
        return size >= HOLD_BYTES or count >= HOLD_MESSAGES


async def messages(reader: asyncio.StreamReader) -> AsyncIterator[Message]:
    """Every message the other side sends, until it ends its side: read a chunk
    at a time (all the messages of one of its writes at once), each line
    decoded (a message of a kind not known here is skipped). A line longer than
    LINE_LIMIT, or one that is not a message, is a bug of the other side's:
    ValueError (BadLine), which the reader's process takes for a crash of its
    link (logged; the portal replaces its game process, a game process stops
    to be replaced), never read past."""
    rest = b""
    while chunk := await reader.read(CHUNK):
        *lines, rest = (rest + chunk).split(b"\n")
        for line in lines:
            if len(line) > LINE_LIMIT:
                raise BadLine(f"a message longer than {LINE_LIMIT} bytes")
            message = decode(line)
            if message is not None:
                COUNTS.link_messages["received"] += 1
                yield message
        if len(rest) > LINE_LIMIT:
            raise BadLine(f"a message longer than {LINE_LIMIT} bytes")

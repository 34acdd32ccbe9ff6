"""One connected person: their output queue, prompt, preferences and state.

Output is queued and flushed once per event-loop turn, so a command's reply and
any messages it caused leave as one block that ends with the prompt and a telnet
GA (or EOR where the client agreed to it; a prompt frame for the browser):
clients and scripts can always tell the server is waiting. The connection
itself is behind a small `Writer` seam, so a telnet socket and a browser's
WebSocket are the same Session. A client that stops reading is cut off rather than
allowed to grow our buffers: past `max_output` unsent bytes its connection
is aborted (a polite close would wait for a flush that never comes), which is
a disconnect like any other.

Text nobody typed a command for (another player's `say`, a roll, a last call)
finds the cursor sitting after the prompt `> `, so such a block starts with a
line break and, like every block, ends with the prompt shown again: the MUD
convention. A reply to a typed line needs no break (the client echoed the
player's Enter).

Every line is fitted to the viewer's width on the way out
(server.render.width.fit: wrapped at spaces, never inside a word group), so
no renderer can send a line the player's screen would break.

A command's reply taller than the viewer's screen is paged: as many lines as
leave room for a "more" prompt (the screen's height from NAWS, 24 for a
client that never said), then `-- More ... --` marked like any prompt (GA or
EOR), and the rest a page per Enter; `q` stops, and any other line stops the
paging and runs as a command (`more`). Only a reply is paged: text from
others that arrives between commands is written as it comes, ending with the
more prompt again while a reply is half shown. A client whose Writer says it
`scrolls` (the browser page, which has its own scrollbar) is never paged.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Awaitable, Callable, Protocol, TypeGuard

from server import logs
from server.metrics import COUNTS
from server.net.client import clamp_width, guess_prefs
from server.render.spoken import spoken_lines
from server.net.mud import Channel
from server.net.throttle import TokenBucket
from server.net.lines import TooLong
from server.render.prefs import Prefs
from server.render.width import fit

if TYPE_CHECKING:
    from server.accounts.store import Account    # (the portal's sessions load no ledger)

log = logging.getLogger("casino.net")

MAX_PENDING_OUTPUT = 1 << 20   # default bytes queued to a client that is not reading
PAGE_ROWS = 24      # the screen's height when the client never said (NAWS)
MIN_ROWS = 5        # a page is at least this tall, whatever NAWS said
UNTOLD_ROWS = 25    # what telnetlib3 reports until NAWS says otherwise: read as untold
                    # (a real 25-row screen gets pages of 24 rows: one line to spare)
MORE_WORDS = ("q", "Q")    # stop paging; a bare Enter shows the next page


@lru_cache(maxsize=4096)
def _fitted(line: str, width: int) -> str:
    """`line` fitted to `width`, as sent. The same lines go to many people (a
    room's description, a table's layout, a `say` heard by a lobby), so each
    is fitted once per width rather than once per reader."""
    return "".join(part + "\r\n" for part in fit(line, width))


def _lines_of(text: str) -> list[str]:
    """Rendered text (lines ending CR LF) as its screen lines, each with its CR LF."""
    return [part + "\r\n" for part in text.split("\r\n")[:-1]]


class Writer(Protocol):
    """What a Session writes through: the seam between one player's text and
    their connection. Telnet (server.net.telnet.TelnetOut) and the browser's
    WebSocket (server.net.web.WebWriter) each implement it; Session itself
    knows nothing of either protocol."""

    def write(self, text: str) -> None:
        """Queue text (lines end in CR LF; the prompt has no line end)."""

    def write_prompt(self, text: str) -> None:
        """Queue text that ends with the prompt, and mark that the server now
        waits for input (telnet: IAC GA or EOR, in the same write)."""

    def echo(self, on: bool) -> None:
        """Ask the client to show (on) or hide (off: a password) what is typed."""

    def data(self, package: str, payload: object) -> None:
        """A package for the client's own view beside the text (the browser page's
        stats view); a telnet client has none, and its Writer ignores it."""

    def get_extra_info(self, key: str) -> object:
        """What the connection told about the client (TTYPE, LANG, cols...),
        or None: strings, numbers and flags, read with a check of their type."""

    def unsent(self) -> int:
        """Bytes written but not yet delivered."""

    def abort(self) -> None:
        """Drop the connection now, unsent output and all."""

    def close(self) -> None:
        """Hang up politely once what is queued has gone."""


Question = Callable[[str], Awaitable[bool]]
"""A table's question to one player: handed the next line they type, it
answers whether that line was the answer (False: the line is a command)."""


class _Reply:
    """`with session.reply():` for every command, without contextlib's
    generator (a microsecond a command in a crowd)."""

    __slots__ = ("session",)

    def __init__(self, session: "Session") -> None:
        self.session = session

    def __enter__(self) -> None:
        self.session._replying = True

    def __exit__(self, *exc: object) -> None:
        self.session._replying = False
        self.session._flush_reply()


class Pager:
    """A command's reply taller than the screen, shown a page at a time: the
    screen lines not shown yet, and whether Enter at the more prompt asked
    for the next page."""

    __slots__ = ("pages", "turn")

    def __init__(self) -> None:
        self.pages: list[str] = []    # a paged reply's screen lines not shown yet
        self.turn = False             # Enter at the more prompt: the reply shows the next page

    def more(self, line: object) -> bool:
        """A line typed while a reply is paged: a bare Enter asks for the next
        page and `q` stops (True: the line is used up; the reply, with
        `reply()`, shows the page or the prompt); anything else stops the
        paging and is a command (False)."""
        if not self.pages:
            return False
        if isinstance(line, str) and not line.strip():
            self.turn = True
            return True
        self.pages = []
        return isinstance(line, str) and line.strip() in MORE_WORDS

    def page(self, lines: list[str], rows: int | None) -> list[str]:
        """What a reply of `lines` shows now (after the next page, if Enter
        asked for it): all of it, or as many lines as leave a row for the more
        prompt on a screen of `rows` (None: a client that scrolls itself)."""
        lines = (self.pages if self.turn else []) + lines
        self.pages, self.turn = [], False
        if rows is not None and len(lines) >= rows:     # the prompt would not fit below them
            lines, self.pages = lines[:rows - 1], lines[rows - 1:]
        return lines

    def prompt(self, width: int) -> str:
        """The more prompt, while a reply is paged."""
        text = f"-- More, {len(self.pages)} lines left: Enter for more, q to stop -- "
        return text if len(text) <= width else "-- More: Enter for more, q to stop -- "


@dataclass
class Moving:
    """A session walking into a room another game process (shard) hosts: where to,
    which way it walked (the arrival line there), and the lines it had typed
    after the walk, read here but left for that process (server/casino/handoff.py)."""

    shard: str
    room: str
    via: str
    rest: list[str | TooLong] = field(default_factory=list)


class Session:
    def __init__(self, writer: Writer, ip: str, *, max_output: int = MAX_PENDING_OUTPUT,
                 drop: Callable[[], None] | None = None) -> None:
        self.writer = writer
        self.ip = ip
        self.max_output = max_output
        self._drop = drop                 # aborts the connection (the telnet protocol's abort)
        self.account: Account | None = None   # once logged in
        self.room: str | None = None
        self.prompt_text = "Name: "
        self.connected_tick = 0           # the manager's tick count when it connected,
        self.input_tick = 0               # ... at its last input,
        self.due_tick: int | None = None  # ... when its login or idle deadline falls (server.casino.deadlines.SessionClock)
        self.closed = False
        self.hung_up = False              # the connection is gone (the client or we closed it)
        self.anonymous = True             # counted among the connections not logged in yet
        self.flood_noticed = False        # told once that lines beyond the rate are dropped
        self.arrived = 0.0                # when its unread input came (server.net.arrival), 0.0: none
        self.stage: object = None         # while logging in: server.commands.login's stage (it alone reads it)
        self.bucket: TokenBucket | None = None   # commands per second, from admission (server.casino.sessions)
        self.naws_cols: int | None = None
        self.last_teller: str | None = None   # who `reply` answers
        self.question: Question | None = None    # a table's question (`ask`)
        self.quit_warned = False              # told once that quitting forfeits live bets
        self.complaints: set[str] = set()     # kinds of client-caused error logged (logs.once)
        self._outbox: list[str] = []
        self._flush_scheduled = False
        self._echo_off = False
        self._replying = False
        self._after: list[Callable[[], None]] = []    # data to send once the text before it has left
        self._at_prompt = False   # the client's cursor sits after our last prompt
        self._pager = Pager()         # a reply taller than the screen, a page at a time
        self.gmcp: Channel | None = None   # data for client scripts, when agreed (server.net.mud)
        self._prefs: Prefs | None = None  # made once logged in (see `prefs`)
        self.resized: Callable[[], None] | None = None   # told of a resize (the portal tells the game)
        self.moving: Moving | None = None   # walking into a room another game process hosts
        self.why_closed = ""               # why we hung up (casino_disconnects_total's cause); '' if we did not

    # --- identity and preferences -------------------------------------
    @property
    def name(self) -> str:
        return self.account.name if self.account else "someone"

    @property
    def key(self) -> str | None:
        return self.account.key if self.account else None

    @property
    def prefs(self) -> Prefs:
        """The client's guessed preferences with the player's own `set` choices
        over them. Read for every block written and every fact a table shows,
        so once logged in (negotiation long over) they are made once and made
        again only when the window is resized or a choice changes
        (`prefs_changed`)."""
        if self.account is None:
            return self._guess()
        if self._prefs is None:
            self._prefs = self._guess().with_overrides(self.account.prefs)
        return self._prefs

    def prefs_changed(self) -> None:
        """The player changed a `set` choice: make the preferences again."""
        self._prefs = None

    def _guess(self) -> Prefs:
        extra = {k: self._extra(k) for k in
                 ("ttype1", "ttype2", "ttype3", "ttype4", "TERM", "LANG", "cols")}
        extra["charset"] = self._extra("agreed_charset")
        if self.naws_cols:
            extra["cols"] = self.naws_cols
        return guess_prefs(extra)

    def _extra(self, key: str) -> object:
        try:
            return self.writer.get_extra_info(key)
        except Exception:   # a closing transport may refuse
            return None

    def on_resize(self, cols: int) -> None:
        self.naws_cols = clamp_width(cols)
        self._prefs = None
        if self.resized is not None:
            self.resized()

    @property
    def rows(self) -> int | None:
        """Lines a page of a reply fills, its more prompt included: the
        height NAWS told (at least MIN_ROWS), else PAGE_ROWS; None for a
        client that scrolls by itself (the browser page), never paged."""
        if self._extra("scrolls"):
            return None
        rows = self._extra("rows")
        if not isinstance(rows, int) or rows <= 0 or rows == UNTOLD_ROWS:
            return PAGE_ROWS
        return max(MIN_ROWS, rows)

    @property
    def paging(self) -> bool:
        """A reply is half shown: the client sits at the more prompt."""
        return bool(self._pager.pages)

    def more(self, line: object) -> bool:
        """A line typed while a reply is paged (Pager.more): True if it is used up."""
        return self._pager.more(line)

    def _prompt(self) -> str:
        """The prompt a block ends with: the more prompt while a reply is paged."""
        return self._pager.prompt(self.width) if self._pager.pages else self.prompt_text

    @property
    def width(self) -> int:
        """Columns every line must fit: `set width`, else NAWS, else 80."""
        return self.prefs.width

    def ask(self, prompt: str, answer: Question) -> None:
        """A table asks something: `prompt` until the next line, which goes
        to `answer` first (it returns False for a line that is a command)."""
        self.question = answer
        self.prompt_text = prompt

    def kept(self) -> None:
        """The client's cursor already sits after a prompt: a connection the portal
        kept through a restart, whose next text must start on a line of its own."""
        self._at_prompt = True

    def heard(self) -> None:
        """The player pressed Enter: their client has moved to a fresh line."""
        self._at_prompt = False

    # --- output ---------------------------------------------------------
    def tell(self, *lines: str) -> None:
        """Queue lines for this player; they leave with the next prompt."""
        if self.closed:
            return
        self._outbox.extend(lines)
        if not self._flush_scheduled and not self._replying:
            self._flush_scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def hear(self, line: str) -> None:
        """A line from someone else, written now (the crier's, a slice of a
        crowd at a time): the same as `tell` without a loop turn of its own to
        flush it, unless a reply or a flush is already under way, which it joins."""
        if self.closed:
            return
        self._outbox.append(line)
        if not self._flush_scheduled and not self._replying:
            self.flush()

    def after_text(self, send: Callable[[], None]) -> None:
        """Send something that is not text (GMCP data) after the text already
        queued for this player: at once if nothing is waiting, else right
        after the next flush, so data follows the text it was caused with."""
        if self._outbox or self._replying or self._flush_scheduled:
            self._after.append(send)
        else:
            send()

    def reply(self) -> "_Reply":
        """Hold output while a command runs, so its whole reply leaves as one
        block under one prompt, however many awaits the command makes."""
        return _Reply(self)

    def flush(self) -> None:
        self._flush_scheduled = False
        if self.closed or self._replying:    # a reply under way sends it all as one block
            return
        if self.moving is not None:          # it lives on in another process, which writes now
            self._outbox.clear()
            return
        body = self._render(self._outbox)
        self._outbox.clear()
        self._send(body)

    def _flush_reply(self) -> None:
        """A command's reply is done: send it, or its first page if it is
        taller than the screen (the rest waits for Enter at the more prompt)."""
        self._flush_scheduled = False
        if self.closed:
            return
        if self.moving is not None:          # no prompt here: the next process shows the room
            self._outbox.clear()
            return
        lines = self._pager.page(_lines_of(self._render(self._outbox)), self.rows)
        self._outbox.clear()
        self._send("".join(lines))

    def _send(self, body: str) -> None:
        # Unasked-for text would start on the prompt's line: break it first.
        lead = "\r\n" if self._at_prompt else ""
        self._write(lead + body + self._prompt(), prompt=True)
        if not self.closed:
            self._at_prompt = True
        if self._after:
            after, self._after = self._after, []
            for send in after:
                send()

    def _render(self, lines: list[str]) -> str:
        width = self.width       # a screen reader's lines get the last pass for the ear first
        return "".join([_fitted(line, width) for line in (spoken_lines(lines) if self.prefs.screenreader else lines)])

    def _write(self, text: str, prompt: bool = False) -> None:
        if self.unsent() + len(text) > self.max_output:
            log.info("event=drop_slow_client ip=%s name=%s unsent=%d", self.ip, self.key, self.unsent())
            COUNTS.refusals["output_limit"] += 1
            self.why_closed = self.why_closed or "output_limit"
            self.abort()
            return
        try:
            if prompt:
                self.writer.write_prompt(text)
            else:
                self.writer.write(text)
        except Exception as exc:
            _write_failed(self, exc)

    def relay(self, text: str, prompt: bool = False) -> None:
        """Write text rendered elsewhere (by the game process, for the portal):
        as it is, within this connection's output limit."""
        if not self.closed:
            self._write(text, prompt)

    def page_data(self, package: str, payload: object) -> None:
        """A package for the client's own view (Writer.data), sent now: the page shows
        it beside the text whenever it comes."""
        if self.closed:
            return
        try:
            self.writer.data(package, payload)
        except Exception as exc:
            _write_failed(self, exc)


    def echo(self, on: bool) -> None:
        """Turn the client's local echo on or off (off for passwords)."""
        if on == (not self._echo_off):
            return
        self._echo_off = not on
        try:
            self.writer.echo(on)
        except Exception as exc:
            _write_failed(self, exc)
            return
        if on:
            self._outbox.insert(0, "")   # the client did not echo the newline

    @property
    def gone(self) -> bool:
        """Closed by us or hung up by the client: it can never log in or play."""
        return self.closed or self.hung_up

    def unsent(self) -> int:
        """Bytes still queued for this client (0 once delivered or dropped)."""
        try:
            return self.writer.unsent()
        except Exception:   # a closing transport may refuse
            return 0

    def abort(self) -> None:
        """Hang up at once, dropping whatever is still queued (a client that
        does not read). The shell sees the end of input and disconnects as usual."""
        if self.closed:
            return
        self.closed = True
        self._outbox.clear()
        try:
            if self._drop is not None:
                self._drop()
            else:
                self.writer.abort()
        except Exception:          # a transport already gone
            log.debug("abort of a closed connection ip=%s", self.ip)

    def close(self, message: str | None = None, why: str = "closed") -> None:
        """Say a last line and hang up; `why` is the cause casino_disconnects_total counts."""
        if self.closed:
            return
        self.why_closed = self.why_closed or why
        if message:
            self._outbox.append(message)
        if self._outbox:
            lead = "\r\n" if self._at_prompt else ""
            text = lead + self._render(self._outbox)
            self._outbox.clear()
            if self.unsent() + len(text) > self.max_output:
                self.abort()
                return
            try:
                self.writer.write(text)
            except Exception as exc:
                _write_failed(self, exc)
                return
        self.closed = True
        try:
            self.writer.close()
        except Exception:
            pass


def _write_failed(session: Session, exc: Exception) -> None:
    """A write to this connection raised (whatever the client did to make
    it): the connection is dropped, a disconnect like any other, and the
    caller (a timeout, a kick, a room's speech, a shutdown) goes on."""
    logs.once(session.complaints, log, "client_error", "write_failed", ip=session.ip,
              name=session.key or "-", error=type(exc).__name__)
    session.why_closed = session.why_closed or "write_error"
    session.abort()


class LoggedIn(Session):
    """A Session whose account is set: what commands and tables are given.

    Never made: it names, for the type checker, what `logged_in` finds true
    of a Session (its account and so its key are there), so a logged-in
    session can be handed where a table's viewer (server.tables.delivery.Viewing)
    is wanted."""

    account: Account

    @property
    def key(self) -> str:
        return self.account.key


def logged_in(session: Session) -> TypeGuard[LoggedIn]:
    """Whether the session has logged in (its account is set)."""
    return session.account is not None

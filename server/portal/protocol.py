"""The portal's message format: one JSON object per line, over a socket pair.

Version 1. Every message is a JSON object on one line (UTF-8, ended by
"\n"); "t" names its kind, "id" the connection it is about (an integer the
portal gives each connection, never reused while the portal runs). JSON
escapes every control character, so a line of a message never holds a raw
newline whatever a player typed. Unknown kinds are ignored by both sides,
so a newer side can add kinds; a change to an existing kind raises VERSION,
and a game process that does not speak the portal's version exits at once.

Portal to game:
  hello    {v, conns: [{id, ip, x, s, new}], why}   first message to every game process:
                              the connections open now, each with its client facts `x`,
                              its state `s` if logged in, and `new` if no game process has
                              greeted it yet; `why` is told to those logged in again
  open     {id, ip, x}        a new connection
  in       {id, l, x?}        input lines ({"long": n} for a line dropped as too long),
                              with the client facts that changed since last told
  x        {id, x}            client facts changed (a window resized)
  gone     {id}               the connection ended
  stop     {why}              stop for good (the portal was told to stop)
  restart  {why}              stop and let a new game process take over (`casino restart`)
  reload   {}                 reload the configuration (SIGHUP)

Game to portal:
  ready    {}                 the casino is open (ledger recovered, tables open)
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
  reloaded {}                 a reload was applied: the portal reads the configuration again
                              for its own caps and limits
  again    {id, l}            input lines not handled because the game process is stopping to
                              be replaced: the portal hands them to the next one
  bye      {restart, why}     the game process is about to exit: for good, or to be replaced;
                              the portal sends nothing more and ends its side of the socket

Client facts (`x`) are what the game reads as `get_extra_info`: ttype1-4,
TERM, LANG, cols, rows, agreed_charset, scrolls (the browser page), naws (the
width the client last told), gmcp (whether GMCP is on), gmcp_modules (the modules
the client named with Core.Supports, when it did).
"""
from __future__ import annotations

import json
from typing import Any

from server.net.lines import TooLong

VERSION = 1
LINE_LIMIT = 1 << 22       # bytes: the longest message line either side reads
FACTS = ("ttype1", "ttype2", "ttype3", "ttype4", "TERM", "LANG", "cols", "rows",
         "agreed_charset", "scrolls")

Message = dict[str, Any]

_dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def encode(message: Message) -> bytes:
    """One message as the line sent."""
    return (_dumps(message) + "\n").encode("utf-8", "surrogatepass")


def decode(line: bytes) -> Message | None:
    """One received line as a message; None for a line that is not one (ignored)."""
    try:
        message = json.loads(line)
    except (ValueError, UnicodeDecodeError):
        return None
    return message if isinstance(message, dict) and isinstance(message.get("t"), str) else None


def pack_lines(lines: list[str | TooLong]) -> list[str | dict[str, int]]:
    """Input lines as `in` and `again` carry them: a line dropped as too long
    travels as {"long": n}, so the side that reads it still tells the player."""
    return [{"long": x.length} if isinstance(x, TooLong) else x for x in lines]


def unpack_lines(packed: list[Any]) -> list[str | TooLong]:
    """The lines of an `in` or `again` message, as the Session read them."""
    return [TooLong(int(x["long"])) if isinstance(x, dict) else str(x) for x in packed]

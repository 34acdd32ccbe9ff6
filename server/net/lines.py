"""Split a telnet input stream into lines, with a hard length cap.

telnetlib3's readline() ignores its limit (a 32 MiB line was accepted whole),
so lines are cut here: an over-long line is dropped as it streams in (only its
length is kept) and reported once when it ends. Line ends are CR LF, LF,
CR NUL or a bare CR; an LF or NUL that follows a CR in a later chunk is not an
extra empty line (docs/architecture.md "telnetlib3's pitfalls"). A stray NUL is dropped.

The work is done by str methods and one compiled pattern, never a Python loop
over characters: a flood of short lines or a 50 MB line costs C speed per
character, so the caller's per-line rules (the rate limit) are what bound the
cost of a hostile client.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_LINE_END = re.compile(r"\r\n|\r\x00|\r|\n")
_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def valid_text(text: str) -> str:
    """`text` as valid Unicode: each surrogate code point (a lone "\\ud800" a
    page's JSON can carry, or what a surrogateescape decoder leaves) replaced by
    U+FFFD. Such text cannot be encoded as UTF-8, so the first writer that met
    it raised (UnicodeEncodeError) and stopped writing to that reader: a browser
    that heard a lone surrogate in a room heard nothing more. Everything a
    player types passes LineSplitter.feed, which makes it valid here, at the
    door. A regex search: text without one costs C speed per character."""
    return _SURROGATE.sub(REPLACEMENT, text) if _SURROGATE.search(text) else text


@dataclass(frozen=True)
class TooLong:
    """Marks a dropped line; `length` is how many characters it had at least."""

    length: int


class LineSplitter:
    def __init__(self, max_line: int) -> None:
        self.max_line = max_line
        self._buf: list[str] = []
        self._size = 0
        self._dropping = False
        self._after_cr = False

    def rest(self) -> str:
        """The unfinished line's text so far ('' once it is over the cap): for the
        process a connection moves to (server/casino/handoff.py), fed there first."""
        return "" if self._dropping else "".join(self._buf)

    @property
    def pending(self) -> int:
        """Characters of the unfinished line (counted even when dropped)."""
        return self._size

    def feed(self, data: str) -> list[str | TooLong]:
        """Every line `data` completes, in order (an over-long one as TooLong),
        as valid Unicode (valid_text)."""
        if not data.isascii():
            data = valid_text(data)
        if self._after_cr and data[:1] in ("\n", "\x00"):
            data = data[1:]
        if not data:
            return []
        self._after_cr = data[-1] == "\r"
        parts = _LINE_END.split(data)
        if "\x00" in data:
            parts = [p.replace("\x00", "") for p in parts]
        rest = parts.pop()
        out: list[str | TooLong] = []
        if parts:
            self._take(parts[0])
            out.append(self._finish())
            limit = self.max_line
            out += [p if len(p) <= limit else TooLong(len(p)) for p in parts[1:]]
        self._take(rest)
        return out

    def _take(self, piece: str) -> None:
        if not piece:
            return
        self._size += len(piece)
        if self._dropping:
            return
        if self._size > self.max_line:
            self._dropping = True
            self._buf.clear()
        else:
            self._buf.append(piece)

    def _finish(self) -> str | TooLong:
        if self._dropping:
            line: str | TooLong = TooLong(self._size)
        else:
            line = "".join(self._buf)
        self._buf.clear()
        self._size = 0
        self._dropping = False
        return line

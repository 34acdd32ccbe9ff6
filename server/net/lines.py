"""Split a telnet input stream into lines, with a hard length cap.

telnetlib3's readline() ignores its limit (a 32 MiB line was accepted whole),
so lines are cut here: an over-long line is dropped whole and reported once.
Line ends are CR LF, LF, CR NUL or a bare CR; an LF or NUL that follows a CR
in a later chunk is not an extra empty line (TELNET.md).
"""
from __future__ import annotations

from dataclasses import dataclass


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

    def feed(self, data: str) -> list[str | TooLong]:
        out: list[str | TooLong] = []
        start = 0
        for i, ch in enumerate(data):
            if ch in "\r\n\x00":
                if self._after_cr and ch in "\n\x00":
                    self._after_cr = False
                    start = i + 1
                    continue
                if ch == "\x00":        # a stray NUL: not a line end
                    self._take(data[start:i])
                    start = i + 1
                    continue
                self._take(data[start:i])
                start = i + 1
                out.append(self._finish())
                self._after_cr = ch == "\r"
            else:
                self._after_cr = False
        self._take(data[start:])
        return out

    def _take(self, piece: str) -> None:
        if not piece or self._dropping:
            if self._dropping:
                self._size += len(piece)
            return
        self._buf.append(piece)
        self._size += len(piece)
        if self._size > self.max_line:
            self._dropping = True
            self._buf.clear()

    def _finish(self) -> str | TooLong:
        if self._dropping:
            line: str | TooLong = TooLong(self._size)
        else:
            line = "".join(self._buf)
        self._buf.clear()
        self._size = 0
        self._dropping = False
        return line

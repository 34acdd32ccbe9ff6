"""Fitting text to the viewer's screen: display width, wrapping, word groups, boxes.

Every line the server sends must fit the viewer's width (NAWS, `set width N`,
80 when unknown). Two layers make sure of it:

- renderers lay out for the width they are given (`Prefs.width`): prose with
  `wrap`, art such as a table's layout with `boxed` or their own compact
  variant, so art is never cut in the middle;
- the session passes every outgoing line through `fit` as a safety net, so a
  line nobody laid out (a long `say`, a help text) still fits.

Wrapping is at spaces only. Words that must stay together ("7) come9 10",
"2 pays 2:1") are joined with `glue`, which puts a no-break space (NBSP)
between them: `fit` never breaks there and sends it as a plain space. A short
quoted command ('help craps', 'play pig') and a number of seconds ("60 s")
are kept whole the same way. Nothing is ever split inside a word: a
single word wider than the whole screen (a 64-digit seed at 40 columns) takes
a line of its own, whole and without indent, the one line allowed to be wider
than the screen; the client wraps it softly, so a copied seed is one unbroken
token at every width (issue 38 item 15).

Widths are display columns: ANSI colour codes take none, East Asian wide
characters two, combining marks none. Render imports nothing from net; this
module is plain functions on strings, for every game's view (roulette too).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

NBSP = "\u00a0"
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_SPACES = re.compile(r"( +)")
# 'help craps', 'play pig': a quote that opens after a space or "(" and closes
# before a space, punctuation or the end, at most 30 characters apart.
_SECONDS = re.compile(r"(?<=\d) (?=s\b)")     # "60 s" stays one group
# A label and its number ("net -17", "straight 0 -5", "lost 23", "spin 4")
# are never separated: no break before a signed number, nor between a word
# and the number after it.
# A numbered item's number stays with it ("3) odd 5").
# A number is a short token: a long one (a 64-digit seed that starts with a
# digit) is not glued to the word before it, so it can take lines of its own.
_SIGNED = re.compile(r"(?<=\S) (?=[+-]\d\S{0,15}(?!\S))|(?<=[A-Za-z]) (?=\d\S{0,15}(?!\S))"
                     r"|(?<=\b\d\)) |(?<=\b\d\d\)) ")
_QUOTED = re.compile(r"(?:(?<=^)|(?<=[ (]))'[^' ][^']{0,28}[^' ]'(?=$|[ .,;:)!?])")


def _char_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


@lru_cache(maxsize=8192)
def display_width(text: str) -> int:
    """Columns `text` takes on screen (colour codes take none). Kept per text:
    a table's layout is box-drawing characters, measured one by one, and the
    same lines are drawn for everyone who looks."""
    plain = _ANSI.sub("", text) if "\x1b" in text else text
    if plain.isascii():
        return len(plain)
    return sum(_char_width(c) for c in plain)


def glue(*words: str) -> str:
    """Words that `fit` and `wrap` keep on one line: joined with NBSP."""
    return NBSP.join(words)


def fit(line: str, width: int, hang: str | None = None) -> list[str]:
    """`line` as one or more lines of at most `width` columns.

    A line that fits comes back as it is (NBSPs made plain spaces). A longer
    one is wrapped at spaces; continuation lines start with `hang`, by default
    the line's own indent plus two spaces, so a wrapped item still reads as
    one item. A word wider than `width` is never cut: it comes back whole on
    a line of its own, the only line wider than `width`.
    """
    if NBSP not in line and display_width(line) <= width:
        return [line]
    if display_width(line) <= width:
        return [line.replace(NBSP, " ")]
    line = _QUOTED.sub(lambda m: m.group(0).replace(" ", NBSP), line)
    line = _SECONDS.sub(NBSP, line)
    line = _SIGNED.sub(NBSP, line)
    width = max(width, 8)
    indent = len(line) - len(line.lstrip(" "))
    indent = min(indent, width // 2)
    if hang is None:
        hang = " " * (indent + 2)
    hang = hang[: width // 2]
    pieces = _SPACES.split(line.strip(" "))      # word, spaces, word, spaces, ...
    out: list[str] = []
    current, used = " " * indent, indent
    empty = True                                  # nothing but indent on `current`
    for i in range(0, len(pieces), 2):
        word = pieces[i]
        gap = pieces[i - 1] if i else ""
        w = display_width(word)
        if not empty and used + len(gap) + w <= width:
            current += gap + word
            used += len(gap) + w
            continue
        if not empty:
            out.append(current)
            current, used = hang, len(hang)
        if used + w > width:
            # A word wider than the screen (a 64-digit seed at 40 columns):
            # whole on a line of its own with no indent, wider than the
            # screen, so a copied token has neither spaces nor line breaks.
            out.append(word)
            current, used, empty = hang, len(hang), True
            continue
        current += word
        used += w
        empty = False
    if not empty or not out:
        out.append(current)
    return [part.replace(NBSP, " ").rstrip(" ") or "" for part in out]


def fit_all(lines: list[str], width: int) -> list[str]:
    """Every line of a view fitted to `width` (see `fit`)."""
    return [part for line in lines for part in fit(line, width)]


def reflow(lines: list[str] | tuple[str, ...]) -> list[str]:
    """Lines written pre-broken at some width, one paragraph a line again.

    A line indented two columns deeper than the paragraph before it, where
    that paragraph's last line ends mid-sentence (not with ".", ":", "!" or
    "?"), continues that paragraph ("...any other total is the point," /
    "  which must come again..."); `fit` then wraps the whole paragraph at the
    reader's width with its hanging indent. Items under a heading ("At any
    table:" / "  play <game> ...") stay lines of their own.
    """
    out: list[str] = []
    base: list[int] = []                 # each paragraph's own indent
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if out and line.strip() and indent == base[-1] + 2:
            last = _ANSI.sub("", out[-1]).rstrip()
            if last and not last.endswith((".", ":", "!", "?")):
                out[-1] = out[-1].rstrip() + " " + line.strip()
                continue
        out.append(line)
        base.append(indent)
    return out


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """Prose to lines of at most `width` columns, flush with `indent`,
    keeping paragraph breaks (a blank line between paragraphs)."""
    lines: list[str] = []
    for paragraph in text.strip().split("\n\n"):
        words = [w for w in re.split(r"[ \t\r\n]+", paragraph) if w]
        lines.extend(fit(indent + " ".join(words), width, hang=indent) if words else [""])
        lines.append("")
    return lines[:-1]


# --- boxes ---------------------------------------------------------------------
@dataclass(frozen=True)
class BoxChars:
    h: str
    v: str
    tl: str
    tr: str
    bl: str
    br: str
    lt: str
    rt: str


UNICODE_BOX = BoxChars("─", "│", "┌", "┐", "└", "┘", "├", "┤")
ASCII_BOX = BoxChars("-", "|", "+", "+", "+", "+", "+", "+")

SEPARATOR = None      # a row of `boxed` that draws a rule across the box


def boxed(title: str, rows: list[str | None], width: int, unicode: bool,
          felt: Callable[[str], str] = lambda s: s) -> list[str]:
    """Rows of text in a box exactly `width` columns wide.

    Each row is wrapped inside the box (never cut, never wider); a row of
    `SEPARATOR` draws a rule. `felt` styles a whole finished line (colour);
    rows may carry their own colour codes, padding counts only what shows.
    """
    c = UNICODE_BOX if unicode else ASCII_BOX
    inner = width - 2
    head = f" {title} " if title else ""
    if display_width(head) > inner - 2:
        head = ""
    top = c.tl + c.h * 2 + head + c.h * (inner - 2 - display_width(head)) + c.tr
    lines = [felt(top)]
    for row in rows:
        if row is SEPARATOR:
            lines.append(felt(c.lt + c.h * inner + c.rt))
            continue
        for part in fit(row, inner - 2) if row else [""]:
            pad = inner - 1 - display_width(part)
            lines.append(felt(c.v + " " + part + " " * pad + c.v))
    lines.append(felt(c.bl + c.h * inner + c.br))
    return lines

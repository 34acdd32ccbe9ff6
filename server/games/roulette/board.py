"""The layout drawn as text: the 3x12 grid with 0, the columns, dozens and
even-money boxes, with one viewer's chips on their spots. `draw` lays it
across, as it faces a player, in 57 columns (a 60- or 80-column client);
`draw_narrow` stands it up, 0 on top and twelve rows of three, as the
croupier sees it, in 31 columns (a 40-column client).

It is drawn once in ASCII on a character grid (`+ - |`), with a mask of which
characters are lines, so the Unicode form is the same drawing with each
junction chosen from its neighbours (a `-` inside `1-18` is text, not a line).
Colour paints the numbers on red, black or green and the chips in yellow;
without colour, red numbers carry a `*` and the legend says so.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .layout import RED, colour

WIDTH = 57                       # columns the board takes across
NARROW = 31                      # ... and stood up
CELL = 4                         # a number cell: 3 characters and its right border
ROWS = ((3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36),     # top: column 3
        (2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35),
        (1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34))     # bottom: column 1
ROW_COLUMN = (3, 2, 1)           # which column bet each row's 2:1 box is
EVEN_MONEY = (("low", "1-18"), ("even", "EVEN"), ("red", "RED"), ("black", "BLACK"),
              ("odd", "ODD"), ("high", "19-36"))
DOZENS = ((1, "1st 12"), (2, "2nd 12"), (3, "3rd 12"))
NARROW_DOZENS = {1: "1-12", 2: "13-24", 3: "25-36"}     # the stood-up board's 5-column dozen cells

# ANSI styles: numbers on their colour, chips bold yellow
STYLES = {"red": "1;97;41", "black": "1;97;40", "green": "1;97;42", "chip": "1;93"}
_JUNCTIONS = {  # (up, down, left, right) -> box character
    (False, True, False, True): "┌", (False, True, True, False): "┐", (True, False, False, True): "└",
    (True, False, True, False): "┘", (True, True, False, True): "├", (True, True, True, False): "┤",
    (False, True, True, True): "┬", (True, False, True, True): "┴", (True, True, True, True): "┼",
    (True, True, False, False): "│", (False, False, True, True): "─",
}


@dataclass
class Stakes:
    """One viewer's chips on the spots the board draws (inside combinations are listed apart)."""

    straight: dict[int, int] = field(default_factory=dict)     # pocket -> chips
    dozen: dict[int, int] = field(default_factory=dict)        # 1..3 -> chips
    column: dict[int, int] = field(default_factory=dict)       # 1..3 -> chips
    even_money: dict[str, int] = field(default_factory=dict)   # "red", "low", ... -> chips


def short(chips: int) -> str:
    """Chips in at most 3 characters: 995, 2k, 2k+ (not whole thousands), 99k, then $$$.

    The exact amounts are in the bets line under the board."""
    if chips < 1000:
        return str(chips)
    if chips < 10_000:
        return f"{chips // 1000}k" + ("+" if chips % 1000 else "")
    if chips < 100_000:
        return f"{chips // 1000}k"
    return "$$$"


class _Grid:
    def __init__(self, height: int, width: int) -> None:
        self.chars = [[" "] * width for _ in range(height)]
        self.line = [[False] * width for _ in range(height)]
        self.style: list[list[str | None]] = [[None] * width for _ in range(height)]

    def put(self, y: int, x: int, text: str, style: str | None = None) -> None:
        for i, ch in enumerate(text):
            self.chars[y][x + i], self.style[y][x + i] = ch, style

    def hline(self, y: int, x0: int, x1: int) -> None:
        for x in range(x0, x1 + 1):
            self._mark(y, x, "-")

    def vline(self, x: int, y0: int, y1: int) -> None:
        for y in range(y0, y1 + 1):
            self._mark(y, x, "|")

    def box(self, y0: int, x0: int, y1: int, x1: int) -> None:
        self.hline(y0, x0, x1)
        self.hline(y1, x0, x1)
        self.vline(x0, y0, y1)
        self.vline(x1, y0, y1)

    def _mark(self, y: int, x: int, ch: str) -> None:
        here = self.chars[y][x]
        if self.line[y][x] and here != ch:
            ch = "+"                                   # two lines cross or meet
        self.chars[y][x], self.line[y][x] = ch, True

    def corners(self) -> None:
        """Ends of lines that meet nothing are junctions too (`+` in ASCII)."""
        for y, row in enumerate(self.chars):
            for x, ch in enumerate(row):
                if self.line[y][x] and ch != "+" and self._ends(y, x, ch):
                    row[x] = "+"

    def _ends(self, y: int, x: int, ch: str) -> bool:
        up, down, left, right = self._near(y, x)
        return (left or right) if ch == "|" else (up or down)

    def _near(self, y: int, x: int) -> tuple[bool, bool, bool, bool]:
        def at(yy: int, xx: int, kinds: str) -> bool:
            inside = 0 <= yy < len(self.chars) and 0 <= xx < len(self.chars[0])
            return inside and self.line[yy][xx] and self.chars[yy][xx] in kinds
        return at(y - 1, x, "|+"), at(y + 1, x, "|+"), at(y, x - 1, "-+"), at(y, x + 1, "-+")

    def lines(self, unicode: bool, color: bool) -> list[str]:
        out = []
        for y, row in enumerate(self.chars):
            text = []
            for x, ch in enumerate(row):
                if unicode and self.line[y][x]:
                    ch = "─" if ch == "-" else "│" if ch == "|" else _JUNCTIONS.get(self._near(y, x), "+")
                style = self.style[y][x] if color else None
                text.append(f"\x1b[{STYLES[style]}m{ch}\x1b[0m" if style else ch)
            out.append(_merge("".join(text)).rstrip())
        return out


def _merge(line: str) -> str:
    """Join runs of one style: `ESC[xm a ESC[0m ESC[xm b ESC[0m` -> `ESC[xm ab ESC[0m`."""
    for code in STYLES.values():
        line = line.replace(f"\x1b[0m\x1b[{code}m", "")
    return line


def number_text(n: int, color: bool) -> str:
    """A number as its cell shows it: 3 characters, `*` after a red one without colour."""
    if color:
        return f"{n:>2} "
    return f"{n:>2}" + ("*" if n in RED else " ")


def draw(stakes: Stakes, color: bool, unicode: bool) -> list[str]:
    """The board, 57 columns, with these chips on it."""
    g = _Grid(16, WIDTH)
    g.box(0, 0, 9, WIDTH - 1)
    g.vline(CELL, 0, 9)
    for i in range(1, 13):
        g.vline(CELL * (i + 1), 0, 9)
    for y in (3, 6):
        g.hline(y, CELL, WIDTH - 1)
    for r, row in enumerate(ROWS):
        y = 1 + 3 * r
        for i, n in enumerate(row):
            x = CELL * (i + 1) + 1
            g.put(y, x, number_text(n, color), colour(n).value)
            _chips(g, y + 1, x, stakes.straight.get(n))
        x = CELL * 13 + 1
        g.put(y, x, "2:1")
        _chips(g, y + 1, x, stakes.column.get(ROW_COLUMN[r]))
    g.put(4, 1, " 0 ", "green")
    _chips(g, 5, 1, stakes.straight.get(0))
    # dozens under the grid, then the even-money boxes
    g.box(9, CELL, 12, CELL * 13)
    for d, label in DOZENS:
        x0 = CELL + (d - 1) * 4 * CELL
        g.vline(x0, 9, 12)
        g.put(10, x0 + 1, label.center(4 * CELL - 1))
        _chips(g, 11, x0 + 1, stakes.dozen.get(d), 4 * CELL - 1)
    g.box(12, CELL, 15, CELL * 13)
    for i, (kind, label) in enumerate(EVEN_MONEY):
        x0 = CELL + i * 2 * CELL
        g.vline(x0, 12, 15)
        style = {"red": "red", "black": "black"}.get(kind)
        g.put(13, x0 + 1, label.center(2 * CELL - 1), style if kind in ("red", "black") else None)
        _chips(g, 14, x0 + 1, stakes.even_money.get(kind), 2 * CELL - 1)
    g.corners()
    return g.lines(unicode, color)


def draw_narrow(stakes: Stakes, color: bool, unicode: bool) -> list[str]:
    """The board stood up, 31 columns: 0 on top, the rows 1 2 3 to 34 35 36 by
    dozen, the columns' 2:1 boxes under them and the even-money boxes last."""
    g = _Grid(27, NARROW)
    cells = (7, 15, 23)                                    # where each column's cell starts
    g.box(0, 6, 2, NARROW - 1)
    g.put(1, 16, " 0 ", "green")
    _chips(g, 1, 20, stakes.straight.get(0))
    g.box(2, 0, 17, NARROW - 1)
    for x in (6, 14, 22):
        g.vline(x, 2, 17)
    for d, label in DOZENS:
        top = 3 + (d - 1) * 5
        if d > 1:
            g.hline(top - 1, 0, NARROW - 1)
        g.put(top, 1, NARROW_DOZENS[d])            # one word: never "1st" / "12" on two rows
        _chips(g, top + 2, 1, stakes.dozen.get(d))
        for r in range(4):
            for c, x in enumerate(cells):
                n = 12 * (d - 1) + 3 * r + c + 1
                g.put(top + r, x, number_text(n, color), colour(n).value)
                _chips(g, top + r, x + 4, stakes.straight.get(n))
    g.box(17, 6, 20, NARROW - 1)
    for c, x in enumerate(cells, 1):
        g.vline(x - 1, 17, 20)
        g.put(18, x, "  2:1  ")
        _chips(g, 19, x, stakes.column.get(c), 7)
    for i, row in enumerate((EVEN_MONEY[:3], EVEN_MONEY[3:])):
        top = 20 + 3 * i
        g.box(top, 6, top + 3, NARROW - 1)
        for (kind, label), x in zip(row, cells):
            g.vline(x - 1, top, top + 3)
            g.put(top + 1, x, label.center(7), kind if kind in ("red", "black") else None)
            _chips(g, top + 2, x, stakes.even_money.get(kind), 7)
    g.corners()
    return g.lines(unicode, color)


def _chips(g: _Grid, y: int, x: int, chips: int | None, width: int = 3) -> None:
    if chips:
        g.put(y, x, short(chips).rjust(3).center(width) if width > 3 else short(chips).rjust(3), "chip")

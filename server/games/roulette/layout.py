"""The single-zero (European) wheel and its 3x12 layout, as plain data.

Everything a bet can cover is a set of pockets, and every set a bet may cover
is listed here once (splits, streets, corners, six lines, the zero groups,
dozens, columns, the even-money halves). Parsing, settling and the house-edge
calculation all read these sets, so a wrong adjacency cannot hide in one of
them alone. docs/play-roulette.md ("The layout", "Betting") is the source.

The layout: 0 on top, then twelve rows of three, 1 2 3 / 4 5 6 / ... / 34 35 36.
Column 1 is 1, 4, ..., 34; column 3 is 3, 6, ..., 36.
"""
from __future__ import annotations

import enum

POCKETS: tuple[int, ...] = tuple(range(37))    # what draw(37) may return
NUMBERS: tuple[int, ...] = tuple(range(1, 37))  # the numbers on the 3x12 grid
RED: frozenset[int] = frozenset({1, 3, 5, 7, 9, 12, 14, 16, 18, 19, 21, 23, 25, 27, 30, 32, 34, 36})
BLACK: frozenset[int] = frozenset(NUMBERS) - RED
ORDINALS = ("first", "second", "third")


class Colour(enum.StrEnum):
    GREEN = "green"
    RED = "red"
    BLACK = "black"


def colour(n: int) -> Colour:
    """Red, black, or green for 0."""
    if n == 0:
        return Colour.GREEN
    return Colour.RED if n in RED else Colour.BLACK


def row_start(n: int) -> int:
    """First number of n's row (street) on the grid: 17 -> 16."""
    return 3 * ((n - 1) // 3) + 1


def column(n: int) -> int | None:
    """1, 2 or 3 (left to right on the grid); None for 0."""
    return (n - 1) % 3 + 1 if n else None


def dozen(n: int) -> int | None:
    """1 (1-12), 2 (13-24) or 3 (25-36); None for 0."""
    return (n - 1) // 12 + 1 if n else None


def is_low(n: int) -> bool:
    return 1 <= n <= 18


def is_high(n: int) -> bool:
    return 19 <= n <= 36


def is_odd(n: int) -> bool:
    return n % 2 == 1


def is_even(n: int) -> bool:
    """Zero is not even at roulette: it loses every outside bet."""
    return n != 0 and n % 2 == 0


def call(n: int) -> str:
    """The number said in words: "17 black, odd, low, second dozen, second column"; "0 green"."""
    if n == 0:
        return "0 green"
    parity = "odd" if is_odd(n) else "even"
    half = "low" if is_low(n) else "high"
    d, c = dozen(n), column(n)
    assert d is not None and c is not None
    return f"{n} {colour(n).value}, {parity}, {half}, {ORDINALS[d - 1]} dozen, {ORDINALS[c - 1]} column"


def _sets(groups: list[set[int]] | list[range]) -> tuple[frozenset[int], ...]:
    return tuple(frozenset(g) for g in groups)


# -- inside groups, every one that exists on the layout ---------------------
ZERO_SPLITS = _sets([{0, 1}, {0, 2}, {0, 3}])
SPLITS = ZERO_SPLITS + _sets(
    [{n, n + 1} for n in NUMBERS if column(n) != 3]        # side by side in a row
    + [{n, n + 3} for n in NUMBERS if n <= 33])           # one above the other
STREETS = _sets([range(s, s + 3) for s in range(1, 37, 3)])
CORNERS = _sets([{n, n + 1, n + 3, n + 4} for n in NUMBERS if column(n) != 3 and n <= 32])
SIX_LINES = _sets([range(s, s + 6) for s in range(1, 32, 3)])
TRIOS = _sets([{0, 1, 2}, {0, 2, 3}])
FIRST_FOUR = frozenset({0, 1, 2, 3})

# -- outside groups ----------------------------------------------------------
DOZENS: dict[int, frozenset[int]] = {d: frozenset(n for n in NUMBERS if dozen(n) == d) for d in (1, 2, 3)}
COLUMNS: dict[int, frozenset[int]] = {c: frozenset(n for n in NUMBERS if column(n) == c) for c in (1, 2, 3)}
ODD: frozenset[int] = frozenset(n for n in NUMBERS if is_odd(n))
EVEN: frozenset[int] = frozenset(n for n in NUMBERS if is_even(n))
LOW: frozenset[int] = frozenset(n for n in NUMBERS if is_low(n))
HIGH: frozenset[int] = frozenset(n for n in NUMBERS if is_high(n))


def split_partners(n: int) -> list[int]:
    """Numbers that make a split with n, below/right first (for suggestions)."""
    return [m for m in (n + 3, n + 1, n - 3, n - 1) if frozenset({n, m}) in _SPLIT_SET]


_SPLIT_SET = frozenset(SPLITS)

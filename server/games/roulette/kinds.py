"""The one table of bet kinds: payout, size, how typed numbers become a set.

Each kind is a row: what it pays (odds to 1), how many pockets it covers,
every pocket set it may cover (from layout.py), how many numbers a player
types for it, and the builder that turns those numbers into the set or a
one-line reason naming a valid bet. Parser, settlement, edges, labels and
help read this table; nothing else says "if kind is split".
"""
from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from . import layout as L

Built = frozenset[int] | str          # the covered pockets, or why not


class Kind(enum.StrEnum):
    STRAIGHT = "straight"
    SPLIT = "split"
    STREET = "street"
    CORNER = "corner"
    SIXLINE = "sixline"
    TRIO = "trio"
    FIRSTFOUR = "firstfour"
    RED = "red"
    BLACK = "black"
    ODD = "odd"
    EVEN = "even"
    LOW = "low"
    HIGH = "high"
    DOZEN = "dozen"
    COLUMN = "column"


def _words(ns: tuple[int, ...] | frozenset[int]) -> str:
    return " ".join(map(str, sorted(ns)))


def _off_layout(ns: tuple[int, ...]) -> str | None:
    bad = [n for n in ns if n not in L.POCKETS]
    return f"{bad[0]} is not on the layout: the numbers are 0 to 36" if bad else None


def _straight(ns: tuple[int, ...]) -> Built:
    return _off_layout(ns) or frozenset(ns)


def _split(ns: tuple[int, ...]) -> Built:
    if problem := _off_layout(ns):
        return problem
    a, b = ns
    if a == b:
        return f"a split is two different numbers side by side, e.g. split {a} {L.split_partners(a)[0]}"
    if frozenset(ns) in L.SPLITS:
        return frozenset(ns)
    examples = " or ".join(f"split {_words((a, m))}" for m in L.split_partners(a)[:2])
    return (f"{a} and {b} are not next to each other on the layout; "
            f"a split is two numbers side by side, e.g. {examples}")


def _street(ns: tuple[int, ...]) -> Built:
    if problem := _off_layout(ns):
        return problem
    if 0 in ns:
        return "0 is in no street; with 0 bet trio 0 1 2, trio 0 2 3 or firstfour"
    row = next(s for s in L.STREETS if ns[0] in s)
    if len(ns) == 1 or frozenset(ns) == row:
        return row
    return (f"{_words(ns)} are not one row; a street is a row of three, "
            f"e.g. street {min(row)} ({_words(row)})")


def _corner(ns: tuple[int, ...]) -> Built:
    if problem := _off_layout(ns):
        return problem
    if len(ns) == 4:
        if frozenset(ns) in L.CORNERS:
            return frozenset(ns)
        return (f"{_words(ns)} do not meet at one corner; a corner is four numbers in a square, "
                f"e.g. corner 17 18 20 21 (or corner 17 21)")
    if len(set(ns)) < len(ns):           # `corner 1 1`: one number is no corner
        near = next(c for c in L.CORNERS if ns[0] in c)
        return (f"a corner names two different numbers on a diagonal (or all four), "
                f"e.g. corner {min(near)} {max(near)}")
    meets = [c for c in L.CORNERS if set(ns) <= c]
    if len(meets) == 1 and frozenset(ns) not in L.SPLITS:
        return meets[0]
    a, b = ns
    return (f"{a} and {b} are not opposite corners of a square; name a corner by two diagonal "
            f"numbers, e.g. corner 17 21, or by its four, e.g. corner 17 18 20 21")


def _sixline(ns: tuple[int, ...]) -> Built:
    if problem := _off_layout(ns):
        return problem
    n = ns[0]
    if n == 0:
        return "0 is in no six line; a six line names its first row, e.g. sixline 13 for 13 to 18"
    start = L.row_start(n)
    for line in L.SIX_LINES:
        if min(line) == start:
            return line
    return (f"{n} is on the last row; a six line names its first row, "
            f"so bet sixline 31 for 31 to 36")


def _trio(ns: tuple[int, ...]) -> Built:
    if problem := _off_layout(ns):
        return problem
    if frozenset(ns) in L.TRIOS:
        return frozenset(ns)
    hint = " (a row of three is a street, e.g. street 1)" if 0 not in ns else ""
    return f"{_words(ns)} is not a trio; the trios are 0 1 2 and 0 2 3{hint}"


def _choice(what: str, table: dict[int, frozenset[int]], ranges: str) -> Callable[[tuple[int, ...]], Built]:
    def build(ns: tuple[int, ...]) -> Built:
        if ns[0] in table:
            return table[ns[0]]
        return f"{what} is 1, 2 or 3 ({ranges}), e.g. {what} 2"
    return build


def _fixed(pockets: frozenset[int]) -> Callable[[tuple[int, ...]], Built]:
    return lambda ns: pockets


@dataclass(frozen=True)
class KindInfo:
    """One row of the bet table. `takes`: how many numbers a player may type."""

    kind: Kind
    pays: int                                   # odds to 1
    size: int                                   # pockets covered
    groups: tuple[frozenset[int], ...]          # every pocket set this kind may cover
    takes: tuple[int, ...]
    build: Callable[[tuple[int, ...]], Built]
    usage: str                                  # the form, after `bet`, without the amount
    example: str                                # a full example, amount included
    covers: str                                 # in words, for help and docs

    @property
    def even_money(self) -> bool:
        """Red/black, odd/even, low/high: the bets la partage halves on zero."""
        return self.pays == 1


def _row(kind: Kind, pays: int, groups: tuple[frozenset[int], ...], takes: tuple[int, ...],
         build: Callable[[tuple[int, ...]], Built], usage: str, example: str, covers: str) -> KindInfo:
    return KindInfo(kind, pays, len(groups[0]), groups, takes, build, usage, example, covers)


KINDS: dict[Kind, KindInfo] = {info.kind: info for info in (
    _row(Kind.STRAIGHT, 35, tuple(frozenset({n}) for n in L.POCKETS), (1,), _straight,
         "straight N", "straight 17 10", "one number, 0 to 36"),
    _row(Kind.SPLIT, 17, L.SPLITS, (2,), _split,
         "split A B", "split 17 20 5", "two numbers side by side (0 1, 0 2, 0 3 too)"),
    _row(Kind.STREET, 11, L.STREETS, (1, 3), _street,
         "street N", "street 13 5", "the row of three holding N (13: 13 14 15)"),
    _row(Kind.CORNER, 8, L.CORNERS, (2, 4), _corner,
         "corner A B", "corner 17 21 5", "four numbers that meet; name two diagonal ones or all four"),
    _row(Kind.SIXLINE, 5, L.SIX_LINES, (1,), _sixline,
         "sixline N", "sixline 13 5", "two rows: N's row and the one after (13: 13 to 18)"),
    _row(Kind.TRIO, 11, L.TRIOS, (3,), _trio,
         "trio 0 A B", "trio 0 1 2 5", "0 1 2 or 0 2 3"),
    _row(Kind.FIRSTFOUR, 8, (L.FIRST_FOUR,), (0,), _fixed(L.FIRST_FOUR),
         "firstfour", "firstfour 5", "0 1 2 3"),
    _row(Kind.RED, 1, (L.RED,), (0,), _fixed(L.RED), "red", "red 10", "the 18 red numbers"),
    _row(Kind.BLACK, 1, (L.BLACK,), (0,), _fixed(L.BLACK), "black", "black 10", "the 18 black numbers"),
    _row(Kind.ODD, 1, (L.ODD,), (0,), _fixed(L.ODD), "odd", "odd 10", "1 3 5 ... 35"),
    _row(Kind.EVEN, 1, (L.EVEN,), (0,), _fixed(L.EVEN), "even", "even 10", "2 4 6 ... 36 (not 0)"),
    _row(Kind.LOW, 1, (L.LOW,), (0,), _fixed(L.LOW), "low", "low 10", "1 to 18"),
    _row(Kind.HIGH, 1, (L.HIGH,), (0,), _fixed(L.HIGH), "high", "high 10", "19 to 36"),
    _row(Kind.DOZEN, 2, tuple(L.DOZENS.values()), (1,),
         _choice("dozen", L.DOZENS, "1-12, 13-24, 25-36"), "dozen D", "dozen 2 10", "D = 1: 1-12, 2: 13-24, 3: 25-36"),
    _row(Kind.COLUMN, 2, tuple(L.COLUMNS.values()), (1,),
         _choice("column", L.COLUMNS, "1: 1 4 ... 34, 2: 2 5 ... 35, 3: 3 6 ... 36"),
         "column C", "column 3 10", "C = 1: 1 4 ... 34, 2: 2 5 ... 35, 3: 3 6 ... 36"),
)}

# Other words players type for a kind (checked after the kind names themselves).
ALIASES: dict[str, Kind] = {
    "single": Kind.STRAIGHT, "number": Kind.STRAIGHT, "six": Kind.SIXLINE, "line": Kind.SIXLINE,
    "first4": Kind.FIRSTFOUR, "four": Kind.FIRSTFOUR, "rouge": Kind.RED, "noir": Kind.BLACK,
    "impair": Kind.ODD, "pair": Kind.EVEN, "1-18": Kind.LOW, "manque": Kind.LOW,
    "19-36": Kind.HIGH, "passe": Kind.HIGH, "doz": Kind.DOZEN, "col": Kind.COLUMN,
}


def find_kind(word: str) -> Kind | None:
    """The kind a typed word names (case-insensitive), or None."""
    w = word.casefold()
    try:
        return Kind(w)
    except ValueError:
        return ALIASES.get(w)


def label(kind: Kind, pockets: frozenset[int]) -> str:
    """The canonical typed form of a bet without its amount: `split 17 20`, `street 13`.

    It reads back through the parser to the same pockets, so `unbet <label>` works."""
    if kind in (Kind.STRAIGHT, Kind.SPLIT, Kind.TRIO):
        return f"{kind.value} {_words(pockets)}"
    if kind in (Kind.STREET, Kind.SIXLINE):
        return f"{kind.value} {min(pockets)}"
    if kind is Kind.CORNER:
        return f"corner {min(pockets)} {max(pockets)}"
    if kind is Kind.DOZEN:
        return f"dozen {L.dozen(min(pockets))}"
    if kind is Kind.COLUMN:
        return f"column {L.column(min(pockets))}"
    return kind.value

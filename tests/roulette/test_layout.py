"""The layout's pocket sets against an independent geometric model of the 3x12
grid, and every bet kind on all 37 pockets against the layout facts."""
import pytest

from server.games.roulette import layout as L
from server.games.roulette.bets import parse
from server.games.roulette.kinds import KINDS, Kind, label
from server.games.roulette.payout import settle

RULES_RED = "1 3 5 7 9 12 14 16 18 19 21 23 25 27 30 32 34 36"


def cell(n):
    """(row 0..11, column 0..2) of a number on the grid."""
    return (n - 1) // 3, (n - 1) % 3


def geometric_splits():
    out = {frozenset({0, n}) for n in (1, 2, 3)}
    for a in L.NUMBERS:
        for b in L.NUMBERS:
            (ra, ca), (rb, cb) = cell(a), cell(b)
            if a < b and abs(ra - rb) + abs(ca - cb) == 1:
                out.add(frozenset({a, b}))
    return out


def geometric_corners():
    out = set()
    for n in L.NUMBERS:
        r, c = cell(n)
        if r < 11 and c < 2:
            out.add(frozenset({n, n + 1, n + 3, n + 4}))
    return out


def test_colours_are_the_rules_colours():
    assert L.RED == frozenset(map(int, RULES_RED.split()))
    assert len(L.RED) == len(L.BLACK) == 18
    assert L.colour(0) is L.Colour.GREEN
    assert all(L.colour(n) is (L.Colour.RED if n in L.RED else L.Colour.BLACK) for n in L.NUMBERS)


def test_inside_groups_match_the_grid():
    assert set(L.SPLITS) == geometric_splits() and len(L.SPLITS) == 60 == len(set(L.SPLITS))
    assert set(L.CORNERS) == geometric_corners() and len(L.CORNERS) == 22
    assert [sorted(s) for s in L.STREETS] == [[n, n + 1, n + 2] for n in range(1, 35, 3)]
    assert [sorted(s) for s in L.SIX_LINES] == [list(range(n, n + 6)) for n in range(1, 32, 3)]
    assert set(L.TRIOS) == {frozenset({0, 1, 2}), frozenset({0, 2, 3})}
    assert L.FIRST_FOUR == {0, 1, 2, 3}


def test_outside_groups():
    assert L.DOZENS[2] == set(range(13, 25))
    assert L.COLUMNS[1] == set(range(1, 35, 3)) and L.COLUMNS[3] == set(range(3, 37, 3))
    assert L.LOW | L.HIGH == L.ODD | L.EVEN == L.RED | L.BLACK == set(L.NUMBERS)
    assert 0 not in L.EVEN and L.is_even(0) is False


def test_payouts_are_fair_but_for_zero():
    """Each kind pays (36 / numbers covered) - 1 to 1: that is what makes the edge 1/37."""
    expected = {Kind.STRAIGHT: 35, Kind.SPLIT: 17, Kind.STREET: 11, Kind.CORNER: 8, Kind.SIXLINE: 5,
                Kind.TRIO: 11, Kind.FIRSTFOUR: 8, Kind.DOZEN: 2, Kind.COLUMN: 2}
    for kind, info in KINDS.items():
        assert info.pays == expected.get(kind, 1)
        assert info.pays == 36 // info.size - 1 and 36 % info.size == 0
        assert all(len(g) == info.size for g in info.groups)


# For every kind: which pockets must win, from the layout's own facts.
FACTS = {
    "red": lambda p: L.colour(p) is L.Colour.RED,
    "black": lambda p: L.colour(p) is L.Colour.BLACK,
    "odd": lambda p: p != 0 and p % 2 == 1,
    "even": lambda p: p != 0 and p % 2 == 0,
    "low": lambda p: 1 <= p <= 18,
    "high": lambda p: 19 <= p <= 36,
    **{f"dozen {d}": (lambda d: lambda p: L.dozen(p) == d)(d) for d in (1, 2, 3)},
    **{f"column {c}": (lambda c: lambda p: L.column(p) == c)(c) for c in (1, 2, 3)},
}


def inside_bets():
    """(typed form, pockets it must win on) for every inside bet on the layout."""
    out = [(f"straight {n}", {n}) for n in L.POCKETS]
    out += [(f"split {' '.join(map(str, sorted(s)))}", set(s)) for s in geometric_splits()]
    for n in L.NUMBERS:
        r, _ = cell(n)
        out.append((f"street {n}", {3 * r + 1, 3 * r + 2, 3 * r + 3}))
        if r < 11:
            out.append((f"sixline {n}", set(range(3 * r + 1, 3 * r + 7))))
    for c in geometric_corners():
        lo, hi = min(c), max(c)
        out += [(f"corner {lo} {hi}", set(c)), (f"corner {lo + 1} {hi - 1}", set(c)),
                (f"corner {' '.join(map(str, sorted(c)))}", set(c))]
    out += [("trio 0 1 2", {0, 1, 2}), ("trio 0 2 3", {0, 2, 3}), ("firstfour", {0, 1, 2, 3})]
    return out


@pytest.mark.parametrize("typed,wins", inside_bets() + [(k, {p for p in L.POCKETS if f(p)}) for k, f in FACTS.items()])
def test_every_bet_on_every_pocket(typed, wins):
    bet = parse(f"{typed} 10")
    assert not isinstance(bet, str), bet
    pays = KINDS[bet.kind].pays
    for pocket in L.POCKETS:
        assert settle(bet, pocket) == (10 * (pays + 1) if pocket in wins else 0), (typed, pocket)
    # the canonical name reads back to the same bet
    assert parse(f"{label(bet.kind, bet.numbers)} 10") == bet


def test_every_group_is_reachable_by_typing():
    typed = {parse(f"{t} 1") for t, _ in inside_bets()} | {parse(f"{t} 1") for t in FACTS}
    for kind, info in KINDS.items():
        assert {b.numbers for b in typed if b.kind is kind} == set(info.groups), kind


@pytest.mark.parametrize("pocket,words", [
    (0, "0 green"),
    (17, "17 black, odd, low, second dozen, second column"),
    (36, "36 red, even, high, third dozen, third column"),
    (1, "1 red, odd, low, first dozen, first column"),
    (19, "19 red, odd, high, second dozen, first column"),
])
def test_call(pocket, words):
    assert L.call(pocket) == words

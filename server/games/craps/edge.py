"""Exact house edges, computed from the outcome function, never looked up.

A bet and the part of the table it reads (the point, Fire's made points, the
Small/Tall/All tracker) form a Markov chain: each of the 36 dice moves it to a
terminal result (win, lose, push) or to a next state. The expected value is
solved exactly in Fractions, strongly connected component by component (the
point cycles; trackers only grow), so no iteration or rounding is involved.

Edge = expected loss / amount wagered, a push counting as a resolved bet.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import TypeVar

from server.config.model import TableConfig
from server.games.craps.options import CrapsOptions

from .bets import Bet, Kind, commission_free_unit, payout_unit
from .limits import Limits
from .outcome import (
    ALL_DICE,
    ALL_MASK,
    COME_OUT,
    SMALL_MASK,
    TALL_MASK,
    Result,
    Rulebook,
    TableView,
    rulebook,
)
from .variants import BANK, Variant, charge_on_bet

State = TypeVar("State", bound=Hashable)
# One way out of a state: (probability, terminal value, None) or (probability, None, next state).
Transition = tuple[Fraction, Fraction | None, State | None]
P = Fraction(1, 36)


def _point_only(v: TableView) -> TableView:
    return TableView(v.point)


# The parts of the table each kind's outcome reads; everything else is dropped
# from the chain's state so it stays small (and finite: `rolls` would not be).
PROJECTION: dict[Kind, Callable[[TableView], TableView]] = {
    Kind.ODDS: _point_only, Kind.PLACE: _point_only, Kind.BUY: _point_only, Kind.HARD: _point_only,
    Kind.FIRE: lambda v: TableView(v.point, v.fire),
    Kind.SMALL: lambda v: TableView(hits=v.hits & SMALL_MASK),
    Kind.TALL: lambda v: TableView(hits=v.hits & TALL_MASK),
    Kind.ALL: lambda v: TableView(hits=v.hits & ALL_MASK),
}


def _nothing(v: TableView) -> TableView:
    return COME_OUT


def solve(start: State, step: Callable[[State], list[Transition[State]]]) -> Fraction:
    """Expected terminal value of an absorbing chain, exactly (Tarjan + Gauss per SCC)."""
    edges: dict[State, list[Transition[State]]] = {}
    todo = [start]
    while todo:
        s = todo.pop()
        if s in edges:
            continue
        edges[s] = step(s)
        todo.extend(n for _, _, n in edges[s] if n is not None and n not in edges)
    value: dict[State, Fraction] = {}
    for scc in _sccs(start, edges):
        members = {s: i for i, s in enumerate(scc)}
        size = len(scc)
        rows = [[Fraction(0)] * (size + 1) for _ in range(size)]
        for i, s in enumerate(scc):
            rows[i][i] += 1
            for p, terminal, nxt in edges[s]:
                if nxt is None:
                    if terminal is None:
                        raise ValueError(f"a transition from {s!r} leads nowhere")
                    rows[i][size] += p * terminal
                elif nxt in members:
                    rows[i][members[nxt]] -= p
                else:
                    rows[i][size] += p * value[nxt]
        for s, v in zip(scc, _gauss(rows)):
            value[s] = v
    return value[start]


def _gauss(rows: list[list[Fraction]]) -> list[Fraction]:
    n = len(rows)
    for c in range(n):
        pivot = next(r for r in range(c, n) if rows[r][c] != 0)
        rows[c], rows[pivot] = rows[pivot], rows[c]
        inv = 1 / rows[c][c]
        rows[c] = [x * inv for x in rows[c]]
        for r in range(n):
            if r != c and rows[r][c] != 0:
                f = rows[r][c]
                rows[r] = [x - f * y for x, y in zip(rows[r], rows[c])]
    return [rows[r][n] for r in range(n)]


def _sccs(start: State, edges: dict[State, list[Transition[State]]]) -> list[list[State]]:
    """Tarjan's SCCs, iterative; emitted successors first (reverse topological order)."""
    index: dict[State, int] = {}
    low: dict[State, int] = {}
    on_stack: set[State] = set()
    stack: list[State] = []
    out: list[list[State]] = []
    counter = 0
    work = [(start, iter([n for _, _, n in edges[start] if n is not None]))]
    index[start] = low[start] = counter
    counter += 1
    stack.append(start)
    on_stack.add(start)
    while work:
        s, it = work[-1]
        for n in it:
            if n not in index:
                index[n] = low[n] = counter
                counter += 1
                stack.append(n)
                on_stack.add(n)
                work.append((n, iter([m for _, _, m in edges[n] if m is not None])))
                break
            if n in on_stack:
                low[s] = min(low[s], index[n])
        else:
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[s])
            if low[s] == index[s]:
                scc: list[State] = []
                while True:
                    m = stack.pop()
                    on_stack.discard(m)
                    scc.append(m)
                    if m == s:
                        break
                out.append(scc)
    return out


def expected_value(book: Rulebook, bet: Bet, view: TableView = COME_OUT) -> Fraction:
    """Expected net chips of `bet` placed with the table at `view`, played until it resolves."""
    project = book.projection(bet.kind) or PROJECTION.get(bet.kind, _nothing)
    faces = book.faces
    p = Fraction(1, len(faces))               # every draw as likely: 1/36 for two dice

    def step(state: tuple[Bet, TableView]) -> list[Transition[tuple[Bet, TableView]]]:
        b, v = state
        ends: dict[Fraction, Fraction] = {}                      # terminal value -> probability
        goes: dict[tuple[Bet, TableView], Fraction] = {}         # next state -> probability
        for dice in faces:
            o = book.outcome(b, dice, v)
            r = o.result
            if r is Result.WIN:
                ends[Fraction(o.amount)] = ends.get(Fraction(o.amount), Fraction(0)) + p
            elif r is Result.LOSE:
                ends[Fraction(-b.amount)] = ends.get(Fraction(-b.amount), Fraction(0)) + p
            elif r is Result.PUSH:
                ends[Fraction(0)] = ends.get(Fraction(0), Fraction(0)) + p
            else:
                nb = b.travel(o.number) if r is Result.TRAVEL else b
                nxt = (nb, project(book.advance(v, dice)))
                goes[nxt] = goes.get(nxt, Fraction(0)) + p
        out: list[Transition[tuple[Bet, TableView]]] = [(p, value, None) for value, p in ends.items()]
        return out + [(p, None, nxt) for nxt, p in goes.items()]

    return solve((bet, project(view)), step)


def edge(book: Rulebook, bet: Bet, view: TableView = COME_OUT) -> Fraction:
    return -expected_value(book, bet, view) / bet.amount


def line_with_odds(book: Rulebook, limits: Limits, kind: Kind) -> Fraction:
    """Flat bet plus the table's maximum odds on whatever point it gets, combined."""
    odds_kind = Kind.ODDS if kind is Kind.PASS else Kind.LAY_ODDS
    flat = Bet(kind, 0, 1)
    ev = expected_value(book, flat)
    wagered = Fraction(1)
    for n in book.variant.points:
        p_point = sum(P for d in ALL_DICE if book.outcome(flat, d, COME_OUT).number == n
                      and book.outcome(flat, d, COME_OUT).result is Result.TRAVEL)
        unit = payout_unit(odds_kind, n)
        per_unit = expected_value(book, Bet(odds_kind, n, unit), TableView(n)) / unit
        odds = limits.odds_limit(odds_kind, n, 1)     # times a 1-chip flat bet
        ev += p_point * odds * per_unit
        wagered += p_point * odds
    return -ev / wagered


def _bets(variant: Variant = BANK) -> list[tuple[str, Bet | Kind]]:
    """The bets `casino odds` reports, by name, at the stake each is quoted at:
    every bet the variant offers, on every number it takes."""
    out: list[tuple[str, Bet | Kind]] = [
        ("high", Bet(Kind.HIGH, 0, 1)), ("pass", Bet(Kind.PASS, 0, 1)), ("dontpass", Bet(Kind.DONT_PASS, 0, 1)),
        ("come", Bet(Kind.COME, 0, 1)), ("dontcome", Bet(Kind.DONT_COME, 0, 1)),
        ("pass+odds", Kind.PASS), ("dontpass+odds", Kind.DONT_PASS),
    ]
    for kind in (Kind.PLACE, Kind.BUY, Kind.LAY):
        out += [(f"{kind.value} {n}", Bet(kind, n, commission_free_unit(kind, n)))
                for n in (variant.numbers(kind) or ()) if variant.offers(kind)]
    out += [(f"hard {n}", Bet(Kind.HARD, n, 1)) for n in (4, 6, 8, 10)]
    out += [("field", Bet(Kind.FIELD, 0, 1)), ("any7", Bet(Kind.ANY7, 0, 1)),
            ("anycraps", Bet(Kind.ANYCRAPS, 0, 1))]
    out += [(str(n), Bet(Kind.PROP, n, 1)) for n in (2, 3, 11, 12)]
    out += [("horn", Bet(Kind.HORN, 0, payout_unit(Kind.HORN, 0))),
            ("hop easy", Bet(Kind.HOP, 12, 1)), ("hop hard", Bet(Kind.HOP, 11, 1))]
    out += [(k.value, Bet(k, 0, 1)) for k in (Kind.FIRE, Kind.SMALL, Kind.TALL, Kind.ALL)]
    out += [(f"face {n}", Bet(Kind.FACE, n, 1)) for n in (variant.numbers(Kind.FACE) or ())]
    # A line bet with odds is listed where the table takes those odds.
    with_odds = {Kind.PASS: Kind.ODDS, Kind.DONT_PASS: Kind.LAY_ODDS}
    return [(label, bet) for label, bet in out
            if (variant.offers(bet) and variant.offers(with_odds[bet]) if isinstance(bet, Kind)
                else variant.offers(bet.kind))]


def house_edges(table: TableConfig[CrapsOptions]) -> list[tuple[str, Fraction]]:
    """Every bank craps bet's exact house edge at this table's settings."""
    limits = Limits.of(table)
    book = rulebook(limits.field_12, limits.variant)
    result: list[tuple[str, Fraction]] = []
    for label, bet in _bets(limits.variant):
        if isinstance(bet, Kind):
            result.append((label, line_with_odds(book, limits, bet)))
        elif charge_on_bet(limits.variant, bet):
            # New York: the charge paid when the bet is made counts as part of
            # what was bet, and is lost whatever the bet does.
            fee = charge_on_bet(limits.variant, bet)
            result.append((label, (fee - expected_value(book, bet)) / (bet.amount + fee)))
        else:
            result.append((label, edge(book, bet)))
    return result

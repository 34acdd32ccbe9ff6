"""Payout examples in whole chips, la partage, and the exact edges."""
from fractions import Fraction

import pytest

from server.games.roulette.bets import Bet, parse
from server.games.roulette.kinds import KINDS, Kind
from server.games.roulette.odds import edge, house_edges, kind_edge, odds_rows
from server.games.roulette.payout import settle


@pytest.mark.parametrize("typed,pocket,back", [
    ("straight 17 10", 17, 360), ("straight 17 10", 18, 0), ("straight 0 3", 0, 108),
    ("split 17 20 5", 20, 90), ("split 0 2 5", 0, 90), ("split 17 20 5", 0, 0),
    ("street 13 5", 15, 60), ("corner 17 21 5", 18, 45), ("sixline 13 5", 18, 30),
    ("trio 0 2 3 5", 2, 60), ("firstfour 5", 3, 45),
    ("red 10", 1, 20), ("red 10", 2, 0), ("black 10", 2, 20), ("odd 10", 35, 20), ("even 10", 36, 20),
    ("low 10", 18, 20), ("high 10", 19, 20), ("high 10", 18, 0),
    ("dozen 2 10", 24, 30), ("dozen 2 10", 25, 0), ("column 3 10", 36, 30), ("column 3 10", 35, 0),
    ("red 10", 0, 0), ("even 10", 0, 0), ("dozen 1 10", 0, 0), ("column 1 10", 0, 0),
])
def test_payout_examples(typed, pocket, back):
    assert settle(parse(typed), pocket) == back


@pytest.mark.parametrize("typed,back", [("red 10", 5), ("black 11", 5), ("odd 1", 0), ("low 7", 3),
                                        ("high 2", 1), ("even 10000", 5000)])
def test_la_partage_returns_half_the_stake_rounded_down(typed, back):
    bet = parse(typed)
    assert settle(bet, 0, la_partage=True) == back
    assert settle(bet, 0) == 0


@pytest.mark.parametrize("typed", ["dozen 1 10", "column 2 10", "straight 5 10", "split 0 1 10",
                                   "trio 0 1 2 10", "firstfour 10"])
def test_la_partage_touches_only_even_money_bets(typed):
    bet = parse(typed)
    assert settle(bet, 0, la_partage=True) == settle(bet, 0)
    for pocket in range(1, 37):
        assert settle(bet, pocket, la_partage=True) == settle(bet, pocket)


def test_every_edge_is_one_in_37():
    assert dict(house_edges()) == {k.value: Fraction(1, 37) for k in Kind}


def test_la_partage_edges():
    edges = dict(house_edges(la_partage=True))
    for kind, info in KINDS.items():
        assert edges[kind.value] == (Fraction(1, 74) if info.even_money else Fraction(1, 37))
    # "on an even stake": one chip has no half to give back
    assert kind_edge(Kind.RED, la_partage=True, stake=1) == Fraction(1, 37)


def test_edge_is_computed_not_quoted():
    """A bet paying one chip short would show up at once."""
    assert edge(Bet(Kind.STRAIGHT, frozenset({7}), 1)) == 1 - Fraction(36, 37)
    assert edge(Bet(Kind.RED, frozenset(KINDS[Kind.RED].groups[0]), 2), la_partage=True) == Fraction(1, 74)


def test_odds_rows_are_json_ready():
    import json
    rows = odds_rows("roulette", la_partage=True)
    assert json.loads(json.dumps(rows))[0] == {"table": "roulette", "bet": "straight",
                                               "house_edge": 1 / 37, "exact": "1/37"}
    assert {r["bet"]: r["exact"] for r in rows}["red"] == "1/74"

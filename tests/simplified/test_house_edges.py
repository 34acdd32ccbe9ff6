"""Exact house edges from the engine's own rules, against the known values."""
from __future__ import annotations

from fractions import Fraction

from simplified_helpers import table

from server.games.simplified.odds import edge, house_edges
from server.games.simplified.rules import WAYS, Side


def test_default_table_keeps_a_house_edge():
    rows = dict(house_edges(table()))
    assert list(rows) == ["pass", "dontpass", "pass+odds", "dontpass+odds", "pass+press"]
    assert rows["pass"] == Fraction(7, 495)            # 1.414%
    assert rows["dontpass"] == Fraction(3, 220)        # 1.364%, bar 12 (push counted)
    assert rows["pass+odds"] == Fraction(7, 1870)      # 0.374% with 3-4-5x
    assert rows["dontpass+odds"] == Fraction(3, 1100)  # 0.273% with 6x laid
    assert rows["pass+press"] == Fraction(23, 275)
    assert all(e > 0 for e in rows.values())


def test_001_rules_give_the_player_the_edge_on_dont_pass():
    rows = dict(house_edges(table(bar=None, press="both")))
    assert rows["dontpass"] == -Fraction(7, 495)
    assert rows["dontpass+odds"] < 0 and rows["dontpass+press"] < 0
    assert rows["pass"] == Fraction(7, 495)


def test_press_none_lists_no_press_rows_and_n_times_odds():
    rows = dict(house_edges(table(press="none", odds=2)))
    assert "pass+press" not in rows and "dontpass+press" not in rows
    assert rows["pass+odds"] == Fraction(1, 165)       # 0.606% with 2x odds
    assert rows["dontpass+odds"] == Fraction(3, 220) / (1 + Fraction(2, 3) * 2)


def test_pass_edge_matches_a_direct_computation():
    # Independent of the engine: P(win) = 8/36 + sum P(point) * P(point before 7).
    win = Fraction(8, 36) + sum(Fraction(WAYS[p], 36) * Fraction(WAYS[p], WAYS[p] + 6)
                                for p in (4, 5, 6, 8, 9, 10))
    assert edge(table(), Side.PASS) == 1 - 2 * win


def test_edges_ignore_the_table_limits():
    assert dict(house_edges(table(min_bet=500, max_bet=500))) == dict(house_edges(table()))

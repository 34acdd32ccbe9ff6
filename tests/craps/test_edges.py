"""`casino odds`: exact edges from the engine agree with the published figures."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from craps_helpers import config

from server.games.craps import edge as edge_mod
from server.games.craps.bets import Bet, Kind
from server.games.craps.edge import house_edges, solve
from server.games.craps.outcome import Outcome, Result, rulebook

ROOT = Path(__file__).resolve().parents[2]
NAMES = (["pass", "dontpass", "come", "dontcome", "pass+odds", "dontpass+odds"]
         + [f"{k} {n}" for k in ("place", "buy", "lay") for n in (4, 5, 6, 8, 9, 10)]
         + ["hard 4", "hard 6", "hard 8", "hard 10", "field", "any7", "anycraps", "2", "3", "11",
            "12", "horn", "hop easy", "hop hard", "fire", "small", "tall", "all"])
PUBLISHED = {"pass": 1.414, "dontpass": 1.364, "place 6": 1.515, "fire": 20.763,
             "small": 7.761, "tall": 7.761, "all": 7.464, "pass+odds": 0.374,
             "place 5": 4.0, "place 4": 6.667, "buy 4": 1.667, "lay 4": 1.667, "horn": 12.5,
             "hard 6": 9.091, "any7": 16.667, "hop hard": 13.889}


@pytest.fixture(scope="module")
def edges_345() -> dict[str, Fraction]:
    return dict(house_edges(config(odds=0, field_12=2)))


def test_every_named_bet_is_reported(edges_345):
    assert list(edges_345) == NAMES


@pytest.mark.parametrize("bet,percent", sorted(PUBLISHED.items()))
def test_published_edges_to_three_decimals(edges_345, bet, percent):
    assert round(float(edges_345[bet]) * 100, 3) == percent


def test_field_edge_follows_field_12(edges_345):
    assert round(float(edges_345["field"]) * 100, 3) == 5.556
    three = dict(house_edges(config(field_12=3)))
    assert round(float(three["field"]) * 100, 3) == 2.778


def test_odds_setting_moves_the_combined_edges(edges_345):
    seven = dict(house_edges(config(odds=7)))
    assert seven["pass"] == edges_345["pass"] == Fraction(7, 495)
    assert seven["pass+odds"] < edges_345["pass+odds"]
    assert seven["pass+odds"] == Fraction(7, 495) / (1 + 7 * Fraction(24, 36))
    none = dict(house_edges(config(odds=1)))
    assert round(float(none["pass+odds"]) * 100, 3) == 0.848


def test_edges_are_computed_from_the_rules_not_looked_up(monkeypatch):
    """Change a payout in the outcome function: the edge must follow."""
    book = rulebook(2)
    real = book.outcome

    def stingy(bet, dice, view):
        o = real(bet, dice, view)
        if bet.kind is Kind.PLACE and bet.number == 6 and o.result is Result.WIN:
            return Outcome(Result.WIN, bet.amount)          # even money instead of 7:6
        return o

    monkeypatch.setattr(book, "outcome", stingy)
    got = edge_mod.edge(book, Bet(Kind.PLACE, 6, 6))
    assert got == Fraction(1, 11)                           # (5 - 6) / 11


def test_solver_handles_cycles_exactly():
    # a fair coin game that may loop forever in a 2-cycle: value is 0 exactly
    def step(s):
        half = Fraction(1, 2)
        other = "b" if s == "a" else "a"
        quarter = Fraction(1, 4)
        return [(half, None, other), (quarter, Fraction(1), None), (quarter, Fraction(-1), None)]
    assert solve("a", step) == 0


def test_odds_cli_json_on_the_shipped_config(capsys):
    from server.cli import main
    assert main(["odds", "--config", str(ROOT / "config"), "--rooms", str(ROOT / "rooms"),
                 "--json", "--table", "bank_craps"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["bet"] for r in rows] == NAMES
    assert {r["table"] for r in rows} == {"bank_craps"}
    by = {r["bet"]: r["house_edge"] for r in rows}
    assert round(by["pass"] * 100, 3) == 1.414 and round(by["field"] * 100, 3) == 2.778


def test_odds_cli_text_lists_every_craps_table(capsys):
    from server.cli import main
    assert main(["odds", "--config", str(ROOT / "config")]) == 0
    out = capsys.readouterr().out
    assert "bank_craps: bank craps, odds 3-4-5x" in out
    assert "place 6" in out and "1.515%" in out
    assert "simple_craps: simplified craps" in out       # through server.games.simplified.odds

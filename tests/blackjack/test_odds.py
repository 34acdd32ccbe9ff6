"""What the casino shows of the strategy and the edge: `casino odds`' sheet and lines,
the `hint` line, and `casino sim` at a blackjack table. The sheet is handed to the real
commands by standing in for the loaded config and the entry (all they read of a game),
and `casino odds` reads the shipped config through the catalogue's own entry."""
from __future__ import annotations

import json
from pathlib import Path
from dataclasses import dataclass
from fractions import Fraction
from types import SimpleNamespace
from typing import Any

import pytest
from bj_helpers import rules

from server.config.model import CasinoConfig, GameOptions, Settings, TableConfig
from server.games.blackjack import edge
from server.games.blackjack.edge import infinite_shoe_edge, odds_lines, odds_rows, odds_sheet, rules_words
from server.games.blackjack.strategy import hint_text
from server.games.catalogue import find_game

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def few_rounds(monkeypatch):
    """The sheet's simulation, small (the real one plays 100,000 rounds)."""
    monkeypatch.setattr(edge, "ODDS_ROUNDS", 3000)
    edge._estimate.cache_clear()


def table(**changes: Any) -> TableConfig[GameOptions]:
    return TableConfig("bj", "blackjack", 7, 2, 1000, rules(**changes))


def test_the_sheet_names_the_rules_and_gives_both_edges():
    sheet = odds_sheet(table(decks=8, soft_17="hit", surrender="late"))
    assert sheet.heading == ("bj: blackjack, 8 decks cut at 75%, dealer hits soft 17, blackjack pays 3:2, "
                             "split to 4 hands, double after split, no resplit of aces, late surrender, bets 2..1000")
    names = [name for name, _ in sheet.edges]
    assert names == ["infinite shoe", "8-deck shoe", "8-deck shoe low", "8-deck shoe high"]
    values = dict(sheet.edges)
    assert values["infinite shoe"] == infinite_shoe_edge(rules(soft_17="hit", surrender="late"))
    assert values["8-deck shoe low"] < values["8-deck shoe"] < values["8-deck shoe high"]
    assert all(isinstance(v, Fraction) for v in values.values())


def test_rules_words_read_every_rule():
    assert rules_words(rules(decks=1, max_hands=1, double_after_split=False, resplit_aces=True,
                             blackjack_pays="6:5")) == (
        "1 deck cut at 75%, dealer stands on soft 17, blackjack pays 6:5, no split, "
        "no double after split, resplit aces, no surrender")


def test_odds_lines_say_how_each_figure_was_found():
    lines = odds_lines(rules())
    assert lines[0].startswith("Rules: 6 decks cut at 75%")
    assert "infinite shoe: 0.512% (exact" in lines[1]
    assert "95% interval" in lines[2] and "3,000 rounds simulated, seed 40" in lines[2]


def test_the_sheet_is_simulated_once_a_process():
    odds_rows(rules())
    odds_rows(rules())
    assert edge._estimate.cache_info().misses == 1


def test_hint_is_one_line_of_what_and_why():
    line = hint_text(rules(surrender="late"), (10, 6), 10)
    assert line == ("Basic strategy: hard 16 against a 10: surrender - surrender saves more than hitting "
                    "loses (-50.0% of the bet, hitting -54.0%)")
    assert hint_text(rules(surrender="late"), (10, 6), 10, can_surrender=False).startswith(
        "Basic strategy: hard 16 against a 10: hit")
    assert "\n" not in hint_text(rules(), (8, 8), 6)
    assert hint_text(rules(), (2, 3, 4, 2), 6).startswith("Basic strategy: hard 11 against a 6: hit")


@dataclass
class Loaded:
    """The commands' view of a loaded casino with one blackjack table (and its entry)."""

    config: CasinoConfig

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from server.cli import _config
        from server.games import catalogue
        monkeypatch.setattr(_config, "load_or_report", lambda *a: self.config)
        monkeypatch.setattr(catalogue, "entry_for", lambda t: SimpleNamespace(odds=odds_sheet))


def loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    Loaded(CasinoConfig(Settings(), {"bj": table()}, {})).install(monkeypatch)


def test_casino_odds_prints_the_sheet(monkeypatch, capsys):
    from server.cli import main
    loaded(monkeypatch)
    assert main(["odds", "--table", "bj"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("bj: blackjack, 6 decks cut at 75%")
    assert out[1].split() == ["infinite", "shoe", "0.512%"]
    assert main(["odds", "--table", "bj", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["bet"] for r in rows][0] == "infinite shoe" and round(rows[0]["house_edge"], 5) == 0.00512


def test_casino_sim_plays_basic_strategy_at_a_blackjack_table(monkeypatch, capsys):
    from server.cli import main
    loaded(monkeypatch)
    args = ["sim", "--table", "bj", "--strategy", "basic", "--rolls", "2000", "--seed", "3"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "rounds           2000" in out and "95% interval" in out and "infinite shoe    0.512% (exact)" in out
    assert main([*args[:4], "pass", *args[5:]]) == 2
    assert "blackjack plays basic strategy, not 'pass'" in capsys.readouterr().out


def test_casino_odds_on_the_shipped_config_reads_the_catalogue_entry(capsys):
    """End to end: the shipped config loaded, the table's game found in the catalogue, its
    sheet printed; the whole config's sheet lists blackjack beside the other games."""
    from server.cli import main
    entry = find_game("blackjack")
    assert entry is not None and entry.odds is odds_sheet
    config = ["--config", str(ROOT / "config"), "--rooms", str(ROOT / "rooms")]
    assert main(["odds", *config, "--table", "blackjack"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("blackjack: blackjack, 6 decks cut at 75%, dealer stands on soft 17, blackjack pays 3:2, "
                      "split to 4 hands, double after split, no resplit of aces, no surrender, bets 2..1000")
    assert [line.split()[:-1] for line in out[1:5]] == [
        ["infinite", "shoe"], ["6-deck", "shoe"], ["6-deck", "shoe", "low"], ["6-deck", "shoe", "high"]]
    assert out[1].split()[-1] == "0.512%"
    mid, low, high = (float(line.split()[-1].rstrip("%")) for line in out[2:5])
    assert low < mid < high
    assert main(["odds", *config, "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {"bank_craps", "roulette", "blackjack"} <= {r["table"] for r in rows}
    mine = [r for r in rows if r["table"] == "blackjack"]
    assert Fraction(mine[0]["exact"]) == infinite_shoe_edge(rules())
    assert [r["bet"] for r in mine] == ["infinite shoe", "6-deck shoe", "6-deck shoe low", "6-deck shoe high"]

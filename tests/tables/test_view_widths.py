"""Each game lays its table out for the viewer's width itself (no line left
for the session to wrap), at 80, 60 and 40 columns, in Unicode and ASCII."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from server.config.load import load_config
from server.games.catalogue import entry_for
from server.games.seam import Viewer
from server.render.prefs import Prefs
from server.render.width import display_width
from support.dice import TableDice
from support.pure_table import PureTable

ROOT = Path(__file__).resolve().parents[2]
CONFIG = load_config(ROOT / "config", ROOT / "rooms")
PLAYERS = ("annabelle_longname", "bob", "cat")
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Dice(TableDice):
    """Scripted rolls, and what the other tables ask of their source."""

    client_seed = "seed"

    def draw(self, n):          # a wheel's pocket (17), Die Rich's die (a 6)
        return 17 % n


# What each game's busiest view needs done, by the catalogue's game key: a new
# table of a game is made busy by its game's moves, whatever its id (a game
# not listed here is played by its bare words: see busy).
MOVES = {"bank_craps": [["bet", "pass", "10"], ["bet", "field", "5"], ["roll"], ["bet", "place", "8", "12"]],
         "simplified_craps": [["bet", "pass", "10"], ["roll"]],
         "crapless_craps": [["bet", "pass", "10"], ["bet", "field", "5"], ["roll"], ["bet", "place", "2", "12"],
                            ["bet", "come", "5"]],
         "new_york_craps": [["bet", "pass", "10"], ["roll"], ["bet", "buy", "4", "20"], ["bet", "lay", "10", "40"]],
         "diceless_craps": [["bet", "pass", "10"], ["bet", "field", "5"], ["roll"], ["bet", "place", "8", "12"]],
         "high_point_craps": [["bet", "high", "10"], ["roll"]],
         "die_rich_craps": [["bet", "pass", "10"], ["bet", "face", "3", "5"], ["roll"], ["bet", "face", "6", "9999"]],
         "alley_craps": [["start"], ["bet", "20"]],
         "pig": [["start"], ["roll"]],
         "roulette": [["bet", "red", "10"], ["bet", "split", "17", "20", "5"], ["bet", "36", "2500"],
                      ["bet", "dozen", "3", "10000"]]}


def game_of(table_id):
    return entry_for(CONFIG.tables[table_id]).key


def first_table(game):
    """The first configured table of a game (by catalogue key)."""
    return next(tid for tid in CONFIG.tables if game_of(tid) == game)


def busy(table_id, table=None):
    """The table seated full and played by its game's moves (`table`: one not in CONFIG)."""
    table = table or CONFIG.tables[table_id]
    entry = entry_for(table)
    # A game not listed is played by its bare words (those that need nothing
    # after them): its view is checked all the same, if less busy; list it in
    # MOVES to check it at its busiest.
    moves = MOVES.get(entry.key) or [[a.word] for a in entry.actions if not a.needs]
    t = PureTable(table, 10, Dice([(2, 4), (3, 3), (1, 3)] * 20))
    for p in PLAYERS[: table.max_players]:
        t.sit(p, 1000)
    first = PLAYERS[0]
    if getattr(table.options, "dice", None) == "classic":   # classic dice roll once seeded (the `seed` command's part)
        assert t.dealer.classic.take_seed("msvc 4294967295").startswith("Seeded")
    for words in moves:
        t.act(first, words, 1000)
    return t


def fits(t, width, unicode):
    """Seated and watching, the view has lines and none is wider than `width`."""
    for who, seated in ((PLAYERS[0], True), ("watcher", False)):
        lines = t.view(Viewer(who, Prefs(width=width, unicode=unicode, color=True), seated))
        assert lines
        wide = [line for line in lines if display_width(line) > width]
        assert not wide, wide


@pytest.mark.parametrize("unicode", [True, False])
@pytest.mark.parametrize("width", [80, 60, 40])
@pytest.mark.parametrize("table_id", sorted(CONFIG.tables))
def test_every_table_view_fits_the_width(table_id, width, unicode):
    fits(busy(table_id), width, unicode)


@pytest.mark.parametrize("width", [80, 60, 40])
@pytest.mark.parametrize("game", sorted({game_of(t) for t in CONFIG.tables}))
def test_an_added_table_of_each_game_fits_too(game, width):
    """Issue 35: nothing here knows a table by its id, so one an operator adds
    (here each game's first table under a new id) is laid out and checked too."""
    table = replace(CONFIG.tables[first_table(game)], id=f"added_{game}")
    fits(busy(table.id, table), width, unicode=True)


def lines_at(t, width, unicode=True, who=PLAYERS[0]):
    return [ANSI.sub("", line) for line in
            t.view(Viewer(who, Prefs(width=width, unicode=unicode, color=True), who in t.seated()))]


@pytest.mark.parametrize("width", [80, 60, 40])
@pytest.mark.parametrize("table_id", sorted(t for t in CONFIG.tables if game_of(t) != "simplified_craps"))
def test_a_wrapped_commands_line_never_starts_with_a_bar(table_id, width):
    """Issue 28 item 7: the Commands line wraps after a `|`, never before one.
    (Simplified craps lists no commands with bars.)"""
    lines = lines_at(busy(table_id), width)          # Unicode: the art's edges are │, not |
    barred = [line for line in lines if "|" in line]
    assert barred, "a commands line with bars"
    assert not [line for line in barred if line.strip().startswith("|")]


@pytest.mark.parametrize("unicode", [True, False])
def test_the_stood_up_roulette_board_names_each_dozen_on_one_row(unicode):
    """Issue 28 item 7: at 40 columns the dozens read 1-12, 13-24, 25-36, never "1st" / "12"."""
    board = "\n".join(lines_at(busy(first_table("roulette")), 40, unicode)[1:28])
    for label in ("1-12", "13-24", "25-36"):
        assert board.count(label) == 1, label
    assert not any(word in board for word in ("1st", "2nd", "3rd"))


@pytest.mark.parametrize("game", ["bank_craps", "diceless_craps"])
def test_the_compact_puck_row_keeps_the_point_on_its_line(game):
    """Issue 28 item 7: at 40 columns the puck row on 10 keeps [10] beside the other numbers."""
    t = PureTable(CONFIG.tables[first_table(game)], 10, Dice([(4, 6)] * 3))
    t.sit("ann", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["roll"], 1000)
    lines = lines_at(t, 40, who="ann")
    (puck,) = [line for line in lines if "Puck ON 10:" in line]
    assert "[10]" in puck and " 9 " in puck and display_width(puck) == 40


def test_the_80_column_cloth_has_no_crossing_where_nothing_continues():
    """Issue 28 item 7: the rule under the number columns ends them (┴), no ┼ stubs."""
    lines = lines_at(busy(first_table("bank_craps")), 80, unicode=True)
    assert not [line for line in lines if "┼" in line]
    rule = [line for line in lines if line.startswith("├")]
    assert len(rule) == 1 and rule[0].count("┴") == 7

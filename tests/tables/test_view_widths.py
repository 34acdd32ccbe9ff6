"""Each game lays its table out for the viewer's width itself (no line left
for the session to wrap), at 80, 60 and 40 columns, in Unicode and ASCII."""
from __future__ import annotations

from pathlib import Path

import pytest

from server.config.load import load_config
from server.dice.source import FixedDice
from server.games.seam import Viewer
from server.render.prefs import Prefs
from server.render.width import display_width
from support.pure_table import PureTable

ROOT = Path(__file__).resolve().parents[2]
CONFIG = load_config(ROOT / "config", ROOT / "rooms")
PLAYERS = ("annabelle_longname", "bob", "cat")


class Dice(FixedDice):
    client_seed = "seed"

    def rotate(self):
        pass

    def draw(self, n):          # a wheel's pocket (17), Die Rich's die (a 6)
        return 17 % n


def busy(table_id):
    t = PureTable(CONFIG.tables[table_id], 10, Dice([(2, 4), (3, 3), (1, 3)] * 20))
    for p in PLAYERS[: CONFIG.tables[table_id].max_players]:
        t.sit(p, 1000)
    first = PLAYERS[0]
    if table_id == "classic_craps":             # classic dice roll once seeded (the `seed` command's part)
        assert t.dealer.classic.take_seed("msvc 4294967295").startswith("Seeded")
    moves = {"bank_craps": [["bet", "pass", "10"], ["bet", "field", "5"], ["roll"], ["bet", "place", "8", "12"]],
             "simple_craps": [["bet", "pass", "10"], ["roll"]],
             "classic_craps": [["bet", "pass", "10"], ["roll"]],
             "crapless_craps": [["bet", "pass", "10"], ["bet", "field", "5"], ["roll"], ["bet", "place", "2", "12"],
                                ["bet", "come", "5"]],
             "new_york_craps": [["bet", "pass", "10"], ["roll"], ["bet", "buy", "4", "20"], ["bet", "lay", "10", "40"]],
             "diceless_craps": [["bet", "pass", "10"], ["bet", "field", "5"], ["roll"], ["bet", "place", "8", "12"]],
             "high_point_craps": [["bet", "high", "10"], ["roll"]],
             "die_rich": [["bet", "pass", "10"], ["bet", "face", "3", "5"], ["roll"], ["bet", "face", "6", "9999"]],
             "alley_craps": [["start"], ["bet", "20"]],
             "pig": [["start"], ["roll"]],
             "roulette": [["bet", "red", "10"], ["bet", "split", "17", "20", "5"], ["bet", "36", "2500"],
                          ["bet", "dozen", "3", "10000"]]}[table_id]
    for words in moves:
        t.act(first, words, 1000)
    return t


@pytest.mark.parametrize("unicode", [True, False])
@pytest.mark.parametrize("width", [80, 60, 40])
@pytest.mark.parametrize("table_id", sorted(CONFIG.tables))
def test_every_table_view_fits_the_width(table_id, width, unicode):
    t = busy(table_id)
    for who, seated in ((PLAYERS[0], True), ("watcher", False)):
        lines = t.view(Viewer(who, Prefs(width=width, unicode=unicode, color=True), seated))
        assert lines
        wide = [line for line in lines if display_width(line) > width]
        assert not wide, wide

"""The last pass over a screen reader's lines (server/render/spoken.py): drawing out,
usage notation read as meant, and nothing a sighted player reads lost to the ear."""
from __future__ import annotations

import pytest

from server.render.spoken import dice_words, spoken, spoken_lines


@pytest.mark.parametrize(("drawn", "heard"), [
    ("set color on|off", "set color on or off"),
    ("bet <amount>", "bet amount"),
    ("bets [all]", "bets all"),
    ("Commands: bet n | hit | stand", "Commands: bet n, hit, stand"),
    ("Commands: bet n | hit | stand |", "Commands: bet n, hit, stand,"),   # a list wrapped after a bar
    ("  split | insurance [n|no]\u00a0|", "split, insurance n or no,"),     # glued to its word by NBSP
    ("| Point   6 |", "Point 6"),
    ("=====  Bank craps  =====", "Bank craps"),
    ("Wait...", "Wait..."),
    ("\u2680 \u2685", "one six"),
    ("\u250c\u2500\u2500\u2510", ""),
])
def test_a_line_as_a_reader_hears_it(drawn, heard):
    assert spoken(drawn) == heard


def test_colour_codes_stay_whole_and_a_line_of_only_drawing_goes():
    assert spoken("\x1b[1mPoint: 6\x1b[0m") == "\x1b[1mPoint: 6\x1b[0m"
    assert spoken_lines(["\x1b[31m-----\x1b[0m", "Seated: ann.\n\u2500\u2500\u2500"]) == ["Seated: ann."]


def test_dice_are_said_with_their_total():
    assert dice_words((4, 3)) == "Four and three, seven."
    assert dice_words((6, 6)) == "Six and six, twelve."
    assert dice_words((5,)) == "Five."

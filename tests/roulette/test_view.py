"""The table as players see it: the layout with the viewer's chips, colour and
ASCII, the last 20 numbers, and every line within 80 and 60 columns."""
from __future__ import annotations

import re

import pytest
from table_helpers import HZ, bet, seat, table, text

from server.games.roulette import board
from server.games.roulette.layout import BLACK, RED
from server.games.seam import Viewer
from server.render.prefs import Prefs

ANSI = re.compile(r"\x1b\[[0-9;]*m")
RED_CELL, BLACK_CELL, GREEN_CELL = "\x1b[1;97;41m", "\x1b[1;97;40m", "\x1b[1;97;42m"
POCKETS = [17, 0, 32, 5, 36, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 18, 19]   # 22 spins


def busy():
    """Ann has chips on straights, splits, a corner, a dozen, a column and red; 22 spins done."""
    t = seat(table(*POCKETS), "ann", "bob")
    for _ in POCKETS:
        bet(t, "bob", "red 1")
        t.advance((20 + 3) * HZ + 1)
    for words in ("straight 17 10", "straight 0 5", "straight 36 2500", "split 17 20 5", "corner 17 21 5",
                  "dozen 2 10", "column 3 20", "red 10", "high 10000"):
        bet(t, "ann", words, wallet=10**6)
    return t


def view(t, who="ann", **prefs) -> list[str]:
    return t.view(Viewer(who, Prefs(**prefs), seated=who in t.seated()))


@pytest.mark.parametrize("width", [80, 60])
@pytest.mark.parametrize("color", [True, False])
@pytest.mark.parametrize("unicode", [True, False])
def test_every_line_fits_the_width(width, color, unicode):
    lines = view(busy(), width=width, color=color, unicode=unicode)
    too_wide = [line for line in lines if len(ANSI.sub("", line)) > width]
    assert too_wide == [] and len(lines) > 20
    if not color:
        assert not any("\x1b" in line for line in lines)
    if not unicode:
        assert all(line.isascii() for line in lines)


def test_the_layout_carries_the_viewers_chips_on_their_spots():
    lines = view(busy())
    plain = "\n".join(lines)
    grid = lines[1:17]
    assert grid[0].startswith("+---+---+") and grid[0].endswith("+---+")
    number_row = grid[4].split("|")
    chips_row = grid[5].split("|")
    assert number_row[1] == " 0 " and chips_row[1] == "  5"                 # 0, with ann's 5
    assert number_row[7] == "17 " and chips_row[7] == " 10"                 # 17, second row
    assert grid[1].split("|")[13] == "36*" and grid[2].split("|")[13] == "2k+"
    assert grid[1].split("|")[14] == "2:1" and grid[2].split("|")[14] == " 20"   # column 3
    assert "2nd 12" in grid[10] and grid[11].split("|")[2].strip() == "10"
    assert [c.strip() for c in grid[13].split("|")[1:7]] == ["1-18", "EVEN", "RED", "BLACK", "ODD", "19-36"]
    assert [c.strip() for c in grid[14].split("|")[1:7]] == ["", "", "10", "", "", "10k"]
    assert "Also on the layout: split 17 20 5, corner 17 21 5" in plain
    assert "Your bets: 1) straight 17 10  2) straight 0 5  3) straight 36 2500" in plain
    assert "(* is red, 0 green, the rest black)" in plain


def test_other_viewers_see_no_chips_of_anns():
    lines = view(busy(), "bob")
    assert "10k" not in "\n".join(lines) and "You have no bets on the layout." in lines


def test_colour_paints_red_black_and_green_and_ascii_marks_red():
    lines = view(busy(), color=True, unicode=True)
    joined = "\n".join(lines)
    for n in RED:
        assert f"{RED_CELL}{n:>2} " in joined, n
    for n in BLACK:
        assert f"{BLACK_CELL}{n:>2} " in joined, n
    assert f"{GREEN_CELL} 0 " in joined
    assert lines[1].startswith("┌───┬") and "┼" in joined and "*" not in ANSI.sub("", "\n".join(lines[1:17]))
    ascii_grid = "\n".join(view(busy())[1:17])
    assert all(f"{n:>2}*" in ascii_grid for n in RED) and not any(f"{n:>2}*" in ascii_grid for n in BLACK)


def test_the_last_20_numbers_newest_first():
    t = busy()
    (line,) = [line for line in view(t, width=80) if line.startswith("Last 20:")]
    assert line == "Last 20: 19* 18* 16* 15 14* 13 12* 11 10 9* 8 7* 6 4 3* 2 1* 36* 5* 32*"
    coloured = "\n".join(view(t, width=60, color=True))
    assert f"{RED_CELL} 19 " in coloured and coloured.count("\x1b[1;97;4") >= 37 + 20


def test_a_fresh_table_says_how_to_start_and_the_commitment():
    t = seat(table(), "ann")
    plain = "\n".join(view(t))
    assert "Last 20: none yet" in plain and "the first bet starts the round" in plain
    assert "Fair: next spin committed to c0ffeec0ffee... ('fair')." in plain
    assert "Commands: bet <kind> [numbers] <amount> | bets | unbet" in plain


@pytest.mark.parametrize("unicode", [True, False])
def test_below_57_columns_the_board_stands_up_with_the_same_chips(unicode):
    lines = view(busy(), width=40, unicode=unicode)
    assert all(len(line) <= 40 for line in lines)
    board_lines = lines[1:28]
    assert {len(line) for line in board_lines} == {31}
    plain = "\n".join(board_lines)
    assert " 0    5" in plain and "17   10" in plain and "36* 2k+" in plain and "  10k  " in plain
    assert plain.count("2:1") == 3 and "1-12" in plain and "19-36" in plain


def test_the_called_number_is_painted_on_its_colour():
    t = seat(table(17), "ann")
    bet(t, "ann", "black 10")
    t.act("ann", ["spin"], 1000)
    out = t.advance(3 * HZ)
    coloured = text(t, out, prefs=Prefs(color=True))
    assert f"Spin 1: {BLACK_CELL} 17 \x1b[0m\x1b[1m black, odd, low, second dozen, second column\x1b[0m." \
        in coloured and "\x1b[92mwon 10\x1b[0m" in coloured
    assert "Spin 1: 17 black, odd, low, second dozen, second column." in text(t, out)


def test_short_chip_counts_fit_a_cell():
    assert [board.short(n) for n in (1, 999, 1000, 2500, 10000, 99999, 100000)] == \
        ["1", "999", "1k", "2k+", "10k", "99k", "$$$"]


def test_rules_and_help_state_every_payout():
    from server.games.catalogue import find_game
    t = seat(table(la_partage=True), "ann")
    rules = " ".join(t.rules())
    for said in ("35:1", "17:1", "11:1", "8:1", "5:1", "2:1", "1:1", "20 s betting window",
                 "last call at 5 s", "1/74", "half its stake back", "casino verify --draw 37"):
        assert said in rules, said
    helped = "\n".join(find_game("roulette").help_lines).replace("\u00a0", " ")
    for form, pays in (("straight N", 35), ("split A B", 17), ("street N", 11), ("corner A B", 8),
                       ("sixline N", 5), ("trio 0 A B", 11), ("firstfour", 8), ("red", 1), ("black", 1),
                       ("odd", 1), ("even", 1), ("low", 1), ("high", 1), ("dozen D", 2), ("column C", 2)):
        assert re.search(rf"^  bet {form} <n> - .*; e\.g\. bet .*\. Pays {pays}:1\.$", helped, re.M), form
    topics = find_game("roulette").topics
    assert set(topics) == {"straight", "split", "street", "corner", "sixline", "trio", "firstfour", "red",
                           "black", "odd", "even", "low", "high", "dozen", "column"}


def test_gmcp_data_for_client_scripts():
    from server.games.roulette.events import BallDropped, Settlement
    t = seat(table(17), "ann")
    bet(t, "ann", "straight 17 10")
    bet(t, "ann", "red 5")
    t.act("ann", ["spin"], 1000)
    out = t.advance(3 * HZ)
    (dropped,) = [e for e in out if isinstance(e, BallDropped)]
    assert t.event_data(dropped) == [("Casino.Spin", {"spin": 1, "pocket": 17, "colour": "black",
                                                      "call": dropped.call}, None)]
    (s,) = [e for e in out if isinstance(e, Settlement)]
    assert t.event_data(s) == [("Casino.Settlement", {
        "player": "ann", "spin": 1, "pocket": 17, "won": [{"bet": "straight 17", "amount": 350}],
        "lost": [{"bet": "red", "amount": 5}], "net": 345}, ("ann",))]
    assert t.table_data() == {"spin": 2, "seconds_left": None, "history": [17], "bets_on_layout": 0}


def test_the_view_reads_a_frozen_snapshot_and_never_imports_the_dealer():
    """view.py renders a fact and a TableSnapshot the dealer builds; it imports
    nothing of dealer.py anywhere (not in a function, not for type checking)."""
    import ast
    import dataclasses
    from pathlib import Path

    import server.games.roulette.view as view_module
    source = Path(view_module.__file__).read_text()
    imported = [node.module or "" for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom)]
    imported += [a.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Import) for a in node.names]
    assert not [m for m in imported if "dealer" in m], imported
    t = seat(busy(), "cy")
    snap = t.dealer.snapshot()
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.spins = 0
    assert snap.seated == ("ann", "bob", "cy") and len(snap.bets_of("ann")) == 9 and snap.spins == 22
    assert view_module.table_view(snap, Viewer("ann", Prefs(), seated=True)) == view(t)

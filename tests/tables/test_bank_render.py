"""Rendering snapshots of the bank craps table: colour and Unicode, ASCII, no
colour, dark and light dice, at 80 columns (the full layout) and at 60 and 40
(the compact one). Set UPDATE_SNAPSHOTS=1 to rewrite them
after an intended change, then read the diff."""
from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest

from server.config.load import load_config
from server.render.prefs import Prefs
from server.render.width import display_width
from server.games.craps.dealer import BankCrapsDealer
from server.games.seam import Viewer
from support.dice import TableDice
from support.pure_table import PureTable

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOTS = Path(__file__).parent / "snapshots"
ANSI = re.compile(r"\x1b\[[0-9;]*m")

PREFS = {
    "color-unicode-dark": Prefs(color=True, unicode=True, dice="dark"),
    "color-unicode-light": Prefs(color=True, unicode=True, dice="light"),
    "ascii-nocolor-dark": Prefs(color=False, unicode=False, dice="dark"),
    "ascii-nocolor-light": Prefs(color=False, unicode=False, dice="light"),
    "unicode-nocolor": Prefs(color=False, unicode=True),
    "ascii-color": Prefs(color=True, unicode=False),
}


def busy_table() -> BankCrapsDealer:
    """A table mid-hand: point 6, Fire has the 4, Small has 2 and 4, many bets."""
    config = load_config(ROOT / "config", ROOT / "rooms").tables["bank_craps"]
    t = PureTable(config, 10, TableDice([(1, 3), (2, 2), (1, 1), (3, 3), (2, 6)]))
    t.sit("ann", 1000)
    for words in (["pass", "10"], ["fire", "1"], ["small", "1"], ["tall", "1"]):
        t.act("ann", ["bet", *words], 1000)
    t.act("ann", ["roll"], 1000)                           # point 4
    t.act("ann", ["roll"], 1000)                           # hard 4: point made, Fire has 4
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["roll"], 1000)                           # 2: craps, pass loses
    t.act("ann", ["bet", "pass", "15"], 1000)
    t.act("ann", ["roll"], 1000)                           # point 6
    for words in (["odds", "pass", "30"], ["place", "8", "12"], ["buy", "4", "25"], ["lay", "10", "40"],
                  ["come", "5"], ["hard", "8", "2"], ["field", "5"], ["horn", "4"], ["hop", "2", "3", "1"]):
        t.act("ann", ["bet", *words], 1000)
    t.act("ann", ["roll"], 1000)                           # easy 8: come travels to 8, place 8 wins
    return t


@pytest.mark.parametrize("width", [80, 60, 40])
@pytest.mark.parametrize("name", sorted(PREFS))
def test_table_view_snapshot(name, width):
    prefs = dataclasses.replace(PREFS[name], width=width)
    t = busy_table()
    lines = t.view(Viewer("ann", prefs, True))
    for line in lines:
        assert display_width(line) <= width, line
    box = [line for line in lines if ANSI.sub("", line)[:1] in "+┌│|├└"]
    assert {display_width(line) for line in box} == {width}      # the border is aligned
    text = "\n".join(lines) + "\n"
    if not prefs.color:
        assert "\x1b" not in text
    if not prefs.unicode:
        assert text.isascii()
    path = SNAPSHOTS / f"bank-table-{name}{'' if width == 80 else f'-{width}'}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS") or not path.exists():
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


def test_the_snapshot_shows_puck_wagers_and_filled_trackers():
    text = ANSI.sub("", "\n".join(busy_table().view(Viewer("ann", Prefs(), True))))
    assert "puck: ON 6" in text
    assert "[4]" in text                  # Fire: the 4 was made
    assert "[2]" in text and "[8]" in text  # Small has the 2, Tall the 8
    assert "PASS LINE 15   odds 30" in text
    assert "5+0" not in text and "25b" in text
    assert "Your bets:" in text and "Commands:" in text


def test_set_width_changes_the_layout_and_huge_stakes_fall_back_to_compact():
    t = busy_table()
    wide = t.view(Viewer("ann", Prefs(width=120), True))
    assert display_width(wide[0]) == 80                     # the full layout, 80 wide
    assert "FIELD -  2 3 4 9 10 11 12 (2 pays 2:1, 12 pays 3:1)" in "\n".join(wide)   # nothing cut
    narrow = t.view(Viewer("ann", Prefs(width=40), True))
    assert display_width(narrow[0]) == 40
    t.act("ann", ["bet", "place", "6", "9996"], 100_000)
    t.act("ann", ["bet", "come", "9999"], 100_000)
    big = t.view(Viewer("ann", Prefs(width=80), True))
    assert all(display_width(line) <= 80 for line in big)
    assert "9996" in "\n".join(big)

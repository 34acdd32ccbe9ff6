"""Pip dice, drawn for the viewer: Unicode or ASCII, dark or light, colour or not.

Every game draws dice the same way, so a player's `set dice`, `set unicode`
and `set color` choices hold at every table.
"""
from __future__ import annotations

from server.render.prefs import Prefs
from server.render.spoken import NUMBER_WORDS, dice_words
from server.render.text import paint

# Which of the 3x3 pip positions are set for each face, row by row.
_PIPS = {
    1: ("   ", " o ", "   "),
    2: ("o  ", "   ", "  o"),
    3: ("o  ", " o ", "  o"),
    4: ("o o", "   ", "o o"),
    5: ("o o", " o ", "o o"),
    6: ("o o", "o o", "o o"),
}


def _face(n: int, prefs: Prefs) -> list[str]:
    if prefs.unicode:
        pip = "●" if prefs.dice == "dark" else "○"
        top, bottom, side = "┌───────┐", "└───────┘", "│"
    else:
        pip = "@" if prefs.dice == "dark" else "o"
        top, bottom, side = "+-------+", "+-------+", "|"
    rows = []
    for row in _PIPS[n]:
        cells = " ".join(pip if c == "o" else " " for c in row)
        inner = f" {cells} "
        if prefs.color:
            styles = ("bright_white", "on_black") if prefs.dice == "dark" else ("black", "on_white")
            inner = paint(inner, *styles)
        rows.append(f"{side}{inner}{side}")
    return [top, *rows, bottom]


def dice_art(dice: tuple[int, ...], prefs: Prefs) -> list[str]:
    """Dice side by side (one, two, any number), five lines; for a screen
    reader one line of words ("Four and three, seven.")."""
    if prefs.screenreader:
        return [dice_words(dice)]
    faces = [_face(d, prefs) for d in dice]
    return ["".join(f"  {face[row]}" for face in faces) for row in range(5)]


def dice_inline(dice: tuple[int, ...], prefs: Prefs) -> str:
    """Dice in one short word: Unicode die faces or [3][4] (words for a screen reader)."""
    if prefs.screenreader:
        return " and ".join(NUMBER_WORDS[d] for d in dice)
    if prefs.unicode:
        return " ".join(chr(0x2680 + d - 1) for d in dice)
    return "".join(f"[{d}]" for d in dice)

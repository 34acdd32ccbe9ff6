"""Diceless craps' draw: two cards, one from each of two six-card packs
(docs/play-craps-variants.md "Diceless craps"). Red (hearts) and blue (spades), ranked ace (1) to six;
both packs are whole again before every deal, so one deal is one fair draw in
[0, 36) split exactly as two dice are: the red card first, the blue second.
The cards are drawn small, with rank and pack: "A-h" and "5-s" in ASCII,
hearts and spades in Unicode, red and blue where the viewer has colour.
"""
from __future__ import annotations

from server.dice.derive import DICE_OUTCOMES, split_dice
from server.dice.kinds import DrawKind, Faces
from server.render.prefs import Prefs
from server.render.spoken import NUMBER_WORDS
from server.render.text import paint

RANKS = {1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}
PACKS = (("h", "♥", "red"), ("s", "♠", "blue"))      # the red pack, then the blue
PACK_NAMES = ("hearts", "spades")
SPOKEN_RANKS = {1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def card_name(rank: int, pack: int) -> str:
    """One card in plain ASCII: "A-h", "5-s"."""
    return f"{RANKS[rank]}-{PACKS[pack][0]}"


def say_cards(faces: Faces) -> str:
    return f"{card_name(faces[0], 0)} {card_name(faces[1], 1)} (total {sum(faces)})"


def card_art(faces: Faces, prefs: Prefs) -> list[str]:
    """The two cards side by side, five lines, 17 columns wide ("A-h" in ASCII);
    for a screen reader, their names: "Ace of hearts and five of spades, six."."""
    if prefs.screenreader:
        said = " and ".join(f"{SPOKEN_RANKS[rank]} of {PACK_NAMES[pack]}" for pack, rank in enumerate(faces[:2]))
        return [f"{said[0].upper()}{said[1:]}, {NUMBER_WORDS[sum(faces[:2])]}."]
    u = prefs.unicode
    tl, tr, bl, br, h, v = ("┌", "┐", "└", "┘", "─", "│") if u else ("+", "+", "+", "+", "-", "|")
    rows: list[list[str]] = [[], [], [], [], []]
    for pack, rank in enumerate(faces[:2]):
        ascii_suit, suit, colour = PACKS[pack]
        mark = suit if u else ascii_suit
        r = RANKS[rank] if u else f"{RANKS[rank]}-"

        def ink(text: str) -> str:
            return paint(text, "bold", "bright_red" if colour == "red" else "bright_cyan", color=prefs.color)
        rows[0].append(tl + h * 5 + tr)
        rows[1].append(v + ink(f"{r}{mark}".ljust(5)) + v)
        rows[2].append(v + ink(f"  {mark}  ") + v)
        rows[3].append(v + ink(f"{r}{mark}".rjust(5)) + v)
        rows[4].append(bl + h * 5 + br)
    return ["  " + " ".join(row) for row in rows]


CARDS = DrawKind("cards", "deal", DICE_OUTCOMES, split_dice, say_cards, card_art, count=2, low=1, high=6)

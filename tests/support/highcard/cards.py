"""A card of a 13-card range (2 to A), as a kind of draw: one fair draw(13)."""
from __future__ import annotations

from server.dice.kinds import DrawKind, Faces
from server.render.prefs import Prefs

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def rank(card: int) -> str:
    return RANKS[card]


def _say(faces: Faces) -> str:
    return f"card {rank(faces[0])}"


def _art(faces: Faces, prefs: Prefs) -> list[str]:
    face = rank(faces[0]).center(3)
    return ["  +-----+", f"  | {face} |", "  +-----+"]


CARD = DrawKind("card", "deal", 13, lambda v: (v,), _say, _art, count=1, low=0, high=12)

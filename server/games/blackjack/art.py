"""Cards drawn for one viewer: the diceless craps cards' boxes, in a row.

The same five-line boxes as server/games/craps/cards.py (rank and suit in
the corners, the suit in the middle), seven columns a card, so a hand of
five fits 40 columns; a hand wider than the screen goes on in a second row.
The hole card is drawn face down until the dealer plays. Red suits are red
where the viewer has colour; black suits are white on a dark screen and
black on a light one (the viewer's `dice` preference, dark or light).
In text, a card is a small token: "[K♠]", or "[K-s]" in ASCII; "[##]" face down.
"""
from __future__ import annotations

from collections.abc import Sequence

from server.render.prefs import Prefs
from server.render.text import paint

from .cards import RANKS, SUITS, Card

CARD_WIDTH = 8              # seven columns and a space


def _ink(card: Card, text: str, prefs: Prefs) -> str:
    if card.red:
        return paint(text, "bold", "bright_red", color=prefs.color)
    return paint(text, "bold", "black" if prefs.dice == "light" else "bright_white", color=prefs.color)


def token(card: Card | None, prefs: Prefs) -> str:
    """A card inline: "[K♠]" / "[K-s]", or "[##]" face down; for a screen
    reader its name ("king of spades", "a card face down")."""
    if prefs.screenreader:
        return "a card face down" if card is None else spoken_name(card)
    if card is None:
        return "[##]"
    return "[" + _ink(card, card.shown(prefs.unicode), prefs) + "]"


def tokens(cards: Sequence[Card | None], prefs: Prefs) -> str:
    return (", " if prefs.screenreader else " ").join(token(c, prefs) for c in cards)


SPOKEN_RANKS = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                "jack", "queen", "king")
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def spoken_name(card: Card) -> str:
    """A card as it is said: "queen of hearts"."""
    return f"{SPOKEN_RANKS[card.rank - 1]} of {SUIT_NAMES[card.suit]}"


def _box(card: Card | None, prefs: Prefs) -> list[str]:
    u = prefs.unicode
    tl, tr, bl, br, h, v = ("┌", "┐", "└", "┘", "─", "│") if u else ("+", "+", "+", "+", "-", "|")
    if card is None:
        back = "░" * 5 if u else "#" * 5
        return [tl + h * 5 + tr, v + back + v, v + back + v, v + back + v, bl + h * 5 + br]
    rank = RANKS[card.rank - 1]
    suit = SUITS[card.suit][1] if u else SUITS[card.suit][0]
    corner = f"{rank}{suit}" if u else f"{rank}-{suit}"
    return [tl + h * 5 + tr,
            v + _ink(card, corner.ljust(5), prefs) + v,
            v + _ink(card, f"  {suit}  ", prefs) + v,
            v + _ink(card, corner.rjust(5), prefs) + v,
            bl + h * 5 + br]


def boxes(cards: Sequence[Card | None], prefs: Prefs, width: int, indent: str = "  ") -> list[str]:
    """The cards side by side, as many to a row as `width` holds (at least one);
    for a screen reader one line of their names."""
    if prefs.screenreader:
        return [tokens(cards, prefs)]
    per_row = max(1, (width - len(indent) + 1) // CARD_WIDTH)
    out: list[str] = []
    for start in range(0, len(cards), per_row):
        drawn = [_box(c, prefs) for c in cards[start:start + per_row]]
        out += [indent + " ".join(card[i] for card in drawn) for i in range(5)]
    return out

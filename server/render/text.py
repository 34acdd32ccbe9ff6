"""Text hygiene and styling shared by every renderer.

Player-typed text is cleaned once, when it is read, so no escape sequence,
bidi override or zero-width character a player types can reach another
player's terminal. Styling is a small palette
of named ANSI colours that collapses to plain text for clients without colour.
"""
from __future__ import annotations

import re

from server.render.width import wrap as _wrap

# CSI / OSC / other escape sequences first, then every remaining control
# character (C0 except none, DEL, C1). Tabs become spaces before that.
_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])?")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


# Invisible format characters (Unicode category Cf, as of Unicode 14): bidi
# overrides and isolates that reorder what others see, zero-width spaces and
# joiners, the BOM, soft hyphens, tag characters; and the line and paragraph
# separators (Zl, Zp), which some terminals break lines on.
# tests/net/test_edge_units.py checks this against the running unicodedata.
_INVISIBLE = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890\u0891\u08e2\u180e\u200b-\u200f"
    "\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd"
    "\U00013430-\U00013438\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0001"
    "\U000e0020-\U000e007f]")
_SEPARATORS = re.compile("[\u2028\u2029]")


def clean(text: str) -> str:
    """Strip escape sequences, control and invisible format characters from
    player text (line separators become spaces)."""
    text = text.replace("\t", " ")
    text = _ESCAPES.sub("", text)
    text = _CONTROLS.sub("", text)
    if text.isascii():
        return text
    return _INVISIBLE.sub("", _SEPARATORS.sub(" ", text))


_CODES = {
    "reset": "0", "bold": "1", "dim": "2",
    "black": "30", "red": "31", "green": "32", "yellow": "33", "blue": "34", "magenta": "35",
    "cyan": "36", "white": "37", "bright_green": "92", "bright_yellow": "93",
    "bright_red": "91", "bright_cyan": "96", "bright_white": "97",
    "on_green": "42", "on_dark_green": "48;5;22", "on_black": "40", "on_white": "47",
}


def paint(text: str, *styles: str, color: bool = True) -> str:
    """Wrap text in ANSI styles, or return it unchanged when colour is off."""
    if not color or not styles:
        return text
    codes = ";".join(_CODES[s] for s in styles)
    return f"\x1b[{codes}m{text}\x1b[0m"


def wrap(text: str, width: int) -> list[str]:
    """Wrap prose to the viewer's width, keeping paragraph breaks
    (server.render.width.wrap: at spaces, never inside a glued group)."""
    return _wrap(text, width)


def sentence(text: str) -> str:
    """Operator- or player-given text as a sentence of its own: a capital
    first letter and closing punctuation, so the next sentence does not run on."""
    text = text.strip()
    if not text:
        return text
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."

"""Text hygiene and styling shared by every renderer.

Player-typed text is cleaned once, when it is read, so no escape sequence a
player types can reach another player's terminal. Styling is a small palette
of named ANSI colours that collapses to plain text for clients without colour.
"""
from __future__ import annotations

import re

from server.render.width import wrap as _wrap

# CSI / OSC / other escape sequences first, then every remaining control
# character (C0 except none, DEL, C1). Tabs become spaces before that.
_ESCAPES = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)?|[@-Z\\-_])?")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def clean(text: str) -> str:
    """Strip escape sequences and control characters from player text."""
    text = text.replace("\t", " ")
    text = _ESCAPES.sub("", text)
    return _CONTROLS.sub("", text)


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

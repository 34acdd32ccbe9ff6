"""Text for a screen reader's ears: words where the drawn casino has pictures.

A screen reader reads every character aloud, so a box-drawing edge is
"vertical line" and a row of pips is "at at at". The games draw their
tables in words themselves when a viewer's `Prefs.screenreader` is on
(each view's own spoken layout, and `dice_words` for the dice); `spoken` is
the last pass over every line such a viewer is sent, so that no drawing
that slipped through (a decoration run, a box edge, a die face, column
padding) reaches the ear. It removes; it never invents meaning, which is
why the views say everything in words first.
"""
from __future__ import annotations

import re

NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                "ten", "eleven", "twelve")

# Box drawing, block elements and geometric shapes (U+2500-U+25FF: the edges,
# shades, the pips and pucks), and the dingbat dice faces, read as noise.
_DRAWING = re.compile("[\u2500-\u25ff\u2b1b\u2b1c]")
_DIE_FACE = re.compile("[\u2680-\u2685]")
# Three or more of one decoration character ("-----", "=====", "*****", "+--+"),
# and an edge character standing alone between spaces, are drawing too.
_RUNS = re.compile(r"([-=*_~#+|.:])\1{2,}")
_EDGES = re.compile(r"(?:(?<=\s)|^)[|+](?=\s|$)")
_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
_SPACES = re.compile(r" {2,}")
# Usage notation is read as it is meant: "<amount>" is "amount", "on|off" is "on or off".
_PLACEHOLDER = re.compile(r"<([^<>]{1,30})>")
_OPTIONAL = re.compile(r"(?<!\x1b)\[([^\[\]]{1,30})\]")
_OR = re.compile("(?<=\\w)\\|(?=\\w)|[ \u00a0]\\|[ \u00a0]")      # a bar glued to its word by NBSP too
# A list of commands wrapped after a bar ("... stand | double |"): that bar is its comma too,
# unless the line is a box's row (it then starts with an edge as well).
_WRAPPED_BAR = re.compile("^(?![|+\\s]*[|+]).*\\S(?=[ \u00a0]\\|$)")


def dice_words(dice: tuple[int, ...]) -> str:
    """Dice as a player would say them: "Four and three, seven." (one die: "Four.")."""
    if len(dice) == 1:
        return f"{NUMBER_WORDS[dice[0]].capitalize()}."
    named = " and ".join(NUMBER_WORDS[d] for d in dice)
    total = sum(dice)
    said = NUMBER_WORDS[total] if total < len(NUMBER_WORDS) else str(total)
    return f"{named.capitalize()}, {said}."


def spoken(line: str) -> str:
    """One line with its drawing taken out and its padding closed up ('' if
    nothing but drawing was in it). Colour codes are kept: they are the
    client's to drop, and nothing here is said by colour alone."""
    if (wrapped := _WRAPPED_BAR.match(line)) is not None:
        line = wrapped.group() + ","
    line = _OR.sub(lambda m: " or " if m.group() == "|" else ", ", _OPTIONAL.sub(r"\1", _PLACEHOLDER.sub(r"\1", line)))
    line = _DIE_FACE.sub(lambda m: NUMBER_WORDS[ord(m.group()) - 0x2680 + 1], line)
    line = _DRAWING.sub(" ", line)
    line = _RUNS.sub(lambda m: "..." if m.group(1) == "." and len(m.group()) == 3 else " ", line)
    line = _EDGES.sub(" ", line)
    line = _SPACES.sub(" ", line).strip()
    return "" if not _ESCAPE.sub("", line).strip() else line


def spoken_lines(lines: list[str]) -> list[str]:
    """Every line of a block through `spoken`, the ones left empty dropped."""
    return [said for line in lines for said in map(spoken, line.split("\n")) if said]

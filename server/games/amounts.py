"""One rule for the digits of amounts and numbers, at every table.

Python's `int()` and regex `\\d` take any Unicode decimal digit: full-width
`１０`, Arabic-Indic `١٠` and the like. The games' own parsers differed (craps
took them, roulette refused them); the rule everywhere is now: amounts and
numbers are typed with the ASCII digits 0-9, and a word that has any other
digit in it is refused, with that reason, before it reaches a table
(server.commands.tables routes every game word through `digits_problem`).
"""
from __future__ import annotations

from collections.abc import Iterable

RULE = "type the digits 0-9"


def foreign_digits(word: str) -> bool:
    """Whether `word` has a digit (or other numeric character) outside 0-9."""
    return not word.isascii() and any(c.isdigit() or c.isnumeric() for c in word if not c.isascii())


def shown(word: str) -> str:
    """A typed word safe to echo in a reason: printable, at most 20 characters."""
    text = "".join(c if c.isprintable() else "?" for c in word[:20])
    return text + ("..." if len(word) > 20 else "")


def digits_problem(words: Iterable[str]) -> str | None:
    """The one-line reason the first word with a foreign digit is refused, or None."""
    for word in words:
        if foreign_digits(word):
            return f"'{shown(word)}' is not a number here: {RULE}. Nothing was changed."
    return None

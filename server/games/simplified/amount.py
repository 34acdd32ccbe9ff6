"""Reading an amount a player typed: whole chips, with any cents handed back.

As in spec 002, "5.36" is a wager of 5 and "0.36 returned". Every problem is a
one-line reason; the caller changes nothing when it gets one.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

_AMOUNT = re.compile(r"^([+-]?)\$?(\d*)(?:\.(\d*))?$")
MAX_DIGITS = 30     # longer numbers are refused before any arithmetic


@dataclass(frozen=True)
class Amount:
    """A typed amount: `chips` is the wager, `cents` (0..99) was returned."""

    chips: int
    cents: int = 0

    @property
    def returned(self) -> str:
        """The returned part as typed money, e.g. "0.36" ("" when none)."""
        return f"0.{self.cents:02d}" if self.cents else ""

    def message(self, what: str = "wager") -> str:
        """"0.36 returned, your wager is 10" - or "" when no cents were typed."""
        return f"{self.returned} returned, your {what} is {self.chips}" if self.cents else ""


def _typed(whole: int, cents: int) -> str:
    return f"{whole}.{cents:02d}" if cents else str(whole)


def parse_amount(text: str, min_bet: int, max_bet: int) -> Amount | str:
    """`text` as an Amount, or a one-line reason (not a number, zero, negative,
    below the minimum, over the table maximum). Up to two decimals are taken;
    the wallet is checked by the caller, who knows it.
    """
    m = _AMOUNT.match(text.strip())
    if not m or not (m.group(2) or m.group(3)):
        return f"'{text.strip()[:20]}' is not an amount: type whole chips, like 10."
    sign, whole_text, frac_text = m.group(1), m.group(2) or "0", m.group(3) or ""
    if len(whole_text) > MAX_DIGITS or len(frac_text) > 2:
        return f"'{text.strip()[:20]}' is not an amount: type whole chips, like 10."
    whole, cents = int(whole_text), int(frac_text.ljust(2, "0"))
    typed = _typed(whole, cents)
    if sign == "-" and (whole or cents):
        return f"You can't bet a negative amount (-{typed})."
    if whole == 0 and cents == 0:
        return "You can't bet zero."
    if whole < min_bet:
        return f"You can't bet {typed}: the minimum bet is {min_bet}."
    if whole > max_bet:
        return f"You can't bet {whole}: the table maximum is {max_bet}."
    return Amount(whole, cents)

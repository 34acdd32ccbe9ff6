"""A roulette bet as frozen data, and the words a player types turned into one.

`parse("split 17 20 5")` gives a Bet or a one-line reason; it never raises,
whatever the player typed (other scripts' digits, superscripts, 5000-digit
numbers). Parsing knows nothing of the table: the wheel checks min/max.

Amounts are whole chips. As at every table, typed cents are cut
off and the player is told ("0.50 returned, your wager is 10"): that note
travels with the bet from `parse_noted` (docs/play-roulette.md "Amounts and limits").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .kinds import KINDS, Kind, find_kind, label

MAX_DIGITS = 12                  # longer amounts are refused before any arithmetic
_AMOUNT = re.compile(r"\$?(\d+)(?:\.(\d*))?", re.ASCII)
_NUMBER = re.compile(r"\d{1,3}", re.ASCII)


@dataclass(frozen=True, slots=True)
class Bet:
    """One wager's rule facts: its kind, the pockets it covers, its stake in chips."""

    kind: Kind
    numbers: frozenset[int]
    amount: int

    @property
    def name(self) -> str:
        """The canonical form without the amount: `split 17 20`, `red`."""
        return label(self.kind, self.numbers)


def shown(word: str) -> str:
    """A typed word safe to echo in a reason: printable, at most 20 characters."""
    text = "".join(c if c.isprintable() else "?" for c in word[:20])
    return text + ("..." if len(word) > 20 else "")


def parse_amount(word: str) -> tuple[int, str | None] | str:
    """Whole chips and a note about returned cents, or a one-line reason."""
    if word.startswith("-") and _AMOUNT.fullmatch(word[1:]):
        return "a wager cannot be negative"
    m = _AMOUNT.fullmatch(word)
    if not m:
        return f"'{shown(word)}' is not an amount: type whole chips, like 10"
    whole_text, frac = m.group(1), (m.group(2) or "").rstrip("0")
    if len(whole_text) > MAX_DIGITS:
        return f"{whole_text[:MAX_DIGITS]}... is more chips than any table takes"
    if len(frac) > 2:
        return f"'{shown(word)}': chips have no smaller part than cents; type whole chips, like 10"
    whole = int(whole_text)
    if whole == 0:
        return f"{shown(word)} is less than a chip: wagers are whole chips" if frac \
            else "a wager cannot be zero"
    note = f"0.{frac.ljust(2, '0')} returned, your wager is {whole}" if frac else None
    return whole, note


def _number(word: str) -> int | str:
    """A pocket or dozen/column number typed with the digits 0-9, or why not."""
    if word.isascii() and len(word) > 1 and set(word) == {"0"}:
        return (f"{shown(word)} is the American wheel's double zero; this is a single-zero wheel, "
                "with only 0")
    if _NUMBER.fullmatch(word):
        return int(word)
    if word.startswith("-") and word[1:].isascii() and word[1:].isdigit():
        return f"{shown(word)} is not on the layout: the numbers are 0 to 36"
    if word.isascii() and word.isdigit():
        return f"{shown(word)} is not on the layout: the numbers are 0 to 36"
    if any(c.isdigit() or c.isnumeric() for c in word):
        return f"'{shown(word)}' is not a number here: type the digits 0-9"
    return f"'{shown(word)}' is not a number"


def _words(words: str | list[str] | tuple[str, ...]) -> list[str]:
    ws = words.split() if isinstance(words, str) else [w for part in words for w in part.split()]
    if ws and ws[0].casefold() == "bet":
        ws = ws[1:]
    return ws


def kinds_help() -> str:
    return ", ".join(info.usage for info in KINDS.values())


def _build(kind: Kind, typed: list[str]) -> frozenset[int] | str:
    """The pockets a kind covers from the numbers typed after it."""
    info = KINDS[kind]
    if len(typed) not in info.takes:
        counts = " or ".join(str(n) for n in info.takes)
        what = "no numbers" if info.takes == (0,) else f"{counts} number{'s' if info.takes != (1,) else ''}"
        return f"{kind.value} takes {what}: bet {info.example}"
    numbers: list[int] = []
    for word in typed:
        n = _number(word)
        if isinstance(n, str):
            return n
        numbers.append(n)
    return info.build(tuple(numbers))


def parse_noted(words: str | list[str] | tuple[str, ...]) -> tuple[Bet, str | None] | str:
    """`<kind> [numbers] <amount>` (a leading `bet` is allowed) -> (Bet, cents note) or a reason."""
    ws = _words(words)
    if not ws:
        return f"bet what? e.g. bet red 10; the bets: {kinds_help()}"
    head = ws[0]
    kind = find_kind(head)
    if kind is None and _NUMBER.fullmatch(head):       # `bet 17 10` is a straight bet
        kind, ws = Kind.STRAIGHT, ["straight", *ws]
    if kind is None:
        return f"'{shown(head)}' is not a bet; the bets: {kinds_help()}"
    if len(ws) < 2:
        return f"{kind.value} needs an amount: bet {KINDS[kind].example}"
    amount = parse_amount(ws[-1])
    pockets = _build(kind, ws[1:-1])
    if isinstance(pockets, str):
        return pockets
    if isinstance(amount, str):
        return amount
    return Bet(kind, pockets, amount[0]), amount[1]


def parse(words: str | list[str] | tuple[str, ...]) -> Bet | str:
    """The words after `bet` as a Bet, or a one-line reason (cents cut off silently)."""
    got = parse_noted(words)
    return got if isinstance(got, str) else got[0]


def parse_target(words: str | list[str] | tuple[str, ...]) -> tuple[Kind, frozenset[int] | None] | str:
    """A bet named without an amount, for `unbet`: `split 17 20` or just `split` (None: all of them)."""
    ws = _words(words)
    if not ws:
        return "unbet what? a bet's number from 'bets', its name (unbet red, unbet split 17 20) or all"
    kind = find_kind(ws[0])
    if kind is None:
        return f"'{shown(ws[0])}' is not a bet; unbet takes a number from 'bets', a bet's name or all"
    if len(ws) == 1:
        return kind, None
    pockets = _build(kind, ws[1:])
    return pockets if isinstance(pockets, str) else (kind, pockets)


def check(bet: object) -> str | None:
    """Why a Bet built by hand (not parsed) is not one the layout takes, or None."""
    if not isinstance(bet, Bet) or not isinstance(bet.kind, Kind) or not isinstance(bet.numbers, frozenset):
        return "not a roulette bet"
    if type(bet.amount) is not int:
        return "a wager is whole chips"
    if bet.amount <= 0:
        return "a wager must be at least 1 chip"
    if bet.numbers not in KINDS[bet.kind].groups:
        return f"{bet.kind.value} does not cover {' '.join(map(str, sorted(bet.numbers)))}"
    return None


def stake_problem(amount: int, min_bet: int, max_bet: int) -> str | None:
    """Why the table does not take this stake on one wager, or None."""
    if amount < min_bet:
        return f"the table minimum is {min_bet} a wager"
    if amount > max_bet:
        return f"the table maximum is {max_bet} a wager"
    return None


def help_lines() -> list[str]:
    """One line per bet: form, example, payout, what it covers (from the kind table)."""
    return [f"bet {info.usage} <amount>  e.g. bet {info.example}  pays {info.pays}:1  - {info.covers}"
            for info in KINDS.values()]

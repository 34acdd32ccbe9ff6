"""From the words a player types after `bet` to a bet request, or a one-line reason.

`bet place 6 12`, `bet dp 10`, `bet odds come 6 10`, `bet hop 2 3 5`,
`bet place6 12.50` (the cents are returned and the message says so).
Parsing knows nothing of the table; the table checks limits and timing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .bets import Kind
from .variants import BANK, VARIANTS, Variant

KIND_WORDS: dict[str, Kind] = {
    "pass": Kind.PASS, "line": Kind.PASS, "passline": Kind.PASS,
    "dontpass": Kind.DONT_PASS, "dp": Kind.DONT_PASS,
    "come": Kind.COME, "dontcome": Kind.DONT_COME, "dc": Kind.DONT_COME,
    "odds": Kind.ODDS,
    "place": Kind.PLACE, "buy": Kind.BUY, "lay": Kind.LAY, "hard": Kind.HARD,
    "field": Kind.FIELD, "any7": Kind.ANY7, "anycraps": Kind.ANYCRAPS,
    "2": Kind.PROP, "3": Kind.PROP, "11": Kind.PROP, "12": Kind.PROP,
    "horn": Kind.HORN, "hop": Kind.HOP,
    "fire": Kind.FIRE, "small": Kind.SMALL, "tall": Kind.TALL, "all": Kind.ALL,
}
# Odds targets: the line bet the odds back, and whether it needs a number.
ODDS_TARGETS = {"pass": Kind.PASS, "dontpass": Kind.DONT_PASS, "dp": Kind.DONT_PASS,
                "come": Kind.COME, "dontcome": Kind.DONT_COME, "dc": Kind.DONT_COME}
_AMOUNT = re.compile(r"^\$?(-)?(\d+)(?:\.(\d*))?$")
_JOINED = re.compile(r"^([a-z]+)(\d+)$")


@dataclass(frozen=True)
class BetRequest:
    """A well-formed bet, not yet checked against the table.

    For odds, `kind` is ODDS or LAY_ODDS (by the side of the base), `base` the
    line bet backed and `number` the come/don't come number (0 for pass/don't pass).
    `note` tells the player about cents returned ("0.36 returned, your wager is 10").
    """

    kind: Kind
    number: int
    amount: int
    base: Kind | None = None
    note: str | None = None


@dataclass(frozen=True)
class ParseError:
    reason: str


def parse_amount(word: str) -> tuple[int, str | None] | ParseError:
    """Whole chips from a typed amount; cents are cut off and reported."""
    m = _AMOUNT.match(word)
    if not m:
        return ParseError(f"'{word}' is not a number")
    minus, whole_s, frac = m.groups()
    whole = int(whole_s)
    frac = (frac or "").rstrip("0")
    if minus:
        return ParseError("a wager cannot be negative")
    if whole == 0:
        return ParseError("a wager must be at least 1 chip" if frac else "a wager cannot be zero")
    note = f"0.{frac.ljust(2, '0')} returned, your wager is {whole}" if frac else None
    return whole, note


def _split(words: list[str], variant: Variant = BANK) -> list[str]:
    """`place6` -> `place 6`, `come6` -> `come 6`, `face6` -> `face 6`; lower case."""
    out: list[str] = []
    for w in words:
        w = w.lower()
        m = _JOINED.match(w)
        if m and (m.group(1) in KIND_WORDS or m.group(1) in ODDS_TARGETS or m.group(1) in variant.words):
            out.extend(m.groups())
        else:
            out.append(w)
    return out


def _number(kind: Kind, word: str | None, variant: Variant = BANK) -> int | ParseError:
    allowed = variant.numbers(kind) or ()
    choices = ", ".join(map(str, allowed))
    if word is None or not (word.isascii() and word.isdigit()) or int(word) not in allowed:
        return ParseError(f"{kind.value} needs a number: {choices}")
    return int(word)


def unknown_bet(word: str, variant: Variant) -> str:
    """A word this table does not know. Another variant's bet (`bet face` at
    bank craps) is a player used to that table: they read whose bet it is and
    what this one takes. Any other word points to help, in one short line."""
    owner = next((v for v in VARIANTS.values() if word in v.words and v is not variant), None)
    if owner is None:
        return f"unknown bet '{word[:20]}': 'help {variant.word}' lists the kinds of bet"
    return f"unknown bet '{word}' at {variant.phrase} (it is a {owner.title} bet). Bets here: {variant.bets_here}"


def parse_bet(words: list[str] | str, variant: Variant = BANK) -> BetRequest | ParseError:
    """Parse `<kind> [numbers] <amount>` (the words after `bet`) for a table of
    `variant`: a kind it does not offer is refused by name, with what it takes."""
    ws = _split(words.split() if isinstance(words, str) else list(words), variant)
    if not ws:
        return ParseError("bet what? 'help craps' lists the kinds of bet")
    if len(ws) < 2:
        return ParseError("bet needs a kind and an amount, e.g. 'bet pass 10'")
    head, rest, amount_word = ws[0], ws[1:-1], ws[-1]
    kind = variant.words.get(head, KIND_WORDS.get(head))      # a variant's own words first
    if kind is None:
        return ParseError(unknown_bet(head, variant))
    if not variant.offers(kind):
        return ParseError(variant.refusal(kind))
    amount = parse_amount(amount_word)
    if isinstance(amount, ParseError):
        return amount
    stake, note = amount
    base: Kind | None = None
    number = 0
    if kind is Kind.PROP:
        number, expected = int(head), 0
    elif kind is Kind.ODDS:
        if not rest or rest[0] not in ODDS_TARGETS:
            return ParseError("odds on what? 'odds pass', 'odds dp', 'odds come N', 'odds dc N'")
        base = ODDS_TARGETS[rest[0]]
        if not variant.offers(base):
            return ParseError(variant.refusal(base))
        kind = Kind.ODDS if base in (Kind.PASS, Kind.COME) else Kind.LAY_ODDS
        if base in (Kind.COME, Kind.DONT_COME):
            n = _number(Kind.ODDS, rest[1] if len(rest) > 1 else None, variant)
            if isinstance(n, ParseError):
                return ParseError(f"odds on {base.value} need its number: "
                                  + ", ".join(map(str, variant.points)))
            number, expected = n, 2
        else:
            expected = 1
    elif kind is Kind.HOP:
        if len(rest) != 2 or not all(w in "123456" and len(w) == 1 for w in rest):
            return ParseError("hop needs two dice, e.g. 'hop 2 3 5'")
        a, b = sorted(int(w) for w in rest)
        number, expected = 10 * a + b, 2
    elif variant.numbers(kind):
        n = _number(kind, rest[0] if rest else None, variant)
        if isinstance(n, ParseError):
            return n
        number, expected = n, 1
    else:
        expected = 0
    if len(rest) != expected:
        return ParseError(f"too many words: 'bet {' '.join(ws[:1 + expected])} <amount>'"
                          if len(rest) > expected else "amount missing")
    return BetRequest(kind, number, stake, base, note)

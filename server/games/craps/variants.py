"""The craps variants, each one plain frozen data (docs/play-craps-variants.md).

A variant is the bank craps game with a different outcome table, set of bets
and draw, not a copy of it: this record says which bets a table takes, on
which numbers, what the line bets do on the come-out, which payout tables
the points read, whether the New York charge is taken when a bet is made,
and what the table draws. The rulebook (outcome.py), the state, the parser's
refusal, the limits, `casino odds` (edge.py), the view and the catalogue
entries read it; nothing else names a variant.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from server.dice.kinds import DICE, DIE, DrawKind

from .cards import CARDS

from .bets import (
    LAID_ODDS,
    Bet,
    commission,
    CRAPLESS_PLACE_ODDS,
    CRAPLESS_POINTS,
    CRAPLESS_TRUE_ODDS,
    DIE_POINTS,
    HIGH_POINTS,
    NUMBERS,
    OWN_NUMBERS,
    PLACE_ODDS,
    POINTS,
    TRUE_ODDS,
    Kind,
)

# Each kind as a player types it, in the order a refusal lists what a table takes.
KIND_WORDS: Mapping[Kind, str] = MappingProxyType({
    Kind.PASS: "pass", Kind.DONT_PASS: "dontpass", Kind.COME: "come", Kind.DONT_COME: "dontcome",
    Kind.ODDS: "odds", Kind.PLACE: "place", Kind.BUY: "buy", Kind.LAY: "lay", Kind.HARD: "hard",
    Kind.FIELD: "field", Kind.ANY7: "any7", Kind.ANYCRAPS: "anycraps", Kind.PROP: "2, 3, 11, 12",
    Kind.HORN: "horn", Kind.HOP: "hop", Kind.FIRE: "fire", Kind.SMALL: "small", Kind.TALL: "tall",
    Kind.ALL: "all", Kind.HIGH: "high", Kind.FACE: "face",
})
# Each kind as a sentence names it: "Crapless craps has no don't pass."
KIND_NAMES: Mapping[Kind, str] = MappingProxyType({
    **KIND_WORDS, Kind.DONT_PASS: "don't pass", Kind.DONT_COME: "don't come",
    Kind.LAY_ODDS: "laid odds", Kind.PROP: "single-number bet", Kind.ANY7: "any seven",
    Kind.ANYCRAPS: "any craps",
})

# `odds: 0`: how many times the flat stake may be taken behind each point.
BANK_TAKE: Mapping[int, int] = MappingProxyType({4: 3, 10: 3, 5: 4, 9: 4, 6: 5, 8: 5})
CRAPLESS_TAKE: Mapping[int, int] = MappingProxyType({**BANK_TAKE, 2: 3, 12: 3, 3: 3, 11: 3})


class Scheme(Enum):
    """How a hand goes, which the rules (outcome.py), the state and the view
    read: one value per shape of hand rather than a string compared about."""

    POINT = "point"     # bank craps': a point repeats before a 7
    HIGH = "high"       # High Point's: the roll after the point decides
    DIE = "die"         # Die Rich's: one die, the point within three more rolls


@dataclass(frozen=True, eq=False)
class Variant:
    """One craps variant: everything that differs from bank craps, as data.
    Each is one object, compared (and hashed) by identity."""

    key: str                                  # the config's `variant:` value
    title: str                                # "Crapless craps", as a heading
    phrase: str                               # "crapless craps", inside a sentence
    word: str                                 # play <word>
    summary: str                              # one line for the banner and `help`
    kinds: frozenset[Kind]                    # the bets it offers
    points: tuple[int, ...] = POINTS          # the totals a point (and a come bet) can be
    naturals: frozenset[int] = frozenset({7, 11})      # come-out totals that win pass
    craps: frozenset[int] = frozenset({2, 3, 12})      # come-out totals that lose pass
    true_odds: Mapping[int, tuple[int, int]] = field(default_factory=lambda: MappingProxyType(TRUE_ODDS))
    place_odds: Mapping[int, tuple[int, int]] = field(default_factory=lambda: MappingProxyType(PLACE_ODDS))
    take: Mapping[int, int] = field(default_factory=lambda: BANK_TAKE)   # `odds: 0` multiples taken
    charge_on_bet: bool = False               # New York: buy/lay 5% taken when the bet is made
    draw: DrawKind = DICE                     # what one roll draws
    roll: str = "roll"                        # a draw, in the table's words
    dice: str = "dice"                        # what is drawn, in the table's words
    table_keys: tuple[str, ...] = ("odds", "field_12")   # `craps:` keys beyond variant and timing
    odds_words: str = "3-4-5x (6x laid)"      # `odds: 0` in a few words (`casino odds`)
    odds_rule: str = ""                       # `odds: 0` in a sentence (`table rules`)
    rules: tuple[str, ...] = ()               # `table rules`, one paragraph a string ({odds}, {field_12}); bank: view.py
    preface: tuple[str, ...] = ()             # said before bank craps' rules when `rules` is empty
    scheme: Scheme = Scheme.POINT             # how a hand goes (outcome.py)
    line: Kind = Kind.PASS                    # the shooter's line bet: a "high"/"die" hand follows it
    words: Mapping[str, Kind] = field(default_factory=lambda: MappingProxyType({}))   # typed words of its own
    point_rule: str = "the hand goes on until {point} or a 7"   # with the point on, in a few words

    def offers(self, kind: Kind) -> bool:
        return kind in self.kinds

    def numbers(self, kind: Kind) -> tuple[int, ...] | None:
        """The numbers `kind` takes at this table (None: it takes no number)."""
        if kind in (Kind.ODDS, Kind.LAY_ODDS, Kind.PLACE, Kind.BUY, Kind.LAY):
            return self.points
        return NUMBERS[kind] if kind in NUMBERS else OWN_NUMBERS[kind]

    @property
    def bets_here(self) -> str:
        """What this table takes, as a refusal lists it."""
        return ", ".join(w for k, w in KIND_WORDS.items() if k in self.kinds)

    def refusal(self, kind: Kind) -> str:
        """The one line for a bet this table does not offer."""
        return f"{self.title} has no {KIND_NAMES[kind]}. Bets here: {self.bets_here}"


# Bank craps' bets: every kind but those only a variant of its own offers.
ALL_KINDS = frozenset(Kind) - {Kind.HIGH, Kind.FACE}

BANK = Variant(
    key="bank", title="Bank craps", phrase="bank craps", word="craps",
    summary="everyone against the house; shooters take turns", kinds=ALL_KINDS)

CRAPLESS = Variant(
    key="crapless", title="Crapless craps", phrase="crapless craps", word="crapless",
    summary="never ever craps: a come-out 7 wins, every other total is the point",
    kinds=ALL_KINDS - {Kind.DONT_PASS, Kind.DONT_COME, Kind.LAY, Kind.LAY_ODDS,
                       Kind.FIRE, Kind.SMALL, Kind.TALL, Kind.ALL},
    points=CRAPLESS_POINTS, naturals=frozenset({7}), craps=frozenset(),
    true_odds=MappingProxyType(CRAPLESS_TRUE_ODDS), place_odds=MappingProxyType(CRAPLESS_PLACE_ODDS),
    take=CRAPLESS_TAKE, odds_words="3x on 2/3/4/10/11/12, 4x on 5/9, 5x on 6/8",
    odds_rule="3x on 2, 3, 4, 10, 11 and 12, 4x on 5 and 9, 5x on 6 and 8",
    rules=(
        "Crapless craps (never ever craps): everyone bets against the house; players take turns as shooter.",
        "Pass line: a come-out 7 wins; every other total, 2, 3, 11 and 12 too, is the point,",
        "  which must come again before a 7. Nothing loses on the come-out; 11 is not a natural.",
        "Come works the same way from any roll after the point is set. No don't pass, don't come or lay.",
        "Odds behind pass and come pay true odds, commission free: 6:1 on 2 and 12, 3:1 on 3 and 11,",
        "  2:1 on 4 and 10, 3:2 on 5 and 9, 6:5 on 6 and 8; up to {odds}.",
        "Place 2/12 pays 11:2 (in twos), 3/11 11:4 (in fours), 4/10 9:5, 5/9 7:5, 6/8 7:6."
        " Buy any of the ten at true odds less 5% of the stake (rounded up, only on wins).",
        "A place, buy or hardway bet that wins is paid and comes down (no automatic renewal):"
        " bet it again to keep it up.",
        "Hard 4/10 pay 7:1, hard 6/8 9:1. Field (one roll) 2,3,4,9,10,11,12: 2 pays 2:1, 12 pays {field_12}:1.",
        "Any 7 4:1, any craps 7:1, 2 and 12 30:1, 3 and 11 15:1, horn in fours, hop 15:1 (pairs 30:1).",
        "Place, buy and hardways are off on the come-out. Pass and come are contracts;",
        "  anything else can be taken down with unbet. A seven-out passes the dice.",
    ))

NEW_YORK = Variant(
    key="new_york", title="New York craps", phrase="New York craps", word="newyork",
    summary="Scarne's eastern game: line bets with odds, the box numbers bought or laid for 5% up front",
    kinds=frozenset({Kind.PASS, Kind.DONT_PASS, Kind.ODDS, Kind.LAY_ODDS, Kind.BUY, Kind.LAY, Kind.HARD,
                     Kind.FIELD, Kind.ANY7, Kind.ANYCRAPS, Kind.PROP, Kind.HORN, Kind.HOP}),
    charge_on_bet=True, odds_rule="3x on 4 and 10, 4x on 5 and 9, 5x on 6 and 8 taken; 6x the flat bet laid",
    rules=(
        "New York craps (Scarne's eastern game): everyone bets against the house; players take turns as shooter.",
        "Pass line: a come-out 7 or 11 wins, 2, 3 or 12 loses; any other total is the point,",
        "  which must come again before a 7. Don't pass is the reverse, with 12 a push (bar 12).",
        "Odds behind pass and don't pass pay true odds, commission free: {odds}.",
        "No come, don't come or place bets: the box numbers 4, 5, 6, 8, 9, 10 are bought or laid."
        " Buy pays true odds (2:1, 3:2, 6:5); lay pays true odds against (1:2, 2:3, 5:6).",
        "The house charges 5% when the bet is made: of the stake on a buy, of the win on a lay,"
        " rounded up to a whole chip, paid at once and never returned (win, lose or unbet).",
        "A buy, lay or hardway bet that wins is paid and comes down (no automatic renewal):"
        " bet it again to keep it up (a new buy or lay is charged again).",
        "Hard 4/10 pay 7:1, hard 6/8 9:1. Field (one roll) 2,3,4,9,10,11,12: 2 pays 2:1, 12 pays {field_12}:1.",
        "Any 7 4:1, any craps 7:1, 2 and 12 30:1, 3 and 11 15:1, horn in fours, hop 15:1 (pairs 30:1).",
        "Buy and hardways are off on the come-out; lays always work. Pass is a contract;",
        "  anything else can be taken down with unbet. A seven-out passes the dice.",
    ))

DICELESS = Variant(
    key="diceless", title="Diceless craps", phrase="diceless craps", word="diceless",
    summary="bank craps dealt with two cards, red and blue, ace to six",
    kinds=ALL_KINDS, draw=CARDS, roll="deal", dice="cards",
    preface=(
        "Diceless craps: bank craps with cards. Each deal takes one card from each of two packs"
        " of six (red hearts and blue spades, ace to six); both packs are whole again before the"
        " next deal, so the totals are exactly as likely as two dice's.",
        "A pair is a hard number. 'roll' deals. Every bet, payout and edge below is bank craps'.",
    ))

HIGH_POINT = Variant(
    key="high_point", title="High Point craps", phrase="High Point craps", word="highpoint",
    summary="one bet: after a come-out point, the next roll must beat it",
    kinds=frozenset({Kind.HIGH}), points=HIGH_POINTS, naturals=frozenset({11, 12}), craps=frozenset(),
    scheme=Scheme.HIGH, line=Kind.HIGH, table_keys=(), odds_words="", odds_rule="",
    words=MappingProxyType({"high": Kind.HIGH, "pass": Kind.HIGH, "line": Kind.HIGH, "passline": Kind.HIGH}),
    point_rule="the next roll decides: higher than {point} wins, {point} or lower loses",
    rules=(
        "High Point craps: everyone bets against the house; players take turns as shooter.",
        "One bet, 'bet high <n>' ('bet pass <n>' too), made on the come-out. A contract.",
        "Come-out 2 or 3: no decision, the bet stays and the shooter rolls again.",
        "Come-out 11 or 12: high wins 1:1.",
        "Come-out 4 to 10 (7 too) is the point, and the next roll decides:"
        " a total higher than the point wins 1:1; the point or lower loses.",
        "No other bets. A win keeps the dice; a loss passes them to the next shooter.",
    ))

DIE_RICH = Variant(
    key="die_rich", title="Die Rich", phrase="Die Rich", word="dierich",
    summary="one die: a come-out 6 wins, 1 loses, 2 to 5 must come again within three rolls",
    kinds=frozenset({Kind.PASS, Kind.FACE}), points=DIE_POINTS, naturals=frozenset({6}),
    craps=frozenset({1}), draw=DIE, dice="die", scheme=Scheme.DIE, table_keys=(), odds_words="",
    words=MappingProxyType({"face": Kind.FACE}),
    point_rule=("{point} within three more rolls wins: 2:1 on the hand's second roll, 1:1 on the third, "
                "2:1 on the fourth; a 1, or a fourth roll that misses, loses"),
    rules=(
        "Die Rich: one die, everyone against the house; players take turns as shooter.",
        "Pass ('bet pass <n>', on the come-out, a contract): a come-out 6 wins 1:1, a 1 loses,"
        " and 2 to 5 is the point.",
        "The shooter then has up to three more rolls:"
        " the point on the second roll of the hand pays 2:1, on the third 1:1, on the fourth 2:1;"
        " a 1 loses, and a fourth roll that is neither loses.",
        "Face: 'bet face <1-6> <n>' on the next roll's face pays 4:1, one roll; it can be taken down.",
        "Nothing else is offered. A win keeps the die; a loss passes it on.",
    ))

# Every variant a `game: craps` table may name, by its `variant:` value
# (simplified craps is its own package: server/games/simplified).
VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {v.key: v for v in (BANK, CRAPLESS, NEW_YORK, DICELESS, HIGH_POINT, DIE_RICH)})


def charge_on_bet(variant: Variant, bet: Bet) -> int:
    """New York's 5% charge on a buy (of the stake) or a lay (of its win),
    rounded up, taken when the bet is made; 0 at every other table or bet."""
    if not variant.charge_on_bet or bet.kind not in (Kind.BUY, Kind.LAY):
        return 0
    if bet.kind is Kind.BUY:
        return commission(Kind.BUY, bet.amount, 0)
    num, den = LAID_ODDS[bet.number]
    return commission(Kind.LAY, bet.amount, bet.amount * num // den)

"""Bank craps' bets in words: each kind with its payout, for `help craps` and
`help <kind>` (`help pass`, `help field`). The ratios are read from bets.py,
the one source of the payouts, so help cannot drift from what is paid."""
from __future__ import annotations

from collections.abc import Mapping

from server.games.craps.bets import (ANY7_ODDS, ANYCRAPS_ODDS, ATS_PAYS, CRAPLESS_PLACE_ODDS,
                                     CRAPLESS_TRUE_ODDS, DIE_POINT_PAYS, FACE_ODDS, FIRE_PAYS, HARD_ODDS, HIGH_ODDS,
                                     HOP_EASY_ODDS,
                                     HOP_PAIR_ODDS, LAID_ODDS, PLACE_ODDS, PROP_ODDS, TRUE_ODDS)
from server.config.model import GameOptions, TableConfig
from server.games.craps.options import CrapsOptions, variant_of
from server.games.craps.parse import KIND_WORDS as TYPED
from server.games.craps.variants import BANK, Variant


def _r(pair: tuple[int, int]) -> str:
    return f"{pair[0]}:{pair[1]}"


def _by_point(table: dict[int, tuple[int, int]]) -> str:
    return f"{_r(table[4])} on 4/10, {_r(table[5])} on 5/9, {_r(table[6])} on 6/8"


# The field's 12 in general; a seated player reads their table's figure (table_topics).
FIELD_12_ANY = "12 pays 2:1 or 3:1 as the table says ('table rules')."
# `odds: 0` at bank craps (and New York), in a sentence.
BANK_ODDS_RULE = "3x on 4 and 10, 4x on 5 and 9, 5x on 6 and 8 taken; 6x the flat bet laid"

# Said of place bets, which a craps player expects to stay up after a win.
COMES_DOWN = "A win pays and the bet comes down (no automatic renewal): bet it again to keep it up."

# (the words that bet it, its help line: usage, what wins, what it pays)
BETS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("pass", "line", "passline"), "bet pass <n> - the pass line: a come-out 7 or 11 wins, 2, 3 or 12 loses, "
                       "else the point must repeat before a 7. Pays 1:1. A contract."),
    (("dontpass", "dp"), "bet dontpass <n> (dp) - the reverse of pass; a come-out 12 pushes "
                         "(bar 12). Pays 1:1."),
    (("come",), "bet come <n> - like pass, from any roll once a point is on; it travels to its "
                "number. Pays 1:1. A contract."),
    (("dontcome", "dc"), "bet dontcome <n> (dc) - like don't pass, once a point is on. Pays 1:1."),
    (("odds",), "bet odds pass|dp <n>, bet odds come|dc <N> <n> - true odds behind a line bet: "
                f"{_by_point(TRUE_ODDS)} taken; {_by_point(LAID_ODDS)} laid. No commission."),
    (("place",), f"bet place <N> <n> - N (4 5 6 8 9 10) before a 7: pays {_by_point(PLACE_ODDS)}. "
                 f"Off on the come-out. {COMES_DOWN}"),
    (("buy",), f"bet buy <N> <n> - N before a 7 at true odds ({_by_point(TRUE_ODDS)}) less 5% of "
               "the stake, charged only on a win."),
    (("lay",), f"bet lay <N> <n> - a 7 before N at true odds ({_by_point(LAID_ODDS)}) less 5% of "
               "the win. Always working."),
    (("hard",), f"bet hard <N> <n> - N the hard way (a pair) before a 7 or the easy way: "
                f"4/10 pay {_r(HARD_ODDS[4])}, 6/8 pay {_r(HARD_ODDS[6])}."),
    (("field",), "bet field <n> - one roll: 2, 3, 4, 9, 10, 11 or 12 wins; 3 4 9 10 11 pay 1:1, "
                 f"2 pays 2:1, {FIELD_12_ANY}"),
    (("any7",), f"bet any7 <n> - one roll: any 7 pays {_r(ANY7_ODDS)}."),
    (("anycraps",), f"bet anycraps <n> - one roll: 2, 3 or 12 pays {_r(ANYCRAPS_ODDS)}."),
    (("2", "3", "11", "12"), f"bet 2|3|11|12 <n> - one roll on that total: 2 and 12 pay "
                             f"{_r(PROP_ODDS[2])}, 3 and 11 pay {_r(PROP_ODDS[3])}."),
    (("horn",), "bet horn <n> - one roll, the stake in four equal parts on 2, 3, 11 and 12 "
                "(in fours): the part that hits pays as that bet, the rest lose."),
    (("hop",), f"bet hop <A> <B> <n> - one roll on those two dice: {_r(HOP_EASY_ODDS)}, "
               f"a pair {_r(HOP_PAIR_ODDS)}."),
    (("fire",), "bet fire <n> - distinct points the shooter makes before the seven-out: "
                + ", ".join(f"{k} pay {v}:1" for k, v in FIRE_PAYS.items()) + ". Before the hand's first roll."),
    (("small", "tall", "all"), f"bet small|tall|all <n> - every total 2-6 (small) or 8-12 (tall) "
                               f"before a 7 pays {ATS_PAYS['small']}:1; both (all) pay "
                               f"{ATS_PAYS['all']}:1. Before the hand's first roll."),
)

def _crapless(table: Mapping[int, tuple[int, int]]) -> str:
    return (f"{_r(table[2])} on 2/12, {_r(table[3])} on 3/11, " + _by_point(dict(table)))


# What a variant says instead of bank craps' line for a kind: (variant, first word) -> text.
VARIANT_BETS: Mapping[tuple[str, str], str] = {
    ("new_york", "buy"): f"bet buy <N> <n> - N (4 5 6 8 9 10) before a 7 at true odds ({_by_point(TRUE_ODDS)}), "
                         "paid in full; 5% of the stake (rounded up) goes to the house when you bet, never returned.",
    ("new_york", "lay"): f"bet lay <N> <n> - a 7 before N at true odds ({_by_point(LAID_ODDS)}), paid in full; "
                         "5% of the win (rounded up) goes to the house when you bet, never returned.",
    ("new_york", "odds"): "bet odds pass|dp <n> - true odds behind a line bet: "
                          f"{_by_point(TRUE_ODDS)} taken; {_by_point(LAID_ODDS)} laid. No commission.",
    ("die_rich", "pass"): "bet pass <n> - one die: a come-out 6 wins 1:1, 1 loses, 2 to 5 is the point; "
                          f"the point then pays {_r(DIE_POINT_PAYS[0])} on the hand's second roll, "
                          f"{_r(DIE_POINT_PAYS[1])} on the third, {_r(DIE_POINT_PAYS[2])} on the fourth; "
                          "a 1, or a fourth roll that misses, loses. A contract.",
    ("crapless", "pass"): "bet pass <n> - a come-out 7 wins; every other total (2, 3, 4, 5, 6, 8, 9, "
                          "10, 11, 12) is the point, which must repeat before a 7. Nothing loses on "
                          "the come-out. Pays 1:1. A contract.",
    ("crapless", "come"): "bet come <n> - like pass, from any roll once a point is on; it travels to "
                          "its number (any total but 7). Pays 1:1. A contract.",
    ("crapless", "odds"): "bet odds pass <n>, bet odds come <N> <n> - true odds behind pass or come: "
                          f"{_crapless(CRAPLESS_TRUE_ODDS)}. No commission.",
    ("crapless", "place"): "bet place <N> <n> - N (2 3 4 5 6 8 9 10 11 12) before a 7: pays "
                           f"{_crapless(CRAPLESS_PLACE_ODDS)} (2/12 in twos, 3/11 in fours). "
                           f"Off on the come-out. {COMES_DOWN}",
    ("crapless", "buy"): "bet buy <N> <n> - N (any point) before a 7 at true odds "
                         f"({_crapless(CRAPLESS_TRUE_ODDS)}) less 5% of the stake, charged only on a win.",
}


# The bets only a variant has (kinds bank craps does not take), with their words.
VARIANT_ONLY: Mapping[str, tuple[tuple[tuple[str, ...], str], ...]] = {
    "high_point": ((("high", "pass"), f"bet high <n> (or bet pass <n>) - on the come-out; 2 or 3: no "
                    f"decision, roll again; 11 or 12 wins {_r(HIGH_ODDS)}; 4 to 10 is the point and the "
                    f"next roll decides: higher wins {_r(HIGH_ODDS)}, the point or lower loses. A contract."),),
    "die_rich": ((("face",), f"bet face <1-6> <n> - one roll: the die shows that face, pays {_r(FACE_ODDS)}."),),
}


def bets_for(variant: Variant = BANK) -> tuple[tuple[tuple[str, ...], str], ...]:
    """The bets a variant's table takes, each with its help line."""
    out: list[tuple[tuple[str, ...], str]] = []
    for words, text in BETS:
        if not variant.offers(TYPED[words[0]]):
            continue
        out.append((words, VARIANT_BETS.get((variant.key, words[0]), text)))
    return (*out, *VARIANT_ONLY.get(variant.key, ()))


def topics_for(variant: Variant = BANK) -> dict[str, str]:
    return {word: text for words, text in bets_for(variant) for word in words}


def payout_lines(variant: Variant = BANK) -> tuple[str, ...]:
    return ("Bets and what they pay (amounts <n> in whole chips):",
            *(f"  {text}" for _, text in bets_for(variant)))


def table_topics(config: TableConfig[GameOptions]) -> dict[str, str]:
    """`help <bet>` for a player seated at this table: the variant's topics
    with the figures this table's config sets said as this table's ("12
    pays 3:1 here", the odds multiple), where the general text can only say
    "as the table says" (issue 38 item 7)."""
    options = config.narrowed(CrapsOptions).options
    variant = variant_of(options)
    topics = topics_for(variant)
    if "field" in topics and "field_12" in variant.table_keys:
        topics["field"] = topics["field"].replace(FIELD_12_ANY, f"12 pays {options.field_12}:1 here.")
    if "odds" in topics and "odds" in variant.table_keys:
        topics["odds"] += " Here: up to " + (odds_here(variant) if options.odds == 0
                                             else f"{options.odds}x the flat bet") + "."
    return topics


def odds_here(variant: Variant) -> str:
    """`odds: 0` in a sentence: "3x on 4 and 10, ... taken; 6x the flat bet laid"."""
    return variant.odds_rule or BANK_ODDS_RULE

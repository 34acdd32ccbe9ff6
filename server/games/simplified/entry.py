"""Simplified craps (specs 001, 002) in the catalogue: a solo table against the house."""
from __future__ import annotations

from types import MappingProxyType

from server.config.model import GameOptions, TableConfig
from server.games.craps.options import CRAPS_KEYS, CrapsOptions
from server.games.seam import GameEntry, OddsSheet
from server.games.simplified.commands import ACTIONS
from server.games.simplified.dealer import make


def odds_sheet(table: TableConfig[GameOptions]) -> OddsSheet:
    """`casino odds` for a simplified craps table: the engine itself, played exactly."""
    from server.games.simplified.odds import house_edges
    return OddsSheet(f"{table.id}: simplified craps, bets {table.min_bet}..{table.max_bet}",
                     tuple(house_edges(table)))


# Don't pass's 12 in general; a seated player reads their table's (table_topics).
BAR_ANY = "a come-out 12 pushes unless the table says otherwise"
TOPICS = MappingProxyType({
    "pass": "bet pass <n> - the pass line: a come-out 7 or 11 wins, 2, 3 or 12 loses, else the point must repeat before a 7. Pays 1:1.",
    "dontpass": f"bet dontpass <n> (dp) - the reverse of pass; {BAR_ANY}. Pays 1:1.",
    "dp": f"bet dp <n> - don't pass: the reverse of pass; {BAR_ANY}. Pays 1:1.",
})


def table_topics(table: TableConfig[GameOptions]) -> dict[str, str]:
    """`help dontpass` at this table: whether its come-out 12 pushes (`dont_pass_bar`)."""
    bar = table.narrowed(CrapsOptions).options.dont_pass_bar
    here = "a come-out 12 pushes here (bar 12)" if bar == 12 else "no bar here: a come-out 12 wins as 2 and 3 do"
    return {word: text.replace(BAR_ANY, here) for word, text in TOPICS.items()}


SIMPLIFIED = GameEntry(
    key="simplified_craps",
    title="Simplified craps",
    phrase="simplified craps",
    word="craps",
    game="craps",
    variant="simplified",
    summary="solo: pass or don't pass, press, odds, ride",
    actions=ACTIONS,
    keys=CRAPS_KEYS,
    make=make,
    help_lines=(
        "Bets and what they pay:",
        "  pass - a come-out 7 or 11 wins, 2, 3 or 12 loses, else the point must repeat before a 7. Pays 1:1.",
        "  dontpass (dp) - the reverse; a come-out 12 pushes unless the table says otherwise. Pays 1:1.",
        "  odds - true odds once a point is set: 2:1 on 4/10, 3:2 on 5/9, 6:5 on 6/8 (laid 1:2, 2:3, 5:6).",
        "  press doubles the flat bet; ride bets stake and winnings again on the same side.",
        "As you sit down and as each game starts you may type a seed for the dice; Enter skips.",
        "A classic-dice table (dice: classic) is a practice table: seed msvc <n>, seed mac <n> or seed glibc <n>",
        "  rolls what that C program rolls (for example: seed msvc 22), predictable by design,",
        "  so no chips move: a practice bankroll of 1,000 per sitting, never written to the ledger.",
    ),
    odds=odds_sheet,
    topics=TOPICS,
    table_topics=table_topics,
)

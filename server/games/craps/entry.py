"""Bank craps and its variants in the catalogue: their words with their help,
and their dealer. Each variant's entry is made from its Variant (variants.py)
by `entry_of`: the same dealer class, help and odds sheet, read for that variant."""
from __future__ import annotations

from server.config.model import GameOptions, TableConfig
from server.games.craps.bets import Kind
from server.games.craps.dealer import actions_for, make
from server.games.craps.help import payout_lines, table_topics, topics_for
from server.games.craps.options import CRAPS_KEYS, CrapsOptions, variant_of
from server.games.craps.variants import (BANK, CRAPLESS, DICELESS, DIE_RICH, HIGH_POINT, NEW_YORK, Variant)
from server.games.seam import GameEntry, OddsSheet


def odds_sheet(config: TableConfig[GameOptions]) -> OddsSheet:
    """`casino odds` for a bank craps table (or a variant's): every bet, by exact Markov chains."""
    from server.games.craps.edge import house_edges
    table = config.narrowed(CrapsOptions)
    o = table.options
    variant = variant_of(o)
    parts = [f"{table.id}: {variant.phrase}"]
    if "odds" in variant.table_keys and variant.offers(Kind.ODDS):
        parts.append("odds " + (variant.odds_words if o.odds == 0 else f"{o.odds}x"))
    if "field_12" in variant.table_keys:
        parts.append(f"field 12 pays {o.field_12}:1")
    parts.append(f"bets {table.min_bet}..{table.max_bet}")
    return OddsSheet(", ".join(parts), tuple(house_edges(table)))


def entry_of(variant: Variant) -> GameEntry:
    """A variant's catalogue entry."""
    return GameEntry(
        key=f"{variant.key}_craps",
        title=variant.title,
        phrase=variant.phrase,
        word=variant.word,
        game="craps",
        variant=variant.key,
        summary=variant.summary,
        actions=actions_for(variant),
        keys=CRAPS_KEYS,
        make=make,
        help_lines=payout_lines(variant),
        odds=odds_sheet,
        draws=variant.draw,
        topics=topics_for(variant),
        table_topics=table_topics,
    )


BANK_CRAPS = entry_of(BANK)
CRAPLESS_CRAPS = entry_of(CRAPLESS)
DICELESS_CRAPS = entry_of(DICELESS)
NEW_YORK_CRAPS = entry_of(NEW_YORK)
HIGH_POINT_CRAPS = entry_of(HIGH_POINT)
DIE_RICH_CRAPS = entry_of(DIE_RICH)

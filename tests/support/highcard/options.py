"""The keys a high card table reads (`game: high_card`): each declared once."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from server.config.keys import Field, as_int, as_text, option, rows_of
from server.games.seam import Built, OptionsReader, TableKeys


@dataclass(frozen=True)
class HighCardOptions:
    variant: ClassVar[None] = None      # one game, no variants (config.model.GameOptions)
    min_bet: int = option(1, as_int, 1, 1_000_000)
    max_bet: int = option(100, as_int, 1, 1_000_000)
    ties: str = option("house", as_text, choices=("house", "push"))   # who a tie goes to


FIELDS = (Field("max_players", as_int, 4, 1, 8), *rows_of(HighCardOptions))


def read(entry: OptionsReader) -> Built[HighCardOptions]:
    v = entry.read(FIELDS)
    if v.ok("min_bet", "max_bet") and v["max_bet"] < v["min_bet"]:
        entry.error("max_bet", f"{v['max_bet']:,} is below min_bet {v['min_bet']:,}")
    players = v.pop("max_players")
    options = HighCardOptions(**v)
    return Built(players, options.min_bet, options.max_bet, options)


KEYS = TableKeys(read=read, top=tuple(f.name for f in FIELDS), rows=FIELDS)

"""The keys an alley craps table reads (`game: alley_craps`), and its options.

Alley craps has no house wager limits: the buy-in and the bet unit are the
money keys, and the table's min_bet/max_bet are derived from them (one unit;
every buy-in at stake).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from server.config.keys import Field, as_int, option, rows_of
from server.games.seam import Built, OptionsReader, TableKeys


@dataclass(frozen=True)
class AlleyOptions:
    variant: ClassVar[None] = None      # one game, no variants (config.model.GameOptions)
    min_players: int = option(2, as_int, 2, 6)
    buy_in: int = option(100, as_int, 1, 1_000_000)
    bet_unit: int = option(10, as_int, 1, 1_000_000)
    bet_window: int = option(60, as_int, 1, 3600)       # seconds for the shooter to set the action
    fade_window: int = option(30, as_int, 1, 3600)      # seconds for each opponent to fade
    roll_window: int = option(30, as_int, 1, 3600)      # seconds for each roll
    choice_window: int = option(30, as_int, 1, 3600)    # seconds to choose roll again or pass the bones


ALLEY_FIELDS = (Field("max_players", as_int, 6, 2, 6), *rows_of(AlleyOptions))


def read(entry: OptionsReader) -> Built[AlleyOptions]:
    v = entry.read(ALLEY_FIELDS)
    if v.ok("min_players", "max_players") and v["min_players"] > v["max_players"]:
        entry.error("min_players", f"{v['min_players']} is more than max_players {v['max_players']}")
    if v.ok("buy_in", "bet_unit") and v["buy_in"] % v["bet_unit"]:
        entry.error("buy_in", f"{v['buy_in']:,} is not a multiple of bet_unit {v['bet_unit']:,}")
    players = v.pop("max_players")
    options = AlleyOptions(**v)
    return Built(players, options.bet_unit, options.buy_in * players, options)


ALLEY_KEYS = TableKeys(
    read=read,
    top=tuple(f.name for f in ALLEY_FIELDS),
    rows=ALLEY_FIELDS,
    hints={"min_bet": "alley_craps tables use bet_unit and buy_in",
           "max_bet": "alley_craps tables use bet_unit and buy_in"},
)

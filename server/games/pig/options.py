"""The keys a Pig table reads (`game: pig`), and its options.

Pig's only money key is the ante (`stake`, for games among players); the
table's min_bet and max_bet are that stake.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from server.config.keys import Field, as_float, as_int, option, rows_of
from server.games.seam import Built, OptionsReader, TableKeys


@dataclass(frozen=True)
class PigOptions:
    variant: ClassVar[None] = None      # one game, no variants (config.model.GameOptions)
    target: int = option(100, as_int, 10, 10000)
    stake: int = option(0, as_int, 0, 1_000_000)
    turn_deadline: int = option(60, as_int, 1, 3600)           # seconds idle on a turn before holding
    computer_pace: float = option(1.0, as_float, 0.0, 60.0)    # seconds between the computer's rolls


PIG_FIELDS = (Field("max_players", as_int, 6, 1, 6), *rows_of(PigOptions))


def read(entry: OptionsReader) -> Built[PigOptions]:
    v = entry.read(PIG_FIELDS)
    players = v.pop("max_players")
    options = PigOptions(**v)
    return Built(players, options.stake, options.stake, options)


PIG_KEYS = TableKeys(
    read=read,
    top=tuple(f.name for f in PIG_FIELDS),
    rows=PIG_FIELDS,
    hints={"min_bet": "pig tables use stake", "max_bet": "pig tables use stake"},
)

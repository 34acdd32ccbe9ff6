"""The keys a Pig table reads (`game: pig`), and its options.

Pig's only money key is the ante (`stake`, for games among players); the
table's min_bet and max_bet are that stake.
"""
from __future__ import annotations

from dataclasses import dataclass

from server.config.keys import Field, as_float, as_int
from server.games.seam import Built, OptionsReader, TableKeys


@dataclass(frozen=True)
class PigOptions:
    target: int = 100
    stake: int = 0
    turn_deadline: int = 60     # seconds a player may idle on their turn before holding
    computer_pace: float = 1.0  # seconds between the computer's rolls


_PO = PigOptions()
PIG_FIELDS = (
    Field("max_players", as_int, 6, 1, 6),
    Field("target", as_int, _PO.target, 10, 10000),
    Field("stake", as_int, _PO.stake, 0, 1_000_000),
    Field("turn_deadline", as_int, _PO.turn_deadline, 1, 3600),
    Field("computer_pace", as_float, _PO.computer_pace, 0.0, 60.0),
)


def read(entry: OptionsReader) -> Built:
    v = entry.read(PIG_FIELDS)
    players = v.pop("max_players")
    options = PigOptions(**v)
    return Built(players, options.stake, options.stake, options)


PIG_KEYS = TableKeys(
    game="pig",
    read=read,
    top=tuple(f.name for f in PIG_FIELDS),
    rows=PIG_FIELDS,
    hints={"min_bet": "pig tables use stake", "max_bet": "pig tables use stake"},
)

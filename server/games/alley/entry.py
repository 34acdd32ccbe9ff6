"""Alley craps (spec 000) in the catalogue: players fade each other."""
from __future__ import annotations

from server.games.alley.dealer import ACTIONS, make
from server.games.alley.options import ALLEY_KEYS
from server.games.seam import GameEntry

ALLEY = GameEntry(
    key="alley_craps",
    title="Alley craps",
    phrase="alley craps",
    word="alley",
    game="alley_craps",
    variant=None,
    summary="players fade each other; the house takes nothing",
    actions=ACTIONS,
    keys=ALLEY_KEYS,
    make=make,
    help_lines=(
        "Bets and what they pay: the shooter's action against the fades that cover it, even money",
        "  (1:1) either way; only the covered part is at risk. The house takes nothing.",
        "The shooter wins on a come-out 7 or 11 and loses on 2, 3 or 12; any other total is the point,",
        "  which must come again before a 7. 'table rules' has the rules in plain words.",
    ),
)

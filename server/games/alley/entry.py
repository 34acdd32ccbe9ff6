"""Alley craps (spec 000) in the catalogue: players fade each other."""
from __future__ import annotations

from server.games.alley.dealer import AlleyDealer
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
    words_old={
        "start": "start - start a game of alley craps with everyone seated (at least 2).",
        "bet": "bet <amount> - as the shooter, set the action (after a pass: shoot another pass for that much).",
        "fade": "fade <amount> - take that much of the shooter's action when asked; 'fade' alone declines.",
        "roll": "roll - as the shooter, roll the dice; after a pass, shoot another pass.",
        "pass": "pass - as the shooter, pass the bones to the next player (after a pass, or instead of betting).",
    },
    keys=ALLEY_KEYS,
    make=AlleyDealer,
    help_lines=(
        "Bets and what they pay: the shooter's action against the fades that cover it, even money",
        "  (1:1) either way; only the covered part is at risk. The house takes nothing.",
        "The shooter wins on a come-out 7 or 11 and loses on 2, 3 or 12; any other total is the point,",
        "  which must come again before a 7. 'table rules' has the rules in plain words.",
    ),
    opening_old=("start", "bet"),
)

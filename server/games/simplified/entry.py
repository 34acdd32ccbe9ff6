"""Simplified craps (specs 001, 002) in the catalogue: a solo table against the house."""
from __future__ import annotations

from server.games.craps.options import CRAPS_KEYS
from server.games.seam import GameEntry
from server.games.simplified.dealer import SimplifiedDealer

SIMPLIFIED = GameEntry(
    key="simplified_craps",
    title="Simplified craps",
    phrase="simplified craps",
    word="craps",
    game="craps",
    variant="simplified",
    summary="solo: pass or don't pass, press, odds, ride",
    words={
        "bet": "bet pass|dontpass <amount> - start a game on the pass or don't pass line.",
        "roll": "roll - roll the dice.",
        "press": "press - double your flat bet, right after the point is set.",
        "odds": "odds <amount> - take (or lay) true odds behind your bet once a point is set.",
        "ride": "ride - after a win, let the stake and winnings ride as the next bet.",
        "collect": "collect - after a win, pick up your chips (they are already in your wallet).",
    },
    keys=CRAPS_KEYS,
    make=SimplifiedDealer,
    opening_words=("bet", "odds", "press", "ride"),
)

"""High card in the catalogue: the only place the casino learns of it."""
from __future__ import annotations

from server.games.seam import GameEntry

from .cards import CARD
from .dealer import ACTIONS, make, odds_sheet
from .options import KEYS

HIGH_CARD = GameEntry(
    key="high_card",
    title="High card",
    phrase="high card",
    word="highcard",
    game="high_card",
    variant=None,
    summary="one card each against the house's; higher wins",
    make=make,
    keys=KEYS,
    actions=ACTIONS,
    help_lines=("Bets and what they pay: a higher card than the house's pays 1:1.",),
    odds=odds_sheet,
    draws=CARD,
)

"""Blackjack in the catalogue: its words with their help, its dealer, its
config keys, a shoe for `fair` and `casino verify` to name, and `casino odds`'
sheet (edge.odds_sheet: basic strategy's house edge, exact for an infinite
shoe and simulated for the table's own). `hint` is one of its words (dealer.py),
answered from the strategy module.
"""
from __future__ import annotations

from server.games.seam import GameEntry

from .dealer import ACTIONS, make
from .draws import SHOE
from .edge import odds_sheet
from .options import BLACKJACK_KEYS

BLACKJACK = GameEntry(
    key="blackjack",
    title="Blackjack",
    phrase="blackjack",
    word="blackjack",
    game="blackjack",
    variant=None,
    summary="American blackjack from a shoe: hit, stand, double, split, insurance; 3:2 on a blackjack",
    actions=ACTIONS,
    keys=BLACKJACK_KEYS,
    make=make,
    aliases=("21", "twenty-one"),
    help_lines=(
        "Bets and what they pay: bet, then play each hand against the dealer's: closer to 21 than the dealer without going over "
        "wins 1:1; a blackjack (an ace and a ten-value card as your first two) pays 3:2 or 6:5, as the "
        "table says. Cards count as marked, J Q K 10, an ace 1 or 11 ('soft 17' counts an ace as 11).",
        "With others at the table the first bet opens a betting window with a last call, then the deal; "
        "each decision has a clock and the hand stands when it runs out. Alone, the cards come at your bet.",
        "Leaving or losing your connection forfeits nothing: your hands stand and are settled to your wallet. "
        "'table rules' says every rule of the table you sit at; 'fair' shows the shoe's commitment.",
    ),
    draws=SHOE,
    odds=odds_sheet,
    help_has_table_rules=True,
)

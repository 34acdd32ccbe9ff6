"""Single-zero roulette as a pure state machine (docs/play-roulette.md).

Modules, one idea each: layout (the wheel and the 3x12 layout as data), kinds
(the one table of bet kinds), bets (Bet and the parser), payout (what a bet
returns), odds (exact house edges), options (the table's settings), events
(facts), rounds (the round clock), targets (what `unbet` names), settlement
(one Settle per spin) and wheel (the state machine the table drives).
"""
from .bets import Bet, parse
from .kinds import Kind
from .layout import call
from .odds import house_edges
from .options import RouletteOptions
from .rounds import Phase
from .wheel import RouletteWheel

__all__ = ["Bet", "Kind", "Phase", "RouletteOptions", "RouletteWheel", "call", "house_edges", "parse"]

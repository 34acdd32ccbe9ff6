"""Alley craps (spec 000): a pure engine; see server.games.alley.game for the seam."""
from server.games.alley.events import Bet, Fade, PassDice, Roll
from server.games.alley.game import AlleyGame
from server.games.alley.rules import Decision, amount_problem, decide
from server.games.alley.state import AlleyView, Phase, start_problem
from server.games.alley.text import table_rules

__all__ = ["AlleyGame", "AlleyView", "Bet", "Decision", "Fade", "PassDice", "Phase", "Roll",
           "amount_problem", "decide", "start_problem", "table_rules"]

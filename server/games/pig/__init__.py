"""Pig (spec 003): a pure engine; see server.games.pig.game for the seam."""
from server.games.pig.game import PigGame, Phase, seconds_to_ticks, start_problem
from server.games.pig.rules import RollOutcome, computer_continues, roll_outcome

__all__ = ("PigGame", "Phase", "RollOutcome", "computer_continues", "roll_outcome",
           "seconds_to_ticks", "start_problem")

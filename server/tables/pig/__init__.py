"""Pig at its table: the GameTable adapter (table.py) and its renderer (render.py)."""
from server.tables.pig.table import COMMANDS, COMPUTER, PigTable

__all__ = ["COMMANDS", "COMPUTER", "PigTable"]

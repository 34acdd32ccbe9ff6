"""Alley craps at its table: seating and game starts (table.py), what people see (render.py)."""

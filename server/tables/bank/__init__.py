"""Bank craps at a table: seats, the shooter queue, pacing, and rendering."""

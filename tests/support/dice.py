"""Scripted rolls for a table under test.

A table (server.tables.core) rotates its dice between rounds, as its fair
dice reveal one seed and commit to the next; FixedDice alone have no
`rotate`. TableDice are FixedDice a table takes, and count the rotations so a
test can say when a table rotated its seed.
"""
from __future__ import annotations

from typing import Iterable

from server.dice.source import Dice, FixedDice


class TableDice(FixedDice):
    def __init__(self, rolls: Iterable[Dice] = ()) -> None:
        super().__init__(rolls)
        self.rotations = 0

    def rotate(self) -> None:
        self.rotations += 1

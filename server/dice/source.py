"""What a game needs from dice: one roll at a time.

Games are handed a DiceSource and never make their own randomness, so tests
pass fixed dice and `casino serve --seed N` replays every table.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Protocol

Dice = tuple[int, int]   # each die 1..6


class DiceSource(Protocol):
    def roll(self) -> Dice: ...


class FixedDice:
    """Dice that come out as listed: for tests and replaying the specs' examples."""

    def __init__(self, rolls: Iterable[Dice]) -> None:
        self._rolls: Iterator[Dice] = iter(rolls)

    def roll(self) -> Dice:
        try:
            return next(self._rolls)
        except StopIteration:
            raise RuntimeError("FixedDice ran out of rolls") from None

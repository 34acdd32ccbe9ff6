"""What a game needs from randomness: one roll (or one draw) at a time.

Games are handed a DiceSource (two dice) or a DrawSource (a value in [0, n),
e.g. a wheel's pocket from draw(37)) and never make their own randomness, so
tests pass fixed dice or draws and `casino serve --seed N` replays every table.
"""
from __future__ import annotations

from typing import Iterable, Iterator, Protocol

Dice = tuple[int, int]   # each die 1..6


class DiceSource(Protocol):
    def roll(self) -> Dice: ...


class DrawSource(Protocol):
    def draw(self, n: int) -> int: ...


class TableDraws(Protocol):
    """A table's fair source as a game sees it (server.dice.fair.FairDice):
    rolls, draws of any size, and `rotate`, which reveals the seed that
    served them and commits to the next (a game calls it between rounds)."""

    def roll(self) -> Dice: ...
    def draw(self, n: int) -> int: ...
    def rotate(self) -> object: ...

    @property
    def commitment(self) -> str | None:
        """What the next draws are committed to (shown by `fair`), or None
        for a source with no commitment (scripted dice)."""


class OwnDraws(Protocol):
    """A table's own source of rolls when they are not the fair ones (classic
    C dice, server.dice.classic.ClassicSource): its game hands it to the table
    (Dealer.own_draws), which lets it answer `seed` and `fair`."""

    def take_seed(self, text: str) -> str: ...          # the answer to `seed <text>`, taken or not
    def fair_lines(self) -> list[str]: ...              # what `fair` says instead


class FixedDice:
    """Dice that come out as listed: for tests and replaying the specs' examples."""

    commitment: str | None = None       # scripted: nothing committed

    def __init__(self, rolls: Iterable[Dice]) -> None:
        self._rolls: Iterator[Dice] = iter(rolls)

    def roll(self) -> Dice:
        try:
            return next(self._rolls)
        except StopIteration:
            raise RuntimeError("FixedDice ran out of rolls") from None


class FixedDraws:
    """Draws that come out as listed (e.g. wheel pockets): for tests of a game.

    A listed value outside [0, n) for the n asked is an error rather than
    being reduced mod n, so a test cannot silently play a pocket it never wrote.
    """

    commitment: str | None = None       # scripted: nothing committed

    def __init__(self, values: Iterable[int]) -> None:
        self._values: Iterator[int] = iter(values)

    def draw(self, n: int) -> int:
        try:
            value = next(self._values)
        except StopIteration:
            raise RuntimeError("FixedDraws ran out of draws") from None
        if not 0 <= value < n:
            raise ValueError(f"FixedDraws value {value} is not in [0, {n})")
        return value

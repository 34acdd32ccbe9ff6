"""The simulator's built-in strategies, and finding a user's strategy by name.

They double as examples of how to write one (docs/craps-engine.md): a class
with `before_roll(seat)` and, when it reacts to the dice, `travelled` and
`resolved` hooks.
"""
from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Callable
from pathlib import Path

from server.games.craps.bets import POINTS, Kind
from server.sim.craps import Seat, Slot, Strategy


class PassLine(Strategy):
    """`pass`: the minimum pass line bet on every come-out."""

    def before_roll(self, seat: Seat) -> None:
        if not seat.point and not seat.has(Kind.PASS):
            seat.bet(Kind.PASS)


class PassOdds(PassLine):
    """`pass-odds`: the minimum pass line plus the most odds the table allows."""

    def travelled(self, seat: Seat, slot: Slot) -> None:
        seat.odds(slot)


STANDING = ([(Kind.PLACE, n) for n in POINTS] + [(Kind.FIELD, 0)]
            + [(Kind.HARD, n) for n in (4, 6, 8, 10)])


class Many(Strategy):
    """`many`: pass + max odds, a come bet every roll with a point on (max odds on each),
    all six place bets, the field and the four hardways, renewed as they resolve."""

    def before_roll(self, seat: Seat) -> None:
        if seat.point:
            if not seat.has(Kind.COME, 0):
                seat.bet(Kind.COME)
        elif not seat.has(Kind.PASS):
            seat.bet(Kind.PASS)
        for kind, number in STANDING:
            if not seat.has(kind, number):
                seat.bet(kind, number)

    def travelled(self, seat: Seat, slot: Slot) -> None:
        seat.odds(slot)


class ManyStanding(Many):
    """The same bets as `many`, with the place bets, field and hardways made standing
    bets (`keep=True`): the simulator puts them back up itself, which is cheaper."""

    def __init__(self) -> None:
        self.started = False

    def before_roll(self, seat: Seat) -> None:
        if not self.started:
            self.started = True
            for kind, number in STANDING:
                seat.bet(kind, number, keep=True)
        if seat.view.point:
            if not seat.has(Kind.COME, 0):
                seat.bet(Kind.COME)
        elif not seat.has(Kind.PASS):
            seat.bet(Kind.PASS)


BUILT_IN: dict[str, Callable[[], Strategy]] = {
    "pass": PassLine, "pass-odds": PassOdds, "many": ManyStanding,
}


def load(name: str) -> object:
    """A built-in name, `package.module:Name` or `path/to/file.py:Name` (a class or factory).

    What a factory makes is any object with some of Strategy's hooks (the
    simulator looks each up by name, docs/craps-engine.md), so it is an object
    here: nothing more can be said of it until `run` asks for its hooks."""
    if name in BUILT_IN:
        return BUILT_IN[name]()
    where, sep, attr = name.rpartition(":")
    if not sep or not where or not attr:
        raise ValueError(f"unknown strategy '{name}': built-ins are {', '.join(BUILT_IN)}; "
                         "or give module:Name / file.py:Name")
    if where.endswith(".py"):
        spec = importlib.util.spec_from_file_location(Path(where).stem, where)
        if spec is None or spec.loader is None:
            raise ValueError(f"cannot load {where}")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    factory = getattr(module, attr, None)
    if factory is None:
        raise ValueError(f"{where} has no {attr}")
    strategy: object = factory()
    return strategy

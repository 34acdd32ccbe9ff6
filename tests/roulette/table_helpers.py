"""The shipped roulette table driven as the host drives it (PureTable), with
fixed pockets: for tick-driven tests of seats, rounds, leaving and views."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from server.config.load import load_config
from server.dice.source import FixedDraws
from support.pure_table import PureTable
from support.table_facts import notes as notes
from support.table_facts import notices as notices
from support.table_facts import of as of
from support.table_facts import text as text

ROOT = Path(__file__).resolve().parents[2]
HZ = 10
SHIPPED = load_config(ROOT / "config", ROOT / "rooms").tables["roulette"]


class Wheel(FixedDraws):
    """Fixed pockets that count rotations and show a commitment, like FairDice."""

    commitment = "c0ffee" * 10 + "abcd"

    def __init__(self, pockets=()) -> None:
        super().__init__(pockets)
        self.rotations = 0

    def rotate(self) -> None:
        self.rotations += 1


def config(**options):
    limits = {k: options[k] for k in ("min_bet", "max_bet") if k in options}
    return dataclasses.replace(SHIPPED, **limits, options=dataclasses.replace(SHIPPED.options, **options))


def table(*pockets: int, **options) -> PureTable:
    return PureTable(config(**options), HZ, Wheel(pockets))


def seat(t: PureTable, *players: str, wallet: int = 1000) -> PureTable:
    for p in players:
        t.sit(p, wallet)
    return t


def bet(t: PureTable, player: str, words: str, wallet: int = 1000) -> list:
    return t.act(player, ["bet", *words.split()], wallet)


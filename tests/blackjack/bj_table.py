"""The shipped blackjack table driven as the host drives it (PureTable), with
seeded fair draws: for tick-driven tests of seats, rounds, leaving and views."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from server.config.load import load_config
from server.dice.fair import FairDice
from support.pure_table import PureTable
from support.table_facts import notes as notes
from support.table_facts import notices as notices
from support.table_facts import of as of
from support.table_facts import text as text

ROOT = Path(__file__).resolve().parents[2]
HZ = 10
SHIPPED = load_config(ROOT / "config", ROOT / "rooms").tables["blackjack"]


def config(**options):
    limits = {k: options[k] for k in ("min_bet", "max_bet") if k in options}
    return dataclasses.replace(SHIPPED, **limits, options=dataclasses.replace(SHIPPED.options, **options))


def table(seed: int = 1, **options) -> PureTable:
    return PureTable(config(**options), HZ, FairDice("blackjack", seed=seed))


def seat(t: PureTable, *players: str, wallet: int = 1000) -> PureTable:
    for p in players:
        t.sit(p, wallet)
    return t


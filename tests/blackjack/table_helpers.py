"""The shipped blackjack table driven as the host drives it (PureTable), with
seeded fair draws: for tick-driven tests of seats, rounds, leaving and views."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from server.config.load import load_config
from server.dice.fair import FairDice
from server.games.seam import Note, Notice, Viewer
from server.render.prefs import Prefs
from support.pure_table import PureTable

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


def of(events, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


def notes(events, player: str | None = None) -> str:
    return " | ".join(e.text for e in of(events, Note) if player is None or e.to is None or player in e.to)


def notices(events) -> dict[str, str]:
    return {e.player: e.text for e in of(events, Notice)}


def text(t: PureTable, events, who: str = "ann", prefs: Prefs | None = None) -> str:
    viewer = Viewer(who, prefs or Prefs(), seated=who in t.seated())
    return "\n".join(line for e in events for line in t.render(e, viewer))

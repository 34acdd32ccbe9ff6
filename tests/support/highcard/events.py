"""High card's facts (what people are told) and the snapshot its view reads."""
from __future__ import annotations

from dataclasses import dataclass

from server.games.events import GameFact


@dataclass(frozen=True)
class Wager:
    handle: str          # the key of its Hold
    player: str
    amount: int


@dataclass(frozen=True)
class BetsShown(GameFact):
    """Show `player` their bet on the table."""

    player: str


@dataclass(frozen=True)
class Dealt(GameFact):
    """One deal: each bettor's card and the house's, and what each won (net)."""

    deal: int
    cards: tuple[tuple[str, int], ...]
    house: int
    net: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Snapshot:
    """The table as the view reads it, handed out by the dealer."""

    table: str
    min_bet: int
    max_bet: int
    ties: str
    bets: tuple[Wager, ...]
    last: Dealt | None

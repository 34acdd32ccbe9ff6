"""The life of a wager, the same at every table that takes wagers.

Accepted (once its Hold is written), refused, taken down, refused a
take-down, or cancelled because the ledger would not hold the stake: bank
craps and roulette report these with their own Wager type (handle, player,
bet, name), so the facts are written once, here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from server.games.events import GameFact


class Wager(Protocol):
    """What every game's wager has: its stake's handle (the key of its Hold),
    its player and its name as players read it ("pass 10")."""

    @property
    def handle(self) -> str: ...
    @property
    def player(self) -> str: ...
    @property
    def name(self) -> str: ...


W = TypeVar("W", bound=Wager, covariant=True)


@dataclass(frozen=True)
class BetAccepted(GameFact, Generic[W]):
    wager: W
    note: str | None = None   # cents returned: "0.36 returned, your wager is 10"


@dataclass(frozen=True)
class BetRefused(GameFact):
    player: str
    reason: str


@dataclass(frozen=True)
class BetRemoved(GameFact, Generic[W]):
    """Taken down (`unbet`, or with its base); the stake's Refund comes first."""

    wager: W


@dataclass(frozen=True)
class UnbetRefused(GameFact):
    player: str
    reason: str


@dataclass(frozen=True)
class BetCancelled(GameFact, Generic[W]):
    """The ledger would not hold the stake: the wager never was (no money moves)."""

    wager: W
    reason: str = ""          # why, in the player's words ("your wallet has 990 chips")

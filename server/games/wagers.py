"""The life of a wager, the same at every table that takes wagers.

Accepted (once its Hold is written), refused, taken down, refused a
take-down, or cancelled because the ledger would not hold the stake: bank
craps and roulette report these with their own Wager type (handle, player,
bet, name), so the facts are written once, here.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class BetAccepted:
    wager: Any
    note: str | None = None   # cents returned: "0.36 returned, your wager is 10"


@dataclass(frozen=True)
class BetRefused:
    player: str
    reason: str


@dataclass(frozen=True)
class BetRemoved:
    """Taken down (`unbet`, or with its base); the stake's Refund comes first."""

    wager: Any


@dataclass(frozen=True)
class UnbetRefused:
    player: str
    reason: str


@dataclass(frozen=True)
class BetCancelled:
    """The ledger would not hold the stake: the wager never was (no money moves)."""

    wager: Any
    reason: str = ""          # why, in the player's words ("your wallet has 990 chips")

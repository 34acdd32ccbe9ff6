"""What the bank craps view may read of its table: one frozen snapshot.

The dealer builds it (BankCrapsDealer.snapshot) and hands it with each fact
to the view (view.py), so the view never sees the dealer, its rules state or
its clock, and dealer.py and view.py need not know each other. Every field
is an immutable value or a reference to one; the dealer keeps the snapshot
until its next input, so a roll rendered for every viewer builds it once.

It is the same for every viewer: what differs between viewers (their prefs,
their name, so their own wagers) comes with the Viewer, which keeps the
table's rule for watchers (seam.Dealer) true.
"""
from __future__ import annotations

from dataclasses import dataclass

from .events import Wager
from .options import CrapsOptions
from .outcome import TableView
from .variants import BANK, Variant


@dataclass(frozen=True)
class Seated:
    player: str
    sitting_out: bool


@dataclass(frozen=True)
class CrapsSnapshot:
    table_id: str
    min_bet: int
    max_bet: int
    options: CrapsOptions
    hand: TableView                         # the puck, the trackers and the hand's rolls
    wagers: tuple[Wager, ...]               # every live wager, in placement order
    handles: frozenset[str]                 # their stake handles
    seats: tuple[Seated, ...]               # in seat order (the shooter queue)
    shooter: str | None
    last_dice: tuple[int, ...] | None       # two dice (or cards), or one die
    stage: str                              # the clock's stage: solo, window or shooter
    seconds_left: int | None                # on the running clock; None when untimed
    commands: str                           # the "Commands:" line, made from the actions table
    variant: Variant = BANK                 # what this table plays (variants.py)

    @property
    def point(self) -> int:
        """The puck: 0 (OFF) or the point."""
        return self.hand.point

    def bets_of(self, player: str) -> tuple[Wager, ...]:
        """The player's live wagers in placement order (`bets` numbers them from 1)."""
        return tuple(w for w in self.wagers if w.player == player)

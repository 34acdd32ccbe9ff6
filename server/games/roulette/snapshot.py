"""A roulette table as the view reads it: a frozen snapshot the dealer builds.

The view (view.py) never sees the dealer: each render, `table`, `table
rules` and GMCP Casino.Table call is handed a TableSnapshot of plain,
immutable values (tuples, frozensets, the frozen options), built by the
dealer for that one call. It is cheap to build (a tuple of the live wagers
and a few numbers), so nothing is cached and nothing can go stale.
"""
from __future__ import annotations

from dataclasses import dataclass

from .events import Wager
from .options import RouletteOptions
from .rounds import Phase


@dataclass(frozen=True)
class TableSnapshot:
    """What a roulette table shows, as it stands when the snapshot is taken."""

    table_id: str
    min_bet: int                        # the table's wager limits (its config)
    max_bet: int
    options: RouletteOptions            # the wheel's options (la partage, timing)
    phase: Phase
    seconds_left: int | None            # until no more bets (BETTING) or the ball drops (SPINNING)
    spins: int                          # spins completed; the next is spins + 1
    history: tuple[int, ...]            # the last pockets, newest first
    wagers: tuple[Wager, ...]           # every live wager, in placement order
    held: frozenset[str]                # handles of the wagers whose stake the ledger holds
    away: frozenset[str]                # players who left with bets riding
    seated: tuple[str, ...]             # the seated players' names, in seat order
    commitment: str | None              # the next spin's fair commitment, where the source has one
    commands: str                       # the "Commands:" line, made from the actions table

    def bets_of(self, player: str) -> tuple[Wager, ...]:
        """The player's live wagers in placement order; `unbet <n>` counts them from 1."""
        return tuple(w for w in self.wagers if w.player == player)

    def on_layout(self, handle: str) -> bool:
        """The wager is on the layout (not cancelled by a refused hold, not yet settled)."""
        return handle in self.held

"""When the dice may, must or will roll at a multiplayer craps table.

Pure counters of manager ticks (docs/play-craps.md "Rolling"): a betting window
before each roll with a last call near its end, then a deadline for the
shooter after which the dealer rolls, and autoroll's cadence. Nothing counts
while no bet is live. Solo play has no window and no deadline. A `roll` the
shooter types inside the window is kept by the dealer and thrown when the
window closes (issue 38 item 6), so the window only says whether it is open.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass


class Stage(enum.Enum):
    SOLO = "solo"           # one active player: roll whenever
    WINDOW = "window"       # bets open, the shooter waits
    SHOOTER = "shooter"     # the window closed: the shooter's deadline runs


class Signal(enum.Enum):
    LAST_CALL = "last call"
    WINDOW_CLOSED = "window closed"
    DEALER_ROLL = "dealer roll"
    AUTOROLL = "autoroll"


@dataclass
class Pacing:
    window: int             # ticks of betting before each multiplayer roll
    last_call: int          # ticks left in the window when the last call sounds
    shooter: int            # ticks the shooter has once the window closes
    autoroll: int           # ticks between autorolls
    stage: Stage = Stage.SOLO
    left: int = 0
    called: bool = False
    announced: bool = False         # this window's opening has been said to the table
    since_roll: int = 0

    def restart(self, multiplayer: bool) -> None:
        """A fresh cycle: after a roll, or when the table goes solo or multiplayer."""
        self.since_roll = 0
        self.called = self.announced = False
        if multiplayer:
            self.stage, self.left = Stage.WINDOW, self.window
        else:
            self.stage, self.left = Stage.SOLO, 0

    def seconds_left(self, tick_hz: int) -> int:
        return -(-self.left // tick_hz)

    def in_window(self) -> bool:
        """Bets are open and the shooter waits: a `roll` now is kept for the window's close."""
        return self.stage is Stage.WINDOW

    def tick(self, live: bool, autoroll: bool) -> list[Signal]:
        """One tick. `live`: any bet on the table; `autoroll`: the shooter's
        autoroll is on and they have live bets."""
        if not live:
            return []                       # the table pauses
        out: list[Signal] = []
        self.since_roll += 1
        if self.stage is Stage.WINDOW:
            self.left -= 1
            if not self.called and self.left <= self.last_call:
                self.called = True
                out.append(Signal.LAST_CALL)
            if self.left <= 0:
                self.stage, self.left = Stage.SHOOTER, self.shooter
                out.append(Signal.WINDOW_CLOSED)
                return out
        elif self.stage is Stage.SHOOTER:
            self.left -= 1
            if self.left <= 0:
                return out + [Signal.DEALER_ROLL]
        if autoroll and self.stage is not Stage.WINDOW and self.since_roll >= self.autoroll:
            out.append(Signal.AUTOROLL)
        return out

"""Facts the roulette wheel reports, for render and the table.

Facts say what happened, never how to show it. Money moves only through the
intents of server.games.intents (Hold, Settle, Refund) that travel in the
same lists, always before the facts that rely on them being written.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from server.games.events import GameFact
from server.games.wagers import BetAccepted as BetAccepted
from server.games.wagers import BetCancelled as BetCancelled
from server.games.wagers import BetRefused as BetRefused
from server.games.wagers import BetRemoved as BetRemoved
from server.games.wagers import UnbetRefused as UnbetRefused

from server.games.intents import MoneyIntent

from .bets import Bet
from .layout import Colour


@dataclass(frozen=True)
class Wager:
    """A bet on the layout: its stake handle (the Hold key), owner, bet and name."""

    handle: str
    player: str
    bet: Bet
    name: str                  # canonical form: `split 17 20`, `red`; `unbet <name>` matches it


@dataclass(frozen=True)
class SpinRefused(GameFact):
    player: str
    reason: str


@dataclass(frozen=True)
class BetsOpen(GameFact):
    """A betting window started (someone has a bet and others are at the wheel)."""

    spin: int                  # the number of the spin this window leads to
    seconds: float


@dataclass(frozen=True)
class LastCall(GameFact):
    spin: int
    seconds: float             # seconds left in the window


@dataclass(frozen=True)
class NoMoreBets(GameFact):
    """The ball is spinning: no bets and no removals until it drops."""

    spin: int
    seconds: float             # until the ball drops


@dataclass(frozen=True)
class BallDropped(GameFact):
    """The number, called: `call` is "17 black, odd, low, second dozen, second column"."""

    spin: int
    pocket: int
    colour: Colour
    call: str


class Outcome(enum.StrEnum):
    WON = "won"
    LOST = "lost"
    HALF = "half"              # la partage: an even-money bet lost half on zero


@dataclass(frozen=True)
class Line:
    """One wager's result in a settlement: `returned` chips went back to the wallet."""

    wager: Wager
    outcome: Outcome
    returned: int

    @property
    def net(self) -> int:
        return self.returned - self.wager.bet.amount


@dataclass(frozen=True)
class Settlement(GameFact):
    """One player's whole spin, consolidated (after the spin's single Settle).

    `away`: the player had left or disconnected; their bets rode and were
    paid to the wallet, and the table tells them at their next login.
    """

    spin: int
    player: str
    pocket: int
    won: tuple[Line, ...]
    lost: tuple[Line, ...]     # la partage halves are here, with returned > 0
    staked: int
    paid: int                  # chips back to the wallet this spin
    away: bool = False

    @property
    def net(self) -> int:
        return self.paid - self.staked


@dataclass(frozen=True)
class BetsRide(GameFact):
    """A player left or disconnected with bets down: they stay for the next spin."""

    player: str
    wagers: tuple[Wager, ...]
    disconnected: bool


@dataclass(frozen=True)
class BetsSummary(GameFact):
    """Show a player their numbered live wagers (as they stand when shown)."""

    player: str


@dataclass(frozen=True)
class WheelClosed(GameFact):
    """Shutdown or eviction: every bet not yet spun was refunded (Refunds come first)."""

    reason: str
    refunded: tuple[Wager, ...]


Fact = (BetAccepted[Wager] | BetRefused | BetRemoved[Wager] | UnbetRefused | BetCancelled[Wager] | SpinRefused | BetsOpen
        | LastCall | NoMoreBets | BallDropped | Settlement | BetsRide | BetsSummary | WheelClosed)
Event = Fact | MoneyIntent

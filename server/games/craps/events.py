"""Facts the bank craps table reports, for render and the table: the
rules state's (a wager placed, a roll, a point) and the dealer's (who has the
dice, the betting window, each player's settlement).

Facts say what happened, never how to show it. Money moves only through the
intents of server.games.intents that come in the same list.
"""
from __future__ import annotations

from dataclasses import dataclass

from server.games.events import GameFact
from server.games.wagers import BetAccepted as BetAccepted
from server.games.wagers import BetCancelled as BetCancelled
from server.games.wagers import BetRefused as BetRefused
from server.games.wagers import BetRemoved as BetRemoved
from server.games.wagers import UnbetRefused as UnbetRefused

from .bets import Bet


@dataclass(frozen=True)
class Wager:
    """A live wager: its stake handle (the Hold key), owner, bet and, for odds, its base."""

    handle: str
    player: str
    bet: Bet
    name: str                 # what `unbet` and the summary call it: pass, come6, oddscome6
    base: str | None = None   # odds: the handle of the line bet they back


@dataclass(frozen=True)
class Rolled(GameFact):
    dice: tuple[int, ...]     # two dice (or cards); Die Rich's one die
    total: int
    point: int                # the point before the roll (0: come-out)
    hand_roll: int            # 1 for the first roll of a shooter hand


@dataclass(frozen=True)
class PointSet(GameFact):
    number: int


@dataclass(frozen=True)
class PointMade(GameFact):
    number: int
    fire: tuple[int, ...]     # distinct points made this hand, after this one


@dataclass(frozen=True)
class SevenOut(GameFact):
    point: int                # the shooter hand ends; the next one starts fresh


@dataclass(frozen=True)
class ComeOutSeven(GameFact):
    """A seven on the come-out: line bets decide, Small/Tall/All reset, the hand goes on."""


@dataclass(frozen=True)
class HandWon(GameFact):
    """High Point and Die Rich: the shooter's line bet wins on this roll; the
    shooter keeps the dice and a new come-out follows. `pays` is the line
    bet's odds to 1; `roll` is the roll of the hand it won on (1: the come-out)."""

    point: int                # 0: won on the come-out
    roll: int
    pays: int


@dataclass(frozen=True)
class HandLost(GameFact):
    """High Point and Die Rich: the shooter's line bet loses on this roll; the
    hand is over and the dice pass to the next shooter."""

    point: int                # 0: lost on the come-out
    roll: int


@dataclass(frozen=True)
class BetWon(GameFact):
    wager: Wager
    amount: int               # won on top of the returned stake, after commission
    commission: int = 0


@dataclass(frozen=True)
class BetLost(GameFact):
    wager: Wager


@dataclass(frozen=True)
class BetPushed(GameFact):
    """The stake comes back: bar 12, or come odds that were off on the come-out."""

    wager: Wager


@dataclass(frozen=True)
class Travelled(GameFact):
    """A come/don't come (or line) bet moved to its number."""

    wager: Wager
    number: int


# --- the dealer's facts: seats, the dice and the clock ------------------------
@dataclass(frozen=True)
class ShooterUp(GameFact):
    player: str
    dealer: bool = False            # the dealer took the dice (nobody can shoot)


@dataclass(frozen=True)
class Throw(GameFact):
    """Who threw the dice that the next Rolled shows."""

    shooter: str | None
    dealer: bool


@dataclass(frozen=True)
class WindowOpened(GameFact):
    """A betting window starts counting (bets are down at a table of two or
    more): said once per window, so the table hears it open, not only its
    last call; `seconds` of betting, then `shooter` rolls (or their autoroll)."""

    shooter: str
    seconds: int
    autoroll: bool = False


@dataclass(frozen=True)
class WindowClosed(GameFact):
    """The betting window is over: the shooter may roll (bets stay open until
    the dice fly); `seconds` until the dealer rolls, or autoroll throws next."""

    shooter: str
    seconds: int
    autoroll: bool = False


@dataclass(frozen=True)
class LastCall(GameFact):
    seconds: int


@dataclass(frozen=True)
class BetsSummary(GameFact):
    """Show a player their numbered live wagers (as they stand when shown);
    `after` is the wager just placed: no summary if its hold was refused."""

    player: str
    after: str | None = None


@dataclass(frozen=True)
class RollSettlement(GameFact):
    """One player's consolidated result of a roll."""

    player: str
    won: tuple[tuple[str, int], ...]       # (bet name, win over the stake)
    lost: tuple[tuple[str, int], ...]      # (bet name, stake lost)
    pushed: tuple[tuple[str, int], ...]    # (bet name, stake returned)
    commission: int
    # Won number bets a casino usually leaves up (place, buy, lay, hard): here
    # every decided wager comes down, so the line says so and how to re-bet.
    # (the bet that came down, its win)
    down: tuple[tuple[Bet, int], ...] = ()

    @property
    def net(self) -> int:
        return sum(a for _, a in self.won) - sum(a for _, a in self.lost)


@dataclass(frozen=True)
class Charged(GameFact):
    """New York: the 5% charge on a buy or lay, paid to the house when the bet
    was made (its own Hold, settled to the house at once); never returned."""

    wager: Wager
    charge: int


Fact = (BetAccepted[Wager] | BetRefused | BetRemoved[Wager] | UnbetRefused | BetCancelled[Wager] | Rolled | PointSet
        | PointMade | SevenOut | ComeOutSeven | HandWon | HandLost | BetWon | BetLost | BetPushed | Travelled | Charged)


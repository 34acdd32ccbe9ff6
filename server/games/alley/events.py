"""Alley craps' commands and events.

Commands are the frozen dataclasses a table builds from what a player typed:
`bet 60` -> Bet(60), `fade 20` -> Fade(20), `fade` or `fade 0` -> Fade(0)
(decline), `roll` -> Roll(), `pass` -> PassDice().

Events are facts for people (numbers, never text; the renderer words them)
and travel with the money intents of server.games.intents.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from server.games.events import GameFact
from server.games.intents import MoneyIntent
from server.dice.source import Dice
from server.games.alley.rules import Decision


# ---- commands -------------------------------------------------------------------
@dataclass(frozen=True)
class Bet:
    """The shooter sets the action."""

    amount: int


@dataclass(frozen=True)
class Fade:
    """An opponent takes `amount` of the action; 0 declines."""

    amount: int = 0


@dataclass(frozen=True)
class Roll:
    """Roll the dice, or after a pass: shoot another pass."""


@dataclass(frozen=True)
class PassDice:
    """After a pass: pass the bones to the next player."""


Action = Bet | Fade | Roll | PassDice


# ---- facts ----------------------------------------------------------------------
class Waiting(Enum):
    """What a timed-out window was waiting for."""

    BET = "bet"          # the shooter's action: the bones pass
    FADE = "fade"        # an opponent's fade: they sit this pass out
    ROLL = "roll"        # the shooter's roll: the dealer rolls for them
    CHOICE = "choice"    # roll again or pass: the bones pass


class PassReason(Enum):
    CHOSE = "chose"              # the shooter typed `pass`
    TIMEOUT = "timeout"
    CLEANED_OUT = "cleaned_out"
    LEFT = "left"


class GameEnd(Enum):
    CLEANED_HOUSE = "cleaned_house"   # one player won all the money
    LAST_STANDING = "last_standing"   # the others left; one player with money remains
    NOBODY_LEFT = "nobody_left"       # every player with money left
    CANCELLED = "cancelled"           # a buy-in failed before any pass was decided


@dataclass(frozen=True)
class GameStarted(GameFact):
    players: tuple[str, ...]     # seat order
    buy_in: int
    total: int                   # all the money in the game


@dataclass(frozen=True)
class ShooterUp(GameFact):
    """`Bill, you are the shooter! You have $100 ...`: waiting for `bet`."""

    shooter: str
    bankroll: int
    minimum: int
    maximum: int


@dataclass(frozen=True)
class ActionSet(GameFact):
    shooter: str
    amount: int


@dataclass(frozen=True)
class FadeAsked(GameFact):
    """`Tony, Bill has bet $100. How much of the $100 action do you want?`"""

    player: str
    shooter: str
    action: int
    uncovered: int
    minimum: int
    maximum: int


@dataclass(frozen=True)
class Faded(GameFact):
    player: str
    amount: int
    covered: int         # of the action, after this fade
    uncovered: int


@dataclass(frozen=True)
class FadeDeclined(GameFact):
    player: str


@dataclass(frozen=True)
class ActionCovered(GameFact):
    """"The action is covered, NO MORE BETS": later opponents are not asked."""

    shooter: str
    action: int


@dataclass(frozen=True)
class ActionPartlyCovered(GameFact):
    """Everyone was asked; only `covered` of the action is at risk."""

    shooter: str
    action: int
    covered: int


@dataclass(frozen=True)
class NoAction(GameFact):
    """Nobody faded: the action is returned; the shooter may roll again or pass."""

    shooter: str
    action: int


@dataclass(frozen=True)
class PassCalledOff(GameFact):
    """The shooter left (or was dropped) before the dice flew: nothing was at risk."""

    shooter: str


@dataclass(frozen=True)
class RollAsked(GameFact):
    """Waiting for the shooter's `roll` (`point` None on the come-out)."""

    shooter: str
    point: int | None


@dataclass(frozen=True)
class Rolled(GameFact):
    shooter: str
    dice: Dice
    total: int
    point: int | None            # the point before this roll; None on the come-out
    decision: Decision
    by_dealer: bool              # the dealer rolled (timeout, or the shooter left)


@dataclass(frozen=True)
class PassResolved(GameFact):
    """Who won the pass; `results` is each player's change in bankroll."""

    shooter: str
    shooter_won: bool
    decision: Decision
    covered: int
    results: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Balances(GameFact):
    """Every bankroll at the table, shown to everyone after each pass."""

    bankrolls: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class CleanedOut(GameFact):
    player: str


@dataclass(frozen=True)
class ChoiceAsked(GameFact):
    """The shooter may `roll` (another pass) or `pass` the bones."""

    shooter: str


@dataclass(frozen=True)
class BonesPassed(GameFact):
    from_shooter: str
    to_shooter: str
    reason: PassReason


@dataclass(frozen=True)
class TimedOut(GameFact):
    player: str
    waiting: Waiting


@dataclass(frozen=True)
class PlayerLeft(GameFact):
    """`at_risk` chips stay in the pass in play; the player is paid when it ends."""

    player: str
    at_risk: int


@dataclass(frozen=True)
class PaidOut(GameFact):
    """A player who left got their table bankroll back in their wallet."""

    player: str
    amount: int


@dataclass(frozen=True)
class BuyInRefused(GameFact):
    """The ledger refused this player's buy-in (or re-hold): they are out."""

    player: str


@dataclass(frozen=True)
class GameOver(GameFact):
    """`Congratulations, Bill! You have won the total pot of $200!`"""

    winner: str | None
    pot: int             # the winner's final bankroll, paid to their wallet
    net: int             # pot minus the winner's buy-in
    reason: GameEnd


@dataclass(frozen=True)
class GameClosed(GameFact):
    """Shutdown: every player got their bankroll back; a pass in play was called off."""

    reason: str
    bankrolls: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class Refused(GameFact):
    player: str
    reason: str


Fact = (GameStarted | ShooterUp | ActionSet | FadeAsked | Faded | FadeDeclined
        | ActionCovered | ActionPartlyCovered | NoAction | PassCalledOff | RollAsked
        | Rolled | PassResolved | Balances | CleanedOut | ChoiceAsked | BonesPassed
        | TimedOut | PlayerLeft | PaidOut | BuyInRefused | GameOver | GameClosed | Refused)

# What AlleyGame hands the table: its facts and the money intents, in order (a
# narrower kind of server.games.events.Event).
Event = Fact | MoneyIntent

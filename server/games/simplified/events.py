"""What goes into and comes out of the simplified craps engine.

Commands are a player's words (amounts still as typed, so the engine gives
the one-line reasons). Facts are for people; render turns them into text. The
money intents the engine emits alongside them are server.games.intents.
"""
from __future__ import annotations

from dataclasses import dataclass

from server.games.events import GameFact
from server.dice.source import Dice
from server.games.intents import MoneyIntent
from server.games.simplified.rules import Outcome, Side


# --- commands -----------------------------------------------------------------
@dataclass(frozen=True)
class Bet:
    side: Side
    amount: str


@dataclass(frozen=True)
class Roll:
    pass


@dataclass(frozen=True)
class Press:
    pass


@dataclass(frozen=True)
class Odds:
    amount: str


@dataclass(frozen=True)
class Ride:
    pass


@dataclass(frozen=True)
class Collect:
    pass


Command = Bet | Roll | Press | Odds | Ride | Collect
"""A player's command as the engine takes it (commands.py parses the words into one)."""


# --- facts -------------------------------------------------------------------
@dataclass(frozen=True)
class Refused(GameFact):
    """A command changed nothing; `reason` is one line."""

    reason: str


@dataclass(frozen=True)
class BetPlaced(GameFact):
    """A flat bet is on the table. `returned` is typed cents handed back
    ("0.36"), with `note` the sentence to show ("0.36 returned, your wager is 10")."""

    side: Side
    amount: int
    ride: bool = False
    returned: str = ""
    note: str = ""


@dataclass(frozen=True)
class Rolled(GameFact):
    """The dice. `point` is the point the roll was made against (None on a come-out)."""

    dice: Dice
    total: int
    point: int | None


@dataclass(frozen=True)
class PointSet(GameFact):
    """The come-out set the point; `can_press` says whether to offer `press` now."""

    point: int
    can_press: bool


@dataclass(frozen=True)
class RollAgain(GameFact):
    """No decision: the point stands and the player rolls again."""

    point: int


@dataclass(frozen=True)
class Pressed(GameFact):
    """The flat bet was doubled to `flat`."""

    flat: int


@dataclass(frozen=True)
class OddsPlaced(GameFact):
    """Odds of `amount` behind the flat bet, winning `wins` if the bet wins."""

    side: Side
    point: int
    amount: int
    wins: int
    returned: str = ""
    note: str = ""


@dataclass(frozen=True)
class GameOver(GameFact):
    """One game's result. `net` is won (+) or lost (-) over the whole game;
    `paid` went back to the wallet (stakes plus winnings; 0 on a loss).
    `how`: "natural", "craps", "bar", "point made" or "seven out".
    `ride` is what `ride` would bet next (0 when riding is not possible)."""

    side: Side
    outcome: Outcome
    how: str
    total: int
    flat: int
    odds: int
    flat_win: int
    odds_win: int
    net: int
    paid: int
    ride: int


@dataclass(frozen=True)
class Collected(GameFact):
    """After a win the player picked up the chips (they were paid already)."""

    amount: int


@dataclass(frozen=True)
class HoldCancelled(GameFact):
    """The ledger refused the hold for a wager; the wager is off again."""

    what: str          # "bet", "press" or "odds"
    amount: int


@dataclass(frozen=True)
class Closed(GameFact):
    """The table closed under the player: live stakes refunded or forfeited."""

    refunded: int
    forfeited: int


@dataclass(frozen=True)
class Practice(GameFact):
    """A classic-dice table's practice bankroll, shown like a wallet (never the ledger's)."""

    bankroll: int


Fact = (Refused | BetPlaced | Rolled | PointSet | RollAgain | Pressed | OddsPlaced
        | GameOver | Collected | HoldCancelled | Closed | Practice)
EngineEvent = Fact | MoneyIntent
"""What the engine answers with: facts for people and money intents, in order."""

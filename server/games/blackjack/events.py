"""Facts a blackjack table reports, for render and the table.

Facts say what happened, never how to show it. Money moves only through
the intents of server.games.intents (Hold, Settle, Refund) that travel in
the same lists, always before the facts that rely on them being written.
Cards travel as Card values and hands as frozen HandView copies, so a view
never reads the engine's live state.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from server.games.events import GameFact
from server.games.intents import MoneyIntent
from server.games.wagers import BetRefused as BetRefused

from .cards import Card
from .hands import Hand, said


@dataclass(frozen=True)
class HandView:
    """One hand as it stands when a fact or a snapshot is made."""

    cards: tuple[Card, ...]
    bet: int
    split: bool = False
    doubled: bool = False
    surrendered: bool = False
    done: bool = False

    @classmethod
    def of(cls, hand: Hand) -> HandView:
        return cls(tuple(hand.cards), hand.bet, hand.split, hand.doubled, hand.surrendered, hand.done)

    @property
    def said(self) -> str:
        return said(self.cards, self.split)

    @property
    def staked(self) -> int:
        return self.bet * 2 if self.doubled else self.bet


@dataclass(frozen=True)
class BetPlaced(GameFact):
    player: str
    handle: str
    amount: int
    note: str | None = None            # cents returned: "0.50 returned, your wager is 10"


@dataclass(frozen=True)
class BetCancelled(GameFact):
    """The ledger would not hold a stake: that bet, double, split or insurance never was."""

    player: str
    handle: str
    what: str                          # "bet", "double", "split", "insurance"
    reason: str


@dataclass(frozen=True)
class BetReturned(GameFact):
    """A bet not yet dealt went back (the player left, or the table closed); its Refund came first."""

    player: str
    amount: int
    why: str


@dataclass(frozen=True)
class BetsOpen(GameFact):
    round: int
    seconds: float


@dataclass(frozen=True)
class LastCall(GameFact):
    round: int
    seconds: float


@dataclass(frozen=True)
class Shuffled(GameFact):
    """A new shoe: `decks` decks, shuffled from the committed seed; the cut card after `cut` cards."""

    shoe: int
    decks: int
    cut: int
    commitment: str | None


@dataclass(frozen=True)
class Dealt(GameFact):
    """The deal: every player's two cards face up, the dealer's up card (the hole card stays down)."""

    round: int
    hands: tuple[tuple[str, HandView], ...]
    up: Card


@dataclass(frozen=True)
class InsuranceOffered(GameFact):
    round: int
    players: tuple[str, ...]
    seconds: float | None              # None: no clock (a player alone)


@dataclass(frozen=True)
class Insured(GameFact):
    player: str
    amount: int                        # 0: declined
    even_money: bool                   # insured a blackjack for half: even money
    handle: str = ""                   # the insurance's stake ("" when declined)


@dataclass(frozen=True)
class Peeked(GameFact):
    """The dealer looked under an ace or a ten: `blackjack` ends the round at once."""

    up: Card
    blackjack: bool


class Did(enum.StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"
    TIMEOUT = "timeout"                # the decision clock ran out: the hand stands
    AWAY = "away"                      # the player left or dropped: their hands stand
    BLACKJACK = "blackjack"            # dealt a blackjack: nothing to decide


@dataclass(frozen=True)
class Played(GameFact):
    """A decision on one hand (numbered from 1), and the hand after it."""

    player: str
    hand: int
    did: Did
    after: HandView
    other: HandView | None = None      # a split's second hand


@dataclass(frozen=True)
class Turn(GameFact):
    """Whose decision it is: `moves` are open to the hand; `seconds` on the clock (None: no clock)."""

    player: str
    hand: int
    of: int                            # hands the player has
    now: HandView
    up: Card
    moves: tuple[str, ...]
    seconds: float | None


@dataclass(frozen=True)
class DealerPlayed(GameFact):
    """The hole card turned up and the dealer's draws (none if no hand was live)."""

    cards: tuple[Card, ...]
    drew: bool


class Outcome(enum.StrEnum):
    BLACKJACK = "blackjack"
    WON = "won"
    PUSH = "push"
    LOST = "lost"
    BUST = "bust"
    SURRENDERED = "surrendered"


@dataclass(frozen=True)
class HandLine:
    """One hand's result: `returned` chips of `hand.staked` went back."""

    hand: HandView
    outcome: Outcome
    returned: int

    @property
    def net(self) -> int:
        return self.returned - self.hand.staked


@dataclass(frozen=True)
class Settlement(GameFact):
    """One player's whole round, after the round's single Settle: a line a hand, and insurance."""

    round: int
    player: str
    lines: tuple[HandLine, ...]
    insurance: int                     # chips insured (0: none)
    insurance_back: int                # what the insurance returned (3 for 1 on a dealer blackjack)
    dealer: tuple[Card, ...]
    staked: int
    paid: int
    away: bool = False                 # they had left or dropped: told at their next login

    @property
    def net(self) -> int:
        return self.paid - self.staked


@dataclass(frozen=True)
class ShoeRetired(GameFact):
    """The cut card came out: the shoe's seed is revealed and the next round has a new shoe."""

    shoe: int
    dealt: int


@dataclass(frozen=True)
class TableClosed(GameFact):
    """Shutdown or removal: every stake of a round not yet settled was refunded (Refunds first)."""

    reason: str
    refunded: tuple[tuple[str, int], ...]          # player, chips


Event = GameFact | MoneyIntent

"""A blackjack table as the view reads it: a frozen snapshot the dealer builds.

Every render, `table`, `table rules` and GMCP Casino.Table call is handed a
TableSnapshot of plain immutable values (HandView copies, tuples, the
frozen options), built for that one call, so a view never sees the dealer.
"""
from __future__ import annotations

from dataclasses import dataclass

from .cards import Card
from .events import HandView
from .options import BlackjackOptions
from .rounds import Phase


@dataclass(frozen=True)
class TableSnapshot:
    table_id: str
    options: BlackjackOptions
    phase: Phase
    seconds_left: int | None                     # on the window or the decision clock
    round: int                                   # the round in play, or the next one to be dealt
    bets: tuple[tuple[str, int], ...]            # bets down for the next deal: player, chips
    hands: tuple[tuple[str, tuple[HandView, ...]], ...]      # the round's hands, seat order
    insured: tuple[tuple[str, int], ...]
    dealer: tuple[Card, ...]                     # the dealer's cards (the hole card among them)
    hole_shown: bool                             # the dealer has played: the hole card is face up
    turn: tuple[str, int] | None                 # player, hand number from 1
    seated: tuple[str, ...]
    away: frozenset[str]
    cancelled: frozenset[str]                    # handles of stakes the ledger refused
    shoe: int                                    # shoes shuffled so far (0: none yet)
    dealt: int                                   # cards out of the shoe in play
    size: int                                    # cards in a shoe
    cut: int                                     # the cut card comes out after this many
    commitment: str | None
    commands: str                                # the "Commands:" line, from the actions table
    moves: tuple[str, ...] = ()                  # open to the hand whose turn it is

    def hands_of(self, player: str) -> tuple[HandView, ...]:
        for p, hands in self.hands:
            if p == player:
                return hands
        return ()

    def dealer_shown(self) -> tuple[Card | None, ...]:
        """The dealer's cards as the table sees them: the hole card down until the dealer plays."""
        if self.hole_shown or len(self.dealer) < 2:
            return self.dealer
        return (self.dealer[0], None, *self.dealer[2:])

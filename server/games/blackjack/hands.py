"""A hand: its cards, its stake, what was done to it, and what it totals.

An ace counts 11 where that does not bust the hand, else 1; a hand with an
ace counted 11 is "soft" ("soft 17"). A blackjack is an ace and a ten-value
card as a hand's first two cards, never after a split (docs/play-blackjack.md).
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .cards import Card
from .options import BlackjackOptions


def total(cards: Sequence[Card]) -> tuple[int, bool]:
    """(best total, soft): the total counting one ace as 11 where it fits."""
    hard = sum(c.value for c in cards)
    if hard <= 11 and any(c.ace for c in cards):
        return hard + 10, True
    return hard, False


def said(cards: Sequence[Card], split: bool = False) -> str:
    """A total as players read it: "soft 17", "20", "blackjack", "bust (23)"."""
    n, soft = total(cards)
    if len(cards) == 2 and n == 21 and not split:
        return "blackjack"
    if n > 21:
        return f"bust ({n})"
    return f"soft {n}" if soft else str(n)


@dataclass
class Hand:
    """One of a player's hands this round. `stakes` are the keys of the holds
    behind it (the bet, then a double or the split's matching bet)."""

    cards: list[Card]
    bet: int                              # the original bet on this hand
    stakes: list[str] = field(default_factory=list)
    split: bool = False                   # made by a split: never a blackjack
    split_aces: bool = False              # one card each, no more decisions (bar a resplit)
    doubled: bool = False
    surrendered: bool = False
    done: bool = False                    # stood, busted, doubled, surrendered, or 21

    @property
    def total(self) -> int:
        return total(self.cards)[0]

    @property
    def soft(self) -> bool:
        return total(self.cards)[1]

    @property
    def blackjack(self) -> bool:
        return not self.split and len(self.cards) == 2 and self.total == 21

    @property
    def bust(self) -> bool:
        return self.total > 21

    @property
    def staked(self) -> int:
        """Chips riding on the hand: the bet, twice over once doubled."""
        return self.bet * 2 if self.doubled else self.bet

    @property
    def pair(self) -> bool:
        return len(self.cards) == 2 and self.cards[0].rank == self.cards[1].rank

    @property
    def live(self) -> bool:
        """Still against the dealer's hand (the dealer draws only for such hands)."""
        return not (self.bust or self.surrendered or self.blackjack)

    @property
    def said(self) -> str:
        return said(self.cards, self.split)


def split(hands: list[Hand], i: int, card: Callable[[], Card], options: BlackjackOptions) -> Hand:
    """Split hands[i] in two (its last stake is the new hand's), a card to each:
    the new hand follows it. Split aces are done with one card each, unless
    they pair again where the table resplits aces and has room for a hand more."""
    hand = hands[i]
    aces = hand.cards[0].ace
    other = Hand([hand.cards.pop()], hand.bet, [hand.stakes.pop()], split=True, split_aces=aces)
    hand.split, hand.split_aces = True, aces
    hands.insert(i + 1, other)
    for h in (hand, other):
        h.cards.append(card())
        more = h.pair and options.resplit_aces and len(hands) < options.max_hands
        h.done = h.total >= 21 or (aces and not more)
    return other

"""Settling one round: a single Settle for the whole round, one Settlement per player.

Every stake of the round (bets, doubles, splits, insurance) is closed by one
Settle whose pays are summed per player, so the ledger writes one durable
transaction and `stats` counts one round per player however many hands a
split made. Each player then gets one Settlement with a line per hand.

What a hand returns (docs/play-blackjack.md): a surrender half its bet; a bust nothing,
whatever the dealer does; a blackjack its bet plus `pays` times it, or its
bet back against a dealer blackjack; against a dealer blackjack any other
hand loses; otherwise twice its stake on a win, its stake on a push.
Insurance returns three times itself on a dealer blackjack, else nothing.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from fractions import Fraction

from server.games.intents import Settle

from .cards import Card
from .events import Event, HandLine, HandView, Outcome, Settlement
from .hands import Hand, total


def hand_line(hand: Hand, dealer: Sequence[Card], pays: Fraction) -> HandLine:
    """One hand's outcome and the chips it returns against the dealer's cards."""
    dealer_total = total(dealer)[0]
    dealer_bj = len(dealer) == 2 and dealer_total == 21
    view = HandView.of(hand)
    if hand.surrendered:
        return HandLine(view, Outcome.SURRENDERED, hand.bet // 2)
    if hand.bust:
        return HandLine(view, Outcome.BUST, 0)
    if hand.blackjack:
        if dealer_bj:
            return HandLine(view, Outcome.PUSH, hand.bet)
        won = hand.bet * pays
        assert won.denominator == 1, "bets are multiples of the table's unit"
        return HandLine(view, Outcome.BLACKJACK, hand.bet + int(won))
    if dealer_bj or (dealer_total <= 21 and dealer_total > hand.total):
        return HandLine(view, Outcome.LOST, 0)
    if dealer_total > 21 or hand.total > dealer_total:
        return HandLine(view, Outcome.WON, hand.staked * 2)
    return HandLine(view, Outcome.PUSH, hand.staked)


def dealer_draws(cards: list[Card], live: bool, hits_soft_17: bool, card: Callable[[], Card]) -> None:
    """The dealer's hand drawn to 17 (hitting a soft 17 where the table says so),
    only if some player hand is live; else the dealer keeps two cards."""
    while live:
        n, soft = total(cards)
        if n > 17 or (n == 17 and not (soft and hits_soft_17)):
            return
        cards.append(card())


def settle_round(round_no: int, hands: Mapping[str, Sequence[Hand]], insurance: Mapping[str, tuple[str, int]],
                 stakes: Sequence[str], dealer: Sequence[Card], pays: Fraction,
                 new_key: Callable[[], str], away: Collection[str] = ()) -> list[Event]:
    """[Settle, Settlement...] for the round: `stakes` are every held key of it,
    `insurance` each insured player's (stake, chips). No stakes, no events."""
    if not stakes:
        return []
    dealer_bj = len(dealer) == 2 and total(dealer)[0] == 21
    facts: list[Settlement] = []
    for player, theirs in hands.items():
        lines = tuple(hand_line(h, dealer, pays) for h in theirs)
        insured = insurance.get(player, ("", 0))[1]
        back = insured * 3 if dealer_bj else 0
        staked = sum(ln.hand.staked for ln in lines) + insured
        paid = sum(ln.returned for ln in lines) + back
        facts.append(Settlement(round_no, player, lines, insured, back, tuple(dealer), staked, paid,
                                player in away))
    settle = Settle(new_key(), tuple(stakes), tuple((s.player, s.paid) for s in facts))
    return [settle, *facts]

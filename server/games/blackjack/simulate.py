"""The house edge of basic strategy for the configured shoe, estimated by playing it.

The infinite-shoe edge (edge.py) is exact but ignores what a real shoe does:
the cards of a round are gone from it (few decks favour the player) and the
cut card stops the shoe where the cards left favour the dealer (the cut-card
effect). Neither has a closed form worth writing, so this plays N rounds of
basic strategy (strategy.ranked) from a shuffled shoe of `decks` decks, cut
at `penetration` percent, and gives the mean with a 95% confidence interval.

One player plays one hand of one unit a round, alone at the table (the edge
per round does not depend on seats, only the cut card's timing would, a
little), never insuring. Cards carry their rank 1..13 so that only a pair of
one rank splits (a J and a K do not), and count min(rank, 10). When the shoe
runs out in the middle of a round (a deep cut at one deck, rarely) a fresh
shoe is shuffled for the rest of it, with no regard to the cards on the table.

Pure and deterministic: the shuffles come from SplitMix64 seeded by `seed`,
a generator of the simulation's own (games draw no randomness from the
process: tests/test_layers.py), so a seed gives the same figure everywhere.
Results are counted in tenths of the bet (3:2 pays 15, 6:5 pays 12, a
surrender loses 5), whole numbers, so nothing is rounded along the way.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .options import BlackjackOptions
from .strategy import Decision, Rules, ranked, split_ev, stand_ev

MASK = (1 << 64) - 1
Z95 = 1.959964            # the normal quantile of a two-sided 95% interval


class SplitMix64:
    """Steele, Lea and Flood's SplitMix64: 64 bits a step from a counter, fast and
    well mixed; `below` draws without the bias of a bare modulo."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A draw in [0, n) by Lemire's multiply-shift: its bias is below n / 2**64, some
        1e-17 for a shoe, far under what any simulation here could see."""
        return (self.next() * n) >> 64


VALUE = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)     # a rank's count: J, Q, K are 10


class Shoe:
    """`decks` decks of ranks 1..13, Fisher-Yates shuffled, the cut card at `penetration`%."""

    def __init__(self, decks: int, penetration: int, rng: SplitMix64) -> None:
        self.rng = rng
        self.cards = [rank for rank in range(1, 14) for _ in range(4 * decks)]
        self.cut = len(self.cards) * penetration // 100
        self.shuffles = 0
        self.shuffle()

    def shuffle(self) -> None:
        cards, below = self.cards, self.rng.below
        for i in range(len(cards) - 1, 0, -1):
            j = below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        self.dealt = 0
        self.shuffles += 1

    def draw(self) -> int:
        if self.dealt == len(self.cards):
            self.shuffle()
        card = self.cards[self.dealt]
        self.dealt += 1
        return card

    @property
    def cut_out(self) -> bool:
        """The cut card has come out: shuffle before the next round."""
        return self.dealt >= self.cut


class InfiniteShoe(Shoe):
    """Every card drawn with replacement, 1/13 a rank, and never a cut: the shoe that
    edge.py solves exactly, so the simulation can be checked against the exact figure."""

    def __init__(self, decks: int, penetration: int, rng: SplitMix64) -> None:
        self.rng, self.cut, self.dealt, self.shuffles = rng, 1, 0, 0

    def shuffle(self) -> None:
        pass

    def draw(self) -> int:
        return self.rng.below(13) + 1


class Hand:
    """One of the player's hands in a round: its first rank (a pair needs a second of
    it), its hard total, whether it holds an ace, its bet in units, how it came about."""

    __slots__ = ("first", "cards", "hard", "ace", "bet", "split", "surrendered", "pair")

    def __init__(self, first: int, split: bool = False) -> None:
        self.first, self.cards, self.hard, self.ace = first, 1, VALUE[first], first == 1
        self.bet, self.split, self.surrendered, self.pair = 1, split, False, 0

    def take(self, rank: int) -> None:
        value = VALUE[rank]
        self.pair = VALUE[rank] if self.cards == 1 and rank == self.first else 0
        self.cards += 1
        self.hard += value
        self.ace = self.ace or value == 1

    @property
    def total(self) -> int:
        return self.hard + 10 if self.ace and self.hard <= 11 else self.hard


def dealer_plays(up: int, hole: int, shoe: Shoe, hits_soft_17: bool) -> int:
    """The dealer draws to 17 (hitting soft 17 where the table says so); 22 for a bust."""
    hard, ace = up + hole, up == 1 or hole == 1
    while True:
        soft = ace and hard <= 11
        total = hard + 10 if soft else hard
        if total > 21:
            return 22
        if total > 17 or (total == 17 and not (soft and hits_soft_17)):
            return total
        value = VALUE[shoe.draw()]
        hard += value
        ace = ace or value == 1


class Round:
    """One round of basic strategy: the deal, the player's hands, the dealer, the result."""

    def __init__(self, rules: Rules, shoe: Shoe) -> None:
        self.rules = rules
        self.shoe = shoe

    def play(self) -> int:
        """The player's result in tenths of the bet."""
        shoe, rules = self.shoe, self.rules
        hand = Hand(shoe.draw())
        up = VALUE[shoe.draw()]
        hand.take(shoe.draw())
        hole = VALUE[shoe.draw()]
        natural = hand.ace and hand.hard == 11
        if up + hole == 11 and (up == 1 or hole == 1):     # the peek: a dealer blackjack
            return 0 if natural else -10
        if natural:
            return int(rules.pays * 10)
        hands = [hand]
        i = 0
        while i < len(hands):
            self.play_hand(hands, hands[i], up)
            i += 1
        live = any(not h.surrendered and h.hard <= 21 for h in hands)
        dealer = dealer_plays(up, hole, shoe, rules.hits_soft_17) if live else 0
        return sum(self.settle(h, dealer) for h in hands)

    def play_hand(self, hands: list[Hand], hand: Hand, up: int) -> None:
        """Play one hand to its end; a split adds the new hand to `hands`, played after."""
        rules, shoe = self.rules, self.shoe
        while True:
            if hand.cards == 1:                            # a split hand takes its second card
                hand.take(shoe.draw())
            if hand.split and hand.first == 1:             # split aces: one card each
                if not (hand.pair and self.resplits_aces(len(hands), up)):
                    return
                play = Decision.SPLIT
            elif hand.total >= 21:
                return
            else:
                play = ranked(rules, hand.hard, hand.ace, hand.cards == 2, hand.pair, up,
                              not hand.split or rules.double_after_split, True, not hand.split,
                              len(hands))[0][0]
            if play is Decision.STAND:
                return
            if play is Decision.SURRENDER:
                hand.surrendered = True
                return
            if play is Decision.SPLIT:
                hand.split = True
                hand.cards, hand.hard, hand.pair = 1, VALUE[hand.first], 0
                hands.append(Hand(hand.first, split=True))
                continue
            hand.take(shoe.draw())
            if play is Decision.DOUBLE:
                hand.bet = 2
                return
            if hand.hard > 21:
                return

    def resplits_aces(self, hands: int, up: int) -> bool:
        """Split aces that pair again are resplit where the table allows it and two
        hands from an ace beat the soft 12 the pair must stand on."""
        rules = self.rules
        return (rules.resplit_aces and hands < rules.max_hands
                and split_ev(1, up, rules, hands) > stand_ev(12, up, rules.hits_soft_17))

    @staticmethod
    def settle(hand: Hand, dealer: int) -> int:
        if hand.surrendered:
            return -5
        total = hand.total
        if total > 21:
            return -10 * hand.bet
        won = dealer == 22 or total > dealer
        return 10 * hand.bet * (won - (not won and dealer > total))


@dataclass(frozen=True)
class Estimate:
    """The simulated house edge: its mean and 95% interval, as fractions of the bet."""

    rounds: int
    edge: float
    low: float
    high: float
    shuffles: int

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


def simulate(options: BlackjackOptions, rounds: int, seed: int, infinite: bool = False) -> Estimate:
    """Play `rounds` rounds of basic strategy from this table's shoe; the house edge with a
    95% interval (the mean of the rounds' results, plus or minus 1.96 standard errors:
    one round's result has a standard deviation of about 1.15 bets, so 100,000 rounds
    pin the edge to about +-0.7%, a million to +-0.23%). `infinite`: the same play from
    an infinite shoe (InfiniteShoe), whose edge edge.py knows exactly."""
    if rounds < 2:
        raise ValueError("a simulation needs at least two rounds for its interval")
    shoe = (InfiniteShoe if infinite else Shoe)(options.decks, options.penetration, SplitMix64(seed))
    play = Round(Rules.of(options), shoe).play
    total = squares = 0
    for _ in range(rounds):
        if shoe.cut_out:
            shoe.shuffle()
        result = play()
        total += result
        squares += result * result
    mean = total / rounds / 10
    variance = (squares / 100 - rounds * mean * mean) / (rounds - 1)
    half = Z95 * math.sqrt(max(variance, 0.0) / rounds)
    return Estimate(rounds, -mean, -mean - half, -mean + half, shoe.shuffles)

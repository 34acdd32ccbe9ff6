"""Basic strategy for a table's rules, worked out from the expectations, not a chart.

Why computed: a chart is right for one rule set; a table may stand or hit soft
17, pay 3:2 or 6:5, offer surrender or not, double after a split or not. So
every decision here is the action with the highest expected value for an
INFINITE shoe (each card an ace, 2..9 with probability 1/13, a ten-value card
4/13), which makes the strategy total-dependent, as published charts are: the
cards of a hand matter only through its total, whether it is soft, and whether
it is a pair. The dealer peeks under an ace or a ten, so every expectation of
a decision is conditioned on the dealer not having blackjack (the game's rules:
American peek, late surrender only).

A card is its rank value 1..10 (1 an ace, 10 any ten-value card), so this
module needs nothing of the game but BlackjackOptions. Everything is exact
(Fractions) and memoized per rule set: the first question about a rule set
costs a few tens of milliseconds, every later one a dictionary look-up.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from functools import lru_cache

from .options import BlackjackOptions

CARDS = tuple(range(1, 11))
P = {c: Fraction(4 if c == 10 else 1, 13) for c in CARDS}   # a draw from the infinite shoe
SAME_RANK = Fraction(1, 13)          # the next card matches a pair's rank (a J matches only a J)
OUTCOMES = (17, 18, 19, 20, 21, 22)  # the dealer's final totals; 22 stands for any bust
Dist = tuple[Fraction, ...]          # probabilities of OUTCOMES, in that order


class Decision(Enum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"


@dataclass(frozen=True)
class Rules:
    """The part of BlackjackOptions the expectations read (decks and penetration
    do not change an infinite shoe), so the memo is shared by tables that
    differ only in bets, clocks or shoe size."""

    hits_soft_17: bool
    pays: Fraction
    max_hands: int
    double_after_split: bool
    resplit_aces: bool
    surrender: bool

    @classmethod
    def of(cls, options: BlackjackOptions) -> Rules:
        return cls(options.hits_soft_17, options.pays, options.max_hands,
                   options.double_after_split, options.resplit_aces, options.surrender == "late")


def best_total(hard: int, ace: bool) -> int:
    """A hand's total counting one ace as 11 where that does not bust it."""
    return hard + 10 if ace and hard <= 11 else hard


def is_soft(hard: int, ace: bool) -> bool:
    return ace and hard <= 11


# --- the dealer ------------------------------------------------------------------

def dealer_blackjack(up: int) -> Fraction:
    """The chance the hole card makes a blackjack with this up card (what the peek finds)."""
    return {1: P[10], 10: P[1]}.get(up, Fraction(0))


@lru_cache(maxsize=None)
def _dealer_from(hard: int, ace: bool, hits_soft_17: bool) -> Dist:
    """The dealer's final-total distribution from a hand of this hard total."""
    total = best_total(hard, ace)
    if total > 21:
        return tuple(Fraction(int(t == 22)) for t in OUTCOMES)
    if total >= 17 and not (total == 17 and hits_soft_17 and is_soft(hard, ace)):
        return tuple(Fraction(int(t == total)) for t in OUTCOMES)
    out = [Fraction(0)] * len(OUTCOMES)
    for c in CARDS:
        for i, q in enumerate(_dealer_from(hard + c, ace or c == 1, hits_soft_17)):
            out[i] += P[c] * q
    return tuple(out)


@lru_cache(maxsize=None)
def dealer_final(up: int, hits_soft_17: bool) -> Dist:
    """The dealer's final totals given the up card AND no blackjack under it: the
    peek has happened, so the hole card is drawn from the cards that do not make 21."""
    blackjack = dealer_blackjack(up)
    out = [Fraction(0)] * len(OUTCOMES)
    for hole in CARDS:
        if {up, hole} == {1, 10}:
            continue
        weight = P[hole] / (1 - blackjack)
        for i, q in enumerate(_dealer_from(up + hole, up == 1 or hole == 1, hits_soft_17)):
            out[i] += weight * q
    return tuple(out)


# --- the player's hand: expectations per unit bet, given no dealer blackjack ------

@lru_cache(maxsize=None)
def stand_ev(total: int, up: int, hits_soft_17: bool) -> Fraction:
    """Standing on `total`: win against a lower dealer total or a bust, push on equal."""
    if total > 21:
        return Fraction(-1)
    ev = Fraction(0)
    for t, q in zip(OUTCOMES, dealer_final(up, hits_soft_17)):
        ev += q * ((t == 22 or total > t) - (t != 22 and t > total))
    return ev


@lru_cache(maxsize=None)
def play_ev(hard: int, ace: bool, up: int, hits_soft_17: bool) -> Fraction:
    """The best of hit and stand, which is all a hand may do after its third card."""
    if hard > 21:
        return Fraction(-1)
    return max(stand_ev(best_total(hard, ace), up, hits_soft_17), hit_ev(hard, ace, up, hits_soft_17))


@lru_cache(maxsize=None)
def hit_ev(hard: int, ace: bool, up: int, hits_soft_17: bool) -> Fraction:
    """One card more, then the best play of what it makes."""
    return sum((P[c] * play_ev(hard + c, ace or c == 1, up, hits_soft_17) for c in CARDS), Fraction(0))


@lru_cache(maxsize=None)
def double_ev(hard: int, ace: bool, up: int, hits_soft_17: bool) -> Fraction:
    """Twice the bet, exactly one card more, then stand."""
    return 2 * sum((P[c] * stand_ev(best_total(hard + c, ace or c == 1), up, hits_soft_17)
                    for c in CARDS), Fraction(0))


def _second_cards(rank: int) -> list[tuple[int, Fraction]]:
    """A split hand's second card, given it does NOT match the split rank (those resplit or
    stay pairs): other ten-value ranks still come for a split ten."""
    return [(c, (P[c] - SAME_RANK if c == rank else P[c]) / (1 - SAME_RANK))
            for c in CARDS if c != rank or rank == 10]


@lru_cache(maxsize=None)
def _split_hand(rank: int, second: int, up: int, rules: Rules) -> Fraction:
    """One hand of a split once its second card came: split aces get that one card
    and stand; other hands play on, doubling only where the table allows it."""
    hard, ace = rank + second, rank == 1 or second == 1
    if rank == 1:
        return stand_ev(best_total(hard, ace), up, rules.hits_soft_17)
    ev = play_ev(hard, ace, up, rules.hits_soft_17)
    if rules.double_after_split:
        ev = max(ev, double_ev(hard, ace, up, rules.hits_soft_17))
    return ev


@lru_cache(maxsize=None)
def split_ev(rank: int, up: int, rules: Rules, hands: int = 1) -> Fraction:
    """Splitting a pair of `rank` when the player holds `hands` hands already, per unit
    of the original bet (each hand carries one unit).

    Infinite shoe: the hands are independent and the dealer's cards do not depend
    on them, so the split's value is the sum of its hands' values; the only thing
    to follow is how many hands there end up. Each hand waits for its second card;
    a card of the same rank (1/13) is resplit while the table's max_hands allows
    and resplitting is worth more than playing the pair (aces only with
    resplit_aces), else the hand plays on as it is. Hands are played each on its
    own, as a player at the table would; no surrender after a split."""
    can_resplit = rank != 1 or rules.resplit_aces
    cap = rules.max_hands if can_resplit else min(rules.max_hands, hands + 1)
    other = sum((q * _split_hand(rank, c, up, rules) for c, q in _second_cards(rank)), Fraction(0))
    pair = _split_hand(rank, rank, up, rules) if rank != 1 else stand_ev(12, up, rules.hits_soft_17)

    @lru_cache(maxsize=None)
    def waiting(pending: int, total: int) -> Fraction:
        """The value of `pending` hands still to get their second card, `total` hands in all."""
        if pending == 0:
            return Fraction(0)
        keep = pair + waiting(pending - 1, total)
        matched = max(keep, waiting(pending + 1, total + 1)) if total < cap else keep
        return SAME_RANK * matched + (1 - SAME_RANK) * (other + waiting(pending - 1, total))

    if hands >= rules.max_hands:
        raise ValueError(f"{hands} hands already: this table splits to {rules.max_hands} at most")
    return waiting(2, hands + 1)


# --- a decision ------------------------------------------------------------------

@lru_cache(maxsize=None)
def ranked(rules: Rules, hard: int, ace: bool, two: bool, pair: int, up: int, can_double: bool,
           can_split: bool, can_surrender: bool, hands: int = 1,
           can_hit: bool = True) -> tuple[tuple[Decision, Fraction], ...]:
    """Every decision allowed here with its expected value per unit of the hand's bet,
    best first. `two`: the hand is its first two cards (double and surrender need
    that); `pair`: the rank both of them share, 0 for none; `can_hit`: False for split
    aces that pair again (one card each: they stand or split again)."""
    h17 = rules.hits_soft_17
    values = {Decision.STAND: stand_ev(best_total(hard, ace), up, h17)}
    if can_hit:
        values[Decision.HIT] = hit_ev(hard, ace, up, h17)
    if two and can_double:
        values[Decision.DOUBLE] = double_ev(hard, ace, up, h17)
    if two and pair and can_split and hands < rules.max_hands:
        values[Decision.SPLIT] = split_ev(pair, up, rules, hands)
    if two and can_surrender and rules.surrender and hands == 1:
        values[Decision.SURRENDER] = Fraction(-1, 2)
    order = list(Decision)      # ties (never met in practice) go to the simpler play
    return tuple(sorted(values.items(), key=lambda kv: (-kv[1], order.index(kv[0]))))


def _read(hand_cards: tuple[int, ...]) -> tuple[int, bool, bool, int]:
    """(hard total, holds an ace, first two cards, the pair's rank or 0), checked."""
    if len(hand_cards) < 2 or any(c not in CARDS for c in hand_cards):
        raise ValueError(f"a hand is two or more rank values 1..10, not {hand_cards!r}")
    hard = sum(hand_cards)
    if hard > 21:
        raise ValueError(f"a busted hand ({hard}) has no decision")
    two = len(hand_cards) == 2
    return hard, 1 in hand_cards, two, hand_cards[0] if two and hand_cards[0] == hand_cards[1] else 0


@dataclass(frozen=True)
class Advice:
    """What basic strategy does with a hand, the value of each allowed play, and why."""

    decision: Decision
    values: tuple[tuple[Decision, Fraction], ...]     # best first
    why: str


def advise(options: BlackjackOptions, hand_cards: tuple[int, ...], dealer_up: int, can_double: bool = True,
           can_split: bool = True, can_surrender: bool = True, hands: int = 1, can_hit: bool = True) -> Advice:
    """Basic strategy's play for this hand: the best of the plays allowed now.

    `can_*` say what the table allows this hand at this moment (the wallet covers
    a double, the cards are a splittable pair, a split hand may double only with
    double_after_split...); a play not allowed is not considered, which is the
    charts' "double if allowed, else hit" (or stand). `hands`: how many hands the
    player holds (a split counts the room left under max_hands; surrender is for
    an unsplit hand only). A pair that may not be split now (two ten-value cards of
    two ranks, or a split the wallet does not cover) is named by its total."""
    if dealer_up not in CARDS:
        raise ValueError(f"the dealer's up card is a rank value 1..10, not {dealer_up!r}")
    hard, ace, two, pair = _read(hand_cards)
    if two and ace and hard == 11 and hands == 1:
        return Advice(Decision.STAND, ((Decision.STAND, options.pays),), "a blackjack is paid at once")
    values = ranked(Rules.of(options), hard, ace, two, pair, dealer_up, can_double, can_split,
                    can_surrender, hands, can_hit)
    return Advice(values[0][0], values, why(hard, ace, pair if can_split else 0, dealer_up, values))


def decide(options: BlackjackOptions, hand_cards: tuple[int, ...], dealer_up: int, can_double: bool = True,
           can_split: bool = True, can_surrender: bool = True, hands: int = 1) -> Decision:
    """Basic strategy's play (see `advise`)."""
    return advise(options, hand_cards, dealer_up, can_double, can_split, can_surrender, hands).decision


# --- why, in a few words ------------------------------------------------------------

GERUND = {Decision.HIT: "hitting", Decision.STAND: "standing", Decision.DOUBLE: "doubling",
          Decision.SPLIT: "splitting", Decision.SURRENDER: "surrendering"}
# (the play, the runner-up) -> the reason; (the play, None) serves any runner-up
WHY: dict[tuple[Decision, Decision | None], str] = {
    (Decision.STAND, Decision.HIT): "a card would bust it more often than it helps",
    (Decision.STAND, Decision.DOUBLE): "a card would bust it more often than it helps",
    (Decision.STAND, Decision.SPLIT): "{total} is worth more than two hands from {one}",
    (Decision.STAND, Decision.SURRENDER): "standing loses less than half the bet",
    (Decision.HIT, Decision.STAND): "{total} loses too often standing; a card helps more than a bust costs",
    (Decision.HIT, Decision.DOUBLE): "a card helps, but not enough to double the bet on one card",
    (Decision.HIT, Decision.SURRENDER): "hitting loses less than the half bet surrender gives up",
    (Decision.HIT, Decision.SPLIT): "{total} as one hand is worth more than two hands from {one}",
    (Decision.DOUBLE, Decision.STAND): "the dealer busts often enough to put twice the bet on one more card",
    (Decision.DOUBLE, None): "one more card is likely to make a strong hand, so twice the bet rides on it",
    (Decision.SPLIT, None): "two hands from {one} are worth more than one hand of {total}",
    (Decision.SURRENDER, None): "surrender saves more than {other} loses",
}


def card_name(rank: int) -> str:
    """'an ace', 'a 10', 'an 8', 'a 6'."""
    return "an ace" if rank == 1 else f"{'an' if rank == 8 else 'a'} {rank}"


def hand_name(hard: int, ace: bool, pair: int) -> str:
    """'a pair of 8s', 'a pair of aces', 'soft 18', 'hard 16'."""
    if pair:
        return "a pair of aces" if pair == 1 else f"a pair of {pair}s"
    return f"{'soft' if is_soft(hard, ace) else 'hard'} {best_total(hard, ace)}"


def why(hard: int, ace: bool, pair: int, up: int, values: tuple[tuple[Decision, Fraction], ...]) -> str:
    """'hard 16 against a 10: surrender saves more than hitting loses (-50.0% of the bet,
    hitting -53.5%)': the play, its reason against the runner-up, and both values."""
    best, value = values[0]
    head = f"{hand_name(hard, ace, pair)} against {card_name(up)}: {best.value}"
    if len(values) == 1:
        return head
    other, second = values[1]
    reason = WHY.get((best, other)) or WHY[(best, None)]
    total = f"{'soft' if is_soft(hard, ace) else 'hard'} {best_total(hard, ace)}"
    words = reason.format(total=total, one=card_name(pair or 1), other=GERUND[other])
    return f"{head} - {words} ({float(value):+.1%} of the bet, {GERUND[other]} {float(second):+.1%})"


def hint_text(options: BlackjackOptions, hand_cards: tuple[int, ...], dealer_up: int, can_double: bool = True,
              can_split: bool = True, can_surrender: bool = True, hands: int = 1, can_hit: bool = True) -> str:
    """`hint`: one line, what basic strategy does with this hand here and why, e.g.
    'Basic strategy: hard 16 against a 10: surrender - surrender saves more than hitting
    loses (-50.0% of the bet, hitting -54.0%)'. The `can_*` and `hands` are as for `advise`:
    what this hand may do now, so the hint never names a play the table would refuse."""
    return "Basic strategy: " + advise(options, hand_cards, dealer_up, can_double, can_split,
                                       can_surrender, hands, can_hit).why

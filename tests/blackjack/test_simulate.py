"""The simulated shoe: a seeded, deterministic play of basic strategy, checked round by round
on stacked shoes and, as a whole, against the exact infinite-shoe edge."""
from __future__ import annotations

from collections import Counter

import pytest
from bj_helpers import rules

from server.games.blackjack.edge import infinite_shoe_edge
from server.games.blackjack.simulate import Round, Shoe, SplitMix64, simulate
from server.games.blackjack.strategy import Rules


class Stacked(Shoe):
    """A shoe that deals these ranks in this order (1 ace .. 13 king)."""

    def __init__(self, *ranks: int) -> None:
        self.cards, self.dealt, self.cut, self.shuffles = list(ranks), 0, len(ranks), 0

    def shuffle(self) -> None:
        raise AssertionError("the stacked shoe ran out")


def result(ranks: tuple[int, ...], **changes: object) -> tuple[int, int]:
    """Deal one round (player, up, player, hole, then the draws in order): the player's
    result in tenths of the bet, and the cards left undealt."""
    shoe = Stacked(*ranks)
    got = Round(Rules.of(rules(**changes)), shoe).play()
    return got, len(shoe.cards) - shoe.dealt


def test_splitmix64_matches_its_published_test_vectors():
    """Vigna's reference splitmix64.c: seed 1234567 and seed 0."""
    r = SplitMix64(1234567)
    assert [r.next() for _ in range(3)] == [6457827717110365317, 3203168211198807973, 9817491932198370423]
    assert SplitMix64(0).next() == 0xE220A8397B1DCDAF


def test_a_shuffle_is_a_permutation_of_the_decks_and_draws_are_fair():
    shoe = Shoe(2, 75, SplitMix64(5))
    assert Counter(shoe.cards) == {rank: 8 for rank in range(1, 14)}
    assert shoe.cut == 78
    rng = SplitMix64(9)
    counts = Counter(rng.below(6) for _ in range(6000))
    assert set(counts) == set(range(6)) and all(900 < n < 1100 for n in counts.values())


@pytest.mark.parametrize("ranks,changes,expected", [
    ((1, 9, 13, 7), {}, (15, 0)),                        # a blackjack pays 3:2
    ((1, 9, 12, 7), {"blackjack_pays": "6:5"}, (12, 0)),  # or 6:5
    ((1, 1, 10, 13), {}, (0, 0)),                        # the peek: blackjack against blackjack pushes
    ((10, 1, 9, 11), {}, (-10, 0)),                      # the peek: a dealer blackjack takes the bet only
    ((10, 10, 6, 7, 9), {"surrender": "late"}, (-5, 1)),  # 16 v 10 surrendered: no draw, the dealer neither
    ((10, 10, 6, 7, 5), {}, (10, 0)),                    # 16 v 10 hit: 21 against 17
    ((6, 6, 5, 10, 10, 10), {}, (20, 0)),                # 11 v 6 doubled to 21; the dealer's 16 busts
    ((10, 9, 6, 8, 4, 10), {}, (10, 1)),                 # 16 v 9 hits a 4: 20 against 17
    ((10, 7, 6, 10, 10, 5), {}, (-10, 1)),               # a bust: the dealer does not draw
    ((10, 6, 8, 1, 3), {}, (10, 1)),                     # 18 against soft 17: the dealer stands
    ((10, 6, 8, 1, 3), {"soft_17": "hit"}, (-10, 0)),    # or hits it, to 20
    # 8,8 v 6 split: 8,3 doubles to 21, 8,10 stands; the dealer's 16 busts
    ((8, 6, 8, 10, 3, 10, 10, 9), {}, (30, 0)),
    ((8, 6, 8, 10, 3, 10, 10, 9), {"double_after_split": False}, (20, 0)),   # 8,3 hits instead
    ((1, 6, 1, 10, 13, 9, 5), {}, (-10, 0)),             # split aces: A,K is 21, not a blackjack
    ((1, 6, 1, 10, 1, 9, 2), {}, (0, 0)),                # a second ace stays soft 12: one card each
    ((1, 6, 1, 10, 1, 9, 8, 7, 2), {"resplit_aces": True}, (20, 0)),   # or is split again
    # no split: soft 12 v 6 hits (an ace: soft 13, hits again: a 9, hard 12, stands) and loses to 18
    ((1, 6, 1, 10, 1, 9, 2), {"max_hands": 1}, (-10, 0)),
])
def test_a_round_plays_basic_strategy(ranks, changes, expected):
    assert result(ranks, **changes) == expected


def test_the_same_seed_plays_the_same_rounds():
    o = rules()
    assert simulate(o, 3000, 1) == simulate(o, 3000, 1)
    assert simulate(o, 3000, 1) != simulate(o, 3000, 2)


def test_the_cut_card_sets_how_often_the_shoe_is_shuffled():
    """About 5.4 cards a round: a deep cut shuffles less often than a shallow one."""
    deep = simulate(rules(decks=2, penetration=90), 3000, 3)
    shallow = simulate(rules(decks=2, penetration=50), 3000, 3)
    assert 1.5 * deep.shuffles < shallow.shuffles
    assert 3000 * 5 / 52 < shallow.shuffles < 3000 * 6 / 52


def test_the_interval_holds_the_mean_and_narrows_with_more_rounds():
    small, large = simulate(rules(), 2000, 4), simulate(rules(), 8000, 4)
    assert small.low < small.edge < small.high
    assert 1.8 < small.half_width / large.half_width < 2.2
    assert 0.02 < large.half_width < 0.03                    # 1.96 * 1.15 / sqrt(8000)


def test_an_infinite_shoe_simulated_agrees_with_the_exact_edge():
    """The simulator and the exact recursion are two separate workings of the same rules:
    played from an infinite shoe, the exact edge must fall inside the 95% interval.
    (Over 2,000,000 rounds, seeds 101-103: S17 DAS 3:2 0.536% +- 0.160%, exact 0.512%; H17
    late surrender resplit aces 0.545% +- 0.159%, exact 0.553%; 6:5 no DAS split to 2
    2.032% +- 0.154%, exact 2.043%.)"""
    for changes in ({}, {"soft_17": "hit", "surrender": "late"}, {"blackjack_pays": "6:5"}):
        o = rules(**changes)
        got = simulate(o, 20000, 12, infinite=True)
        assert got.low < float(infinite_shoe_edge(o)) < got.high
        assert got.shuffles == 0


def test_a_simulation_needs_rounds():
    with pytest.raises(ValueError):
        simulate(rules(), 1, 0)

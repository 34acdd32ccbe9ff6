"""The provably fair shoe: a Fisher-Yates from the table's commit/reveal draws,
rebuilt card for card from the revealed seed."""
from __future__ import annotations

from collections import Counter

from server.dice.fair import FairDice
from server.games.blackjack.cards import Card
from server.games.blackjack.shoe import Shoe, rebuild, shuffled


def test_a_shoe_is_every_card_of_its_decks_once_per_deck():
    dice = FairDice("bj", seed=7)
    shoe = shuffled(6, dice.draw)
    assert len(shoe) == 312 and set(Counter(shoe).values()) == {6} and len(set(shoe)) == 52
    assert [r.n for r in dice.rolls] == list(range(312, 1, -1))     # swap i draws in [0, i + 1)


def test_the_revealed_seed_rebuilds_the_whole_shoe():
    dice = FairDice("bj", seed=11)
    dice.set_client_seed("my lucky words")
    shoe = shuffled(2, dice.draw)
    revealed = dice.rotate()
    assert rebuild(revealed.server_seed, "my lucky words", 2) == shoe
    assert rebuild(revealed.server_seed, "other words", 2) != shoe


def test_a_second_shoe_under_one_seed_starts_where_the_first_ended():
    dice = FairDice("bj", seed=3)
    shuffled(1, dice.draw)
    second = shuffled(1, dice.draw)
    assert rebuild(dice.rotate().server_seed, "bj", 1, first_nonce=51) == second


def test_the_cut_card_stands_at_the_penetration():
    shoe = Shoe(tuple(Card.of(n) for n in range(312)), 75)
    assert shoe.cut == 234
    for _ in range(233):
        shoe.deal()
    assert not shoe.cut_out
    shoe.deal()
    assert shoe.cut_out and shoe.left == 78

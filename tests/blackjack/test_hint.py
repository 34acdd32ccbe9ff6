"""`hint` at a blackjack table: basic strategy's play for the hand whose turn it is,
under this table's rules and with the plays open to it now (the wallet, split aces),
in one line; a clear one-line refusal at every other moment. The shoe is stacked so
each hand is known; time moves only by ticks."""
from __future__ import annotations

from fractions import Fraction

import pytest
from bj_helpers import rules, stacked
from bj_table import HZ, notes, seat, table

from server.games.blackjack.hint import INSURANCE_EV, insurance_hint
from server.games.blackjack.rounds import Phase
from server.games.blackjack.strategy import Decision, advise, hint_text
from server.games.catalogue import find_game
from server.games.intents import Hold

K, Q, J = 13, 12, 11


def dealt(ranks, *players: str, wallet: int = 1000, **options):
    """A table with `players` seated, each betting 10, the shoe's first cards `ranks`
    (to each player in seat order, the dealer's up card, again, the hole card), dealt."""
    t = seat(table(**options), *players, wallet=wallet)
    stacked(t.game, ranks)
    for p in players:
        t.act(p, ["bet", "10"], wallet)
    t.advance(1)
    if len(players) > 1:
        t.advance(10 * HZ)
    return t


def hinted(t, player: str = "ann", wallet: int = 990) -> str:
    events = t.act(player, ["hint"], wallet)
    assert len(events) == 1 and "\n" not in notes(events, player), events     # one line, nothing else
    return notes(events, player)


def test_hint_is_a_word_of_the_game_with_its_help():
    entry = find_game("blackjack")
    assert entry is not None and entry.has_word("hint")
    assert entry.words["hint"].startswith("hint - what basic strategy does with your hand against the dealer's card")


def test_the_play_and_why_for_the_hand_whose_turn_it_is_and_nothing_moves():
    t = dealt([10, K, 6, 7], "ann", surrender="late")              # hard 16 against a king, the hole a 7
    assert t.game.phase is Phase.PLAYING
    before = (t.game.shoe.dealt, list(t.game.round.hands["ann"][0].cards))
    said = hinted(t)
    assert said == ("Basic strategy: hard 16 against a 10: surrender - surrender saves more than hitting "
                    "loses (-50.0% of the bet, hitting -54.0%).")
    assert (t.game.shoe.dealt, list(t.game.round.hands["ann"][0].cards)) == before
    assert t.game.round.turn == ("ann", 0) and t.game.phase is Phase.PLAYING


def test_the_table_rules_change_the_hint():
    """Without surrender the same hand hits; a soft 18 against a 2 stands on S17 and doubles on H17."""
    assert hinted(dealt([10, K, 6, 7], "ann")).startswith("Basic strategy: hard 16 against a 10: hit - ")
    assert hinted(dealt([1, 2, 7, 9], "ann")).startswith("Basic strategy: soft 18 against a 2: stand")
    assert hinted(dealt([1, 2, 7, 9], "ann", soft_17="hit")).startswith("Basic strategy: soft 18 against a 2: double")


def test_a_double_or_split_the_wallet_cannot_cover_is_never_hinted():
    t = dealt([6, 6, 5, 9], "ann")                                   # hard 11 against a 6
    assert hinted(t, wallet=990).startswith("Basic strategy: hard 11 against a 6: double")
    assert hinted(t, wallet=9).startswith("Basic strategy: hard 11 against a 6: hit")
    t = dealt([8, 10, 8, 7], "ann")                                  # 8s against a 10
    assert hinted(t, wallet=990).startswith("Basic strategy: a pair of 8s against a 10: split")
    assert hinted(t, wallet=0).startswith("Basic strategy: hard 16 against a 10: hit")


def test_two_ten_value_cards_of_two_ranks_are_a_hard_20_not_a_pair():
    assert hinted(dealt([K, 6, Q, 9], "ann")).startswith("Basic strategy: hard 20 against a 6: stand - ")
    assert hinted(dealt([K, 6, K, 9], "ann")).startswith(
        "Basic strategy: a pair of 10s against a 6: stand - hard 20 is worth more than two hands from a 10")


def test_after_a_split_the_hint_names_the_hand():
    t = dealt([8, 6, 8, 9, 3, 10], "ann")                            # 8s against a 6: split, 8+3 and 8+10
    t.act("ann", ["split"], 990)
    t.advance(1)
    assert len(t.game.round.hands["ann"]) == 2 and t.game.round.turn == ("ann", 0)
    assert hinted(t, wallet=980).startswith("Hand 1: Basic strategy: hard 11 against a 6: double")
    t.act("ann", ["stand"], 980)
    assert hinted(t, wallet=980).startswith("Hand 2: Basic strategy: hard 18 against a 6: stand")


def test_split_aces_that_pair_again_are_never_told_to_hit():
    """One card each: they stand or split again (resplit_aces); the strategy leaves hit out."""
    o = rules(resplit_aces=True)
    values = dict(advise(o, (1, 1), 6, can_double=False, hands=2, can_hit=False).values)
    assert set(values) == {Decision.STAND, Decision.SPLIT}
    assert hint_text(o, (1, 1), 6, can_double=False, can_split=False, hands=4, can_hit=False) == (
        "Basic strategy: soft 12 against a 6: stand")
    t = dealt([1, 6, 1, 9, 1, 4], "ann", resplit_aces=True)          # aces, split: A+A and A+4
    t.act("ann", ["split"], 990)
    t.advance(1)
    assert t.game.round.turn == ("ann", 0) and t.game.round.hands["ann"][0].split_aces
    assert hinted(t, wallet=980).startswith("Hand 1: Basic strategy: a pair of aces against a 6: split")
    assert hinted(t, wallet=0) == "Hand 1: Basic strategy: soft 12 against a 6: stand."


def test_insurance_is_declined_even_money_too():
    assert INSURANCE_EV == Fraction(-1, 13)
    t = dealt([10, 1, 6, 7], "ann")                                  # an ace up
    assert t.game.phase is Phase.INSURANCE
    assert hinted(t) == insurance_hint(False) == (
        "Basic strategy: decline insurance ('insurance no') - insurance pays 2:1 on a ten under the ace, "
        "4 chances in 13: -7.7% of what you insure.")
    t.act("ann", ["insurance", "no"], 990)
    assert hinted(t).startswith("You have answered the insurance question")
    t = dealt([1, 1, K, 7], "ann")                                   # ann's blackjack under an ace
    assert hinted(t).startswith("Basic strategy: decline even money ('insurance no') - even money is insurance")


def test_a_hint_at_any_other_moment_says_why_there_is_none():
    t = seat(table(), "ann", "bob")
    assert hinted(t) == ("No hand to advise on: you have no hand in play. "
                         "'hint' speaks of your hand when its turn comes.")
    t.act("ann", ["bet", "10"], 1000)
    t.advance(1)
    assert "the cards are not out yet" in hinted(t)
    assert t.act("zed", ["hint"], 1000)[0].text == "Sit down first: play blackjack."   # a watcher, not seated
    t = dealt([10, 10, 6, 9, 6, 7], "ann", "bob")                    # ann 19, bob 16 against a 6
    assert t.game.round.turn == ("ann", 0)
    assert hinted(t, "bob") == "It is ann's turn; 'hint' speaks of your hand when its turn comes."
    t.act("ann", ["stand"], 990)
    assert hinted(t, "ann") == "Your hands are played; the dealer plays once every hand is."
    assert any(isinstance(e, Hold) for e in t.act("bob", ["double"], 990))   # its card waits for the hold
    assert hinted(t, "bob") == "One moment: your double is being staked."


@pytest.mark.parametrize("hand,up", [((10, 6), 10), ((1, 7), 9), ((8, 8), 1), ((5, 6), 6), ((2, 2), 7)])
def test_the_hint_is_the_strategy_for_every_hand_it_names(hand, up):
    """What `hint` says is decide()'s play, not a second opinion."""
    o = rules(surrender="late")
    line = hint_text(o, hand, up)
    assert f": {advise(o, hand, up).decision.value}" in line

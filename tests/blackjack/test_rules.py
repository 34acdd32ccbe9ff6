"""Blackjack's rules one by one (docs/play-blackjack.md), on stacked shoes.

A stacked shoe deals its ranks in order: with one player the deal is
player, dealer up, player, dealer hole; then hits, then the dealer's draws.
"""
from __future__ import annotations

from bj_helpers import HZ, new, of, stacked

from server.games.blackjack.events import (BetPlaced, BetRefused, BetReturned, BetsOpen, DealerPlayed, Did,
                                           InsuranceOffered, LastCall, Peeked, Played, Settlement, Turn)
from server.games.blackjack.hands import said, total
from server.games.blackjack.cards import cards
from server.games.blackjack.moves import Move
from server.games.blackjack.rounds import Phase
from server.games.intents import Hold, Refund, Settle

A, J, Q, K = 1, 11, 12, 13


def dealt(ranks, bet=10, players=("ann",), **options):
    game = new(order=players, **options)
    stacked(game, ranks)
    for p in players:
        game.bet(p, bet)
    return game, game.advance(1)


def pays(events) -> dict[str, int]:
    (settle,) = of(events, Settle)
    return dict(settle.pays)


def test_totals_count_one_ace_as_eleven_where_it_fits():
    assert total(cards("A", "6")) == (17, True)
    assert said(cards("A", "6")) == "soft 17"
    assert said(cards("A", "6", "10")) == "17"
    assert said(cards("A", "A", "9")) == "soft 21"
    assert said(cards("A", "K")) == "blackjack"
    assert said(cards("A", "K"), split=True) == "soft 21"     # 21, but no blackjack
    assert said(cards("K", "Q", "5")) == "bust (25)"


def test_bets_are_multiples_of_the_unit_and_inside_the_limits():
    game = new()
    assert "multiple of 2" in of(game.bet("ann", 7), BetRefused)[0].reason
    assert "2 to 1000" in of(game.bet("ann", 2000), BetRefused)[0].reason
    assert of(new(blackjack_pays="6:5", min_bet=5).bet("ann", 15), Hold)
    assert "multiple of 10" in of(new(blackjack_pays="6:5", min_bet=10, surrender="late").bet("ann", 15),
                                  BetRefused)[0].reason
    assert of(game.bet("ann", 10), BetPlaced)
    assert "already" in of(game.bet("ann", 10), BetRefused)[0].reason


def test_alone_the_deal_comes_at_the_bet_with_no_clock():
    game, events = dealt([10, 5, 7, 9, 4])
    (turn,) = of(events, Turn)
    assert turn.seconds is None and turn.moves == ("hit", "stand", "double")
    game.advance(10**6)
    assert game.phase is Phase.PLAYING                   # nobody is hurried


def test_a_blackjack_pays_three_to_two_and_six_to_five():
    assert pays(dealt([A, 5, K, 9])[1]) == {"ann": 25}
    assert pays(dealt([A, 5, K, 9], bet=10, blackjack_pays="6:5", min_bet=5)[1]) == {"ann": 22}


def test_the_peek_with_a_ten_up_ends_the_round_and_a_blackjack_pushes():
    game, events = dealt([A, 9, K, K, 9, A], players=("ann", "bob"))
    (peek,) = of(events, Peeked)
    assert peek.blackjack and not of(events, Turn)
    assert pays(events) == {"ann": 10, "bob": 0}         # ann's blackjack pushes, bob loses his bet only


def test_insurance_with_an_ace_up_pays_two_to_one():
    game, events = dealt([10, A, 9, K])
    assert of(events, InsuranceOffered)
    assert "insurance first" in of(game.decide("ann", Move.HIT, 100), BetRefused)[0].reason
    assert "at most half" in of(game.insure("ann", 6, 100), BetRefused)[0].reason
    assert of(game.insure("ann", None, 100), Hold)[0].amount == 5
    events = game.advance(0)
    assert of(events, Peeked)[0].blackjack
    assert pays(events) == {"ann": 15}                   # the bet lost, insurance 5 back with 10
    (s,) = of(events, Settlement)
    assert (s.staked, s.paid, s.net) == (15, 15, 0)


def test_even_money_on_a_blackjack_is_half_insured():
    game, _ = dealt([A, A, K, 7, 5])
    assert of(game.insure("ann", None, 100), Hold)[0].amount == 5
    assert pays(game.advance(0)) == {"ann": 25}          # 25 for the blackjack, the 5 insured lost: +10


def test_the_dealer_stands_on_soft_17_or_hits_it():
    game, events = dealt([10, A, 8, 6, 4])              # dealer A 6: soft 17
    game.insure("ann", 0, 100)
    game.advance(0)
    events = game.decide("ann", Move.STAND, 100) + game.advance(0)
    assert len(of(events, DealerPlayed)[0].cards) == 2 and pays(events) == {"ann": 20}
    game, events = dealt([10, A, 8, 6, 4], soft_17="hit")
    game.insure("ann", 0, 100)
    game.advance(0)
    events = game.decide("ann", Move.STAND, 100) + game.advance(0)
    assert len(of(events, DealerPlayed)[0].cards) == 3 and pays(events) == {"ann": 0}   # 21 beats 18


def test_a_bust_loses_even_if_the_dealer_busts_and_the_dealer_draws_for_no_one():
    game, events = dealt([10, 6, 6, K, K, K])
    events = game.decide("ann", Move.HIT, 100) + game.advance(0)
    assert of(events, Played)[0].after.said == "bust (26)"
    dealer = of(events, DealerPlayed)[0]
    assert not dealer.drew and len(dealer.cards) == 2 and pays(events) == {"ann": 0}


def test_double_takes_exactly_the_bet_and_one_card():
    game, _ = dealt([6, 9, 5, 7, K, 2])
    events = game.decide("ann", Move.DOUBLE, 100)
    assert of(events, Hold)[0].amount == 10 and not of(events, Played)   # the card waits for the hold
    events = game.advance(0)
    assert of(events, Played)[0].did is Did.DOUBLE and of(events, Played)[0].after.said == "21"
    assert pays(events) == {"ann": 40}                   # dealer 9 7 2 = 18
    game, _ = dealt([6, 9, 5, 7, K, 2])
    assert "does not cover" in of(game.decide("ann", Move.DOUBLE, 9), BetRefused)[0].reason
    assert game.round.turn == ("ann", 0)                 # the hand goes on


def test_a_refused_double_hold_leaves_the_hand_as_it_was():
    game, _ = dealt([6, 9, 5, 7, K, 2])
    key = of(game.decide("ann", Move.DOUBLE, 100), Hold)[0].key
    events = game.hold_refused(key, "no")
    assert of(events, Turn) and not game.round.hands["ann"][0].doubled
    assert of(game.decide("ann", Move.STAND, 100), Played)


def test_split_aces_get_one_card_each_and_no_blackjack():
    game, _ = dealt([A, 9, A, 7, K, K])
    game.decide("ann", Move.SPLIT, 100)
    events = game.advance(0)
    (split,) = of(events, Played)
    assert split.after.said == split.other.said == "soft 21"      # two 21s, not blackjacks
    assert pays(events) == {"ann": 40}                   # the dealer's 16 draws an ace: 17
    (s,) = of(events, Settlement)
    assert [ln.outcome.value for ln in s.lines] == ["won", "won"]


def test_split_aces_resplit_only_where_the_table_allows():
    game, _ = dealt([A, 9, A, 7, A, 5])
    game.decide("ann", Move.SPLIT, 100)
    events = game.advance(0)
    assert not of(events, Turn) or "split" not in of(events, Turn)[-1].moves
    game, _ = dealt([A, 9, A, 7, A, 5], resplit_aces=True)
    game.decide("ann", Move.SPLIT, 100)
    (turn,) = of(game.advance(0), Turn)
    assert turn.moves == ("stand", "split")


def test_splits_stop_at_max_hands_and_double_after_split_is_the_tables():
    game, _ = dealt([8, 9, 8, 7, 8, 8, 8, 8], max_hands=2, double_after_split=False)
    game.decide("ann", Move.SPLIT, 100)
    (turn,) = of(game.advance(0), Turn)
    assert turn.of == 2 and "split" not in turn.moves and "double" not in turn.moves
    assert "at most 2 hands" in of(game.decide("ann", Move.SPLIT, 100), BetRefused)[0].reason
    assert "after a split" in of(game.decide("ann", Move.DOUBLE, 100), BetRefused)[0].reason


def test_late_surrender_gives_half_back_after_the_peek():
    game, events = dealt([10, 9, 6, 7], surrender="late")
    assert "surrender" in of(events, Turn)[0].moves
    events = game.decide("ann", Move.SURRENDER, 100) + game.advance(0)
    assert pays(events) == {"ann": 5}
    assert "no surrender" in of(dealt([10, 9, 6, 7])[0].decide("ann", Move.SURRENDER, 100), BetRefused)[0].reason


def test_one_settlement_per_player_with_a_line_per_hand():
    game, _ = dealt([8, 10, 8, 7, 3, 10], players=("ann",))
    game.decide("ann", Move.SPLIT, 100)
    game.advance(0)
    game.decide("ann", Move.STAND, 100)
    events = game.decide("ann", Move.STAND, 100) + game.advance(0)
    assert len(of(events, Settle)) == 1
    (s,) = of(events, Settlement)
    assert len(s.lines) == 2 and s.staked == 20


def test_leaving_before_the_deal_refunds_and_mid_round_the_hands_stand():
    game = new(order=("ann", "bob"), timed=True)
    game.bet("ann", 10)
    events = game.leave("ann")
    assert of(events, Refund) and of(events, BetReturned) and game.phase is Phase.IDLE
    game, _ = dealt([10, 9, 10, 7, 10, 8], players=("ann", "bob"))
    events = game.leave("ann")
    assert of(events, Played)[0].did is Did.AWAY and of(events, Turn)[0].player == "bob"
    events = game.decide("bob", Move.STAND, 100) + game.advance(0)
    (settle,) = of(events, Settle)
    assert dict(settle.pays) == {"ann": 0, "bob": 20}          # ann's 17 stood and lost to 18
    assert [s.away for s in of(events, Settlement)] == [True, False]


def test_the_window_last_call_and_the_decision_clock_run_on_ticks():
    seats = ["ann", "bob"]
    game = new(order=seats, timed=True)
    stacked(game, [10, 9, 10, 7, 10, 8])
    game.bet("ann", 10)
    game.bet("bob", 10)
    assert of(game.advance(1), BetsOpen)
    assert not of(game.advance(6 * HZ), LastCall)
    assert of(game.advance(1 * HZ), LastCall)
    events = game.advance(3 * HZ)
    (turn,) = of(events, Turn)
    assert turn.player == "ann" and turn.seconds == 30
    game.advance(1)
    events = game.advance(30 * HZ)
    assert of(events, Played)[0].did is Did.TIMEOUT and of(events, Turn)[0].player == "bob"


def test_a_close_refunds_every_stake_of_the_round():
    game, _ = dealt([8, 9, 8, 7, 3, 10])
    game.decide("ann", Move.SPLIT, 100)
    events = game.close("shutdown")
    assert len(of(events, Refund)) == 2

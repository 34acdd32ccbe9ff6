"""Ride and collect, cents returned, the wallet limits, hold refusals, closing."""
from __future__ import annotations

from simplified_helpers import Wallet, game, of

from server.games.intents import Forfeit, Hold, Refund, Settle
from server.games.simplified.engine import Phase
from server.games.simplified.events import (
    Bet, BetPlaced, Closed, Collect, Collected, GameOver, HoldCancelled, Odds, Press, Refused,
    Ride, Roll)
from server.games.simplified.rules import Side


def test_ride_bets_stake_and_winnings_on_same_side():
    g, w = game([2, 12], bar=None), Wallet(100)
    w.apply(g.act(Bet(Side.DONT, "10"), w.chips))
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]
    assert over.ride == 20 and g.phase is Phase.WON
    events = w.apply(g.act(Ride(), w.chips))
    placed = of(events, BetPlaced)[0]
    assert (placed.side, placed.amount, placed.ride) == (Side.DONT, 20, True)
    assert of(events, Hold)[0].amount == 20 and w.chips == 90
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]    # no bar: 12 wins don't
    assert over.net == 20 and w.chips == 130


def test_ride_includes_odds_winnings():
    g, w = game([4, 4]), Wallet(100)
    w.apply(g.act(Bet(Side.PASS, "10"), w.chips))
    w.apply(g.act(Roll(), w.chips))
    w.apply(g.act(Odds("30"), w.chips))
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]
    assert over.paid == 10 + 10 + 30 + 60 and over.ride == 110
    assert of(g.act(Ride(), w.chips), BetPlaced)[0].amount == 110


def test_collect_ends_the_win_and_moves_nothing():
    g, w = game([7]), Wallet(100)
    w.apply(g.act(Bet(Side.PASS, "10"), w.chips))
    w.apply(g.act(Roll(), w.chips))
    events = g.act(Collect(), w.chips)
    assert events == [Collected(20)] and g.phase is Phase.BETTING and w.chips == 110
    assert "only right after a win" in of(g.act(Ride(), w.chips), Refused)[0].reason
    assert "nothing to collect" in of(g.act(Collect(), w.chips), Refused)[0].reason


def test_roll_after_win_asks_for_a_choice_and_bet_implies_collect():
    g, w = game([7, 7]), Wallet(100)
    w.apply(g.act(Bet(Side.PASS, "10"), w.chips))
    w.apply(g.act(Roll(), w.chips))
    assert "Ride, collect, or bet" in of(g.act(Roll(), w.chips), Refused)[0].reason
    assert of(w.apply(g.act(Bet(Side.PASS, "5"), w.chips)), BetPlaced)[0].amount == 5


def test_no_ride_after_a_loss_or_push():
    g, w = game([2, 12]), Wallet(100)
    w.apply(g.act(Bet(Side.PASS, "10"), w.chips))
    w.apply(g.act(Roll(), w.chips))
    assert of(g.act(Ride(), w.chips), Refused)
    w.apply(g.act(Bet(Side.DONT, "10"), w.chips))
    over = of(w.apply(g.act(Roll(), w.chips)), GameOver)[0]      # bar 12 push
    assert over.ride == 0 and of(g.act(Ride(), w.chips), Refused)


def test_ride_refused_over_max_bet_or_wallet():
    g, w = game([7], max_bet=15), Wallet(100)
    w.apply(g.act(Bet(Side.PASS, "10"), w.chips))
    w.apply(g.act(Roll(), w.chips))
    assert "over the table maximum 15" in of(g.act(Ride(), w.chips), Refused)[0].reason
    assert g.phase is Phase.WON
    g2, w2 = game([7]), Wallet(100)
    w2.apply(g2.act(Bet(Side.PASS, "10"), w2.chips))
    w2.apply(g2.act(Roll(), w2.chips))
    assert "needs 20 and you have 5" in of(g2.act(Ride(), 5), Refused)[0].reason


def test_cents_are_returned():
    g = game([7])
    events = g.act(Bet(Side.PASS, "10.36"), 100)
    placed = of(events, BetPlaced)[0]
    assert placed.amount == 10 and placed.returned == "0.36"
    assert placed.note == "0.36 returned, your wager is 10"
    assert of(events, Hold)[0].amount == 10


def test_wallet_running_out():
    g, w = game([2, 2, 2]), Wallet(25)
    assert "only 25 chips" in of(g.act(Bet(Side.PASS, "30"), w.chips), Refused)[0].reason
    w.apply(g.act(Bet(Side.PASS, "20"), w.chips))
    w.apply(g.act(Roll(), w.chips))                          # craps: lose 20
    assert w.chips == 5
    assert "only 5 chips" in of(g.act(Bet(Side.PASS, "10"), w.chips), Refused)[0].reason
    w.apply(g.act(Bet(Side.PASS, "5"), w.chips))
    w.apply(g.act(Roll(), w.chips))
    assert w.chips == 0
    reason = of(g.act(Bet(Side.PASS, "5"), w.chips), Refused)[0].reason
    assert reason == "You have only 0 chips; the minimum bet is 5."


def test_refusals_change_nothing():
    g = game([7])
    for action in (Roll(), Press(), Odds("10"), Ride(), Collect(), Bet(Side.PASS, "4"),
                   Bet(Side.PASS, "-5"), Bet(Side.PASS, "0"), Bet(Side.PASS, "x"),
                   Bet(Side.PASS, "2000")):
        before = dict(vars(g))
        events = g.act(action, 100)
        assert len(events) == 1 and isinstance(events[0], Refused)
        assert "\n" not in events[0].reason
        assert vars(g) == before
    g.act(Bet(Side.PASS, "10"), 100)
    assert "already bet 10 on pass" in of(g.act(Bet(Side.DONT, "10"), 100), Refused)[0].reason


def test_refused_flat_hold_cancels_the_game():
    g = game([7])
    key = of(g.act(Bet(Side.PASS, "10"), 100), Hold)[0].key
    assert g.hold_refused(key) == [HoldCancelled("bet", 10)]
    assert g.phase is Phase.BETTING and not g.stakes
    assert of(g.act(Roll(), 100), Refused)
    assert g.hold_refused(key) == []                     # stale: nothing to undo


def test_refused_press_and_odds_holds_are_undone():
    g = game([6, 6])
    g.act(Bet(Side.PASS, "10"), 100)
    g.act(Roll(), 100)
    press_key = of(g.act(Press(), 100), Hold)[0].key
    odds_key = of(g.act(Odds("50"), 100), Hold)[0].key
    assert g.hold_refused(press_key) == [HoldCancelled("press", 10)]
    assert g.hold_refused(odds_key) == [HoldCancelled("odds", 50)]
    over = of(g.act(Roll(), 100), GameOver)[0]
    assert (over.flat, over.odds, over.paid) == (10, 0, 20)


def test_close_refunds_or_forfeits_live_stakes():
    g = game([6])
    g.act(Bet(Side.PASS, "10"), 100)
    g.act(Roll(), 100)
    g.act(Odds("25"), 100)
    events = g.close(forfeit=False)
    assert len(of(events, Refund)) == 2 and of(events, Closed) == [Closed(35, 0)]
    assert g.phase is Phase.BETTING and not g.stakes
    g2 = game([6])
    g2.act(Bet(Side.PASS, "10"), 100)
    events = g2.close(forfeit=True)
    assert len(of(events, Forfeit)) == 1 and of(events, Closed) == [Closed(0, 10)]
    assert not of(events, Settle)

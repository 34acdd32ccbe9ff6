"""Commands at the wheel: bets and limits, unbet, refused holds, leaving,
shutdown, one settlement per spin and the order of intents and facts."""
import pytest
from roulette_helpers import HZ, Pockets, hold_key, kinds, new, of

from server.games.intents import Hold, Refund, Settle
from server.games.roulette import Bet, Kind, Phase, RouletteOptions, RouletteWheel, parse
from server.games.roulette.events import (
    BetAccepted, BetCancelled, BetRefused, BetRemoved, BetsRide, Line, Outcome, Settlement,
    UnbetRefused, WheelClosed,
)


def test_bet_holds_then_accepts():
    w = new(table_id="run1:wheel")
    events = w.bet("ann", "bet split 17 20 5")
    assert kinds(events) == ["Hold", "BetAccepted"]
    hold, accepted = events
    assert hold == Hold("run1:wheel:1", "ann", 5)
    assert accepted.wager.handle == hold.key and accepted.wager.name == "split 17 20"
    assert accepted.wager.bet == Bet(Kind.SPLIT, frozenset({17, 20}), 5) and accepted.note is None
    assert w.bets_of("ann") == [accepted.wager]


def test_cents_note_travels_with_the_acceptance():
    (_, accepted) = new().bet("ann", "red 10.36")
    assert accepted.note == "0.36 returned, your wager is 10" and accepted.wager.bet.amount == 10


def test_limits_per_wager():
    w = new(min_bet=5, max_bet=100)
    assert w.bet("ann", "red 4") == [BetRefused("ann", "the table minimum is 5 a wager")]
    assert w.bet("ann", "red 101") == [BetRefused("ann", "the table maximum is 100 a wager")]
    assert w.bet("ann", "red 4.99") == [BetRefused("ann", "the table minimum is 5 a wager")]
    assert kinds(w.bet("ann", "red 100")) == ["Hold", "BetAccepted"]
    assert kinds(w.bet("ann", "straight 0 5")) == ["Hold", "BetAccepted"]
    assert w.bet("ann", "split 17 22 5")[0].reason.startswith("17 and 22 are not next to each other")


def test_a_bet_object_is_checked_like_typed_words():
    w = new(max_bet=50)
    assert kinds(w.bet("ann", parse("corner 17 21 50"))) == ["Hold", "BetAccepted"]
    assert w.bet("ann", Bet(Kind.CORNER, frozenset({17, 18, 19, 20}), 5)) == [
        BetRefused("ann", "corner does not cover 17 18 19 20")]
    assert w.bet("ann", parse("red 51"))[0].reason == "the table maximum is 50 a wager"


def test_unbet_by_number_name_kind_and_all():
    w = new()
    for words in ("red 10", "split 17 20 5", "split 1 2 5", "corner 17 21 5", "black 3"):
        w.bet("ann", words)
    handles = [x.handle for x in w.bets_of("ann")]
    events = w.unbet("ann", "2")
    assert kinds(events) == ["Refund", "BetRemoved"]
    assert events[0].stake == handles[1] and events[1].wager.name == "split 17 20"
    assert [x.name for x in w.bets_of("ann")] == ["red", "split 1 2", "corner 17 21", "black"]
    assert kinds(w.unbet("ann", "corner 18 20")) == ["Refund", "BetRemoved"]      # same pockets
    assert of(w.unbet("ann", "split"), BetRemoved)[0].wager.name == "split 1 2"
    assert w.unbet("ann", "9") == [UnbetRefused("ann", "you have no bet number 9; 'bets' lists your 2")]
    assert w.unbet("ann", "dozen 2") == [UnbetRefused("ann", "you have no dozen 2 bet on the layout")]
    assert w.unbet("ann", "¹")[0].reason == "'¹' is not a bet; unbet takes a number from 'bets', a bet's name or all"
    assert kinds(w.unbet("ann", "ALL")) == ["Refund", "BetRemoved"] * 2
    assert w.unbet("ann", "all") == [UnbetRefused("ann", "you have no bets on the layout")]
    assert w.unbet("bob", 1) == [UnbetRefused("bob", "you have no bets on the layout")]


def test_unbet_only_touches_the_players_own_bets():
    w = new()
    w.bet("ann", "red 10")
    w.bet("bob", "red 10")
    w.unbet("ann", "red")
    assert [x.player for x in w.wagers] == ["bob"]


def test_hold_refused_cancels_the_wager():
    w = new([1], spin_seconds=0)
    key = hold_key(w.bet("ann", "red 10"))
    w.bet("ann", "black 5")
    events = w.hold_refused(key, "not enough chips in your wallet")
    assert len(events) == 1 and isinstance(events[0], BetCancelled)
    assert events[0].reason == "not enough chips in your wallet" and events[0].wager.handle == key
    assert [x.name for x in w.bets_of("ann")] == ["black"]
    assert w.hold_refused(key) == [] and w.hold_refused("nope") == []
    settle = of(w.spin("ann", True), Settle)[0]
    assert key not in settle.stakes and len(settle.stakes) == 1


def test_one_settle_per_spin_and_one_settlement_per_player():
    w = new([20])
    ann = [hold_key(w.bet("ann", words)) for words in ("split 17 20 5", "red 10", "even 4", "dozen 2 3")]
    bob = [hold_key(w.bet("bob", words)) for words in ("straight 0 1", "column 1 2")]
    cy = [hold_key(w.bet("cy", "black 7"))]
    events = w.advance(23 * HZ, True)
    assert kinds(events)[-5:] == ["BallDropped", "Settle", "Settlement", "Settlement", "Settlement"]
    (settle,) = of(events, Settle)
    assert settle.stakes == tuple(ann + bob + cy)
    assert settle.pays == (("ann", 90 + 0 + 8 + 9), ("bob", 0), ("cy", 14))   # bob won nothing: listed with 0
    a, b, c = of(events, Settlement)
    assert (a.player, a.staked, a.paid, a.net, a.away) == ("ann", 22, 107, 85, False)
    assert [ln.wager.name for ln in a.won] == ["split 17 20", "even", "dozen 2"]
    assert [ln.wager.name for ln in a.lost] == ["red"]
    assert (b.player, b.won, b.paid, b.net) == ("bob", (), 0, -3)
    assert (c.player, c.paid, c.net, c.pocket, c.spin) == ("cy", 14, 7, 20, 1)


def test_la_partage_halves_even_money_on_zero():
    w = new([0], la_partage=True, spin_seconds=0)
    w.bet("ann", "red 11")
    w.bet("ann", "dozen 1 10")
    w.bet("ann", "split 0 1 2")
    events = w.spin("ann", True)
    assert of(events, Settle)[0].pays == (("ann", 5 + 36),)
    (s,) = of(events, Settlement)
    assert [(ln.wager.name, ln.outcome, ln.returned) for ln in s.lost] == [
        ("red", Outcome.HALF, 5), ("dozen 1", Outcome.LOST, 0)]
    assert s.won[0] == Line(s.won[0].wager, Outcome.WON, 36) and s.net == 41 - 23


def test_leaving_bets_ride_and_are_paid_to_the_wallet():
    w = new([7])
    w.bet("ann", "straight 7 10")
    w.bet("bob", "red 5")
    w.advance(5, True)
    events = w.leave("ann")
    assert events == [BetsRide("ann", tuple(w.bets_of("ann")), disconnected=False)]
    assert w.away == {"ann"}
    assert w.advance(10**5, False) == [] and w.phase is Phase.IDLE     # bob alone: never forced
    events = w.spin("bob", True) + w.advance(3 * HZ)
    assert of(events, Settle)[0].pays == (("ann", 360), ("bob", 10))
    ann, bob = of(events, Settlement)
    assert ann.away and not bob.away and ann.paid == 360
    assert w.away == frozenset()


def test_riding_bets_alone_on_the_layout_are_spun_anyway():
    """Nobody is seated any more: time drives the wheel so the bets are settled."""
    w = new([23])
    w.bet("ann", "red 10")
    assert w.disconnect("ann")[0].disconnected is True
    events = w.advance(23 * HZ, multiplayer=False)
    assert kinds(events) == ["BetsOpen", "LastCall", "NoMoreBets", "BallDropped", "Settle", "Settlement"]
    assert of(events, Settlement)[0].away and of(events, Settle)[0].pays == (("ann", 20),)


def test_leaving_without_bets_says_nothing_and_coming_back_clears_away():
    w = new()
    assert w.leave("ann") == [] and w.disconnect("ann") == []
    w.bet("ann", "red 10")
    w.leave("ann")
    w.rejoin("ann")
    assert w.away == frozenset()
    w.leave("ann")
    w.bet("ann", "black 10")                                  # betting again means being here
    assert w.away == frozenset()


def test_close_refunds_every_bet_not_yet_spun():
    w = new()
    keys = [hold_key(w.bet(p, "red 10")) for p in ("ann", "bob", "ann")]
    w.advance(20 * HZ, True)                                  # no more bets: the ball is in the air
    assert w.phase is Phase.SPINNING
    events = w.close("shutdown")
    assert kinds(events) == ["Refund", "Refund", "Refund", "WheelClosed"]
    assert [e.stake for e in of(events, Refund)] == keys
    assert events[-1] == WheelClosed("shutdown", events[-1].refunded) and len(events[-1].refunded) == 3
    assert w.phase is Phase.CLOSED and w.wagers == ()
    assert w.close("again") == [] and w.advance(10**5, True) == []
    assert w.bet("ann", "red 1") == [BetRefused("ann", "the table is closed")]
    assert w.spin("ann", True)[0].reason == "the table is closed"


def test_intents_come_before_the_facts_that_rely_on_them():
    w = new([17], spin_seconds=0)
    events = w.bet("ann", "red 5") + w.bet("ann", "black 5") + w.unbet("ann", "1") + w.spin("ann", True)
    assert kinds(events) == ["Hold", "BetAccepted", "Hold", "BetAccepted", "Refund", "BetRemoved",
                             "NoMoreBets", "BallDropped", "Settle", "Settlement"]


def test_keys_are_unique_and_carry_the_table_id():
    w = new([1, 2, 3], table_id="run9:r1", spin_seconds=0)
    keys = []
    for _ in range(3):
        events = w.bet("ann", "red 5") + w.bet("ann", "odd 5") + w.unbet("ann", "2") + w.spin("ann", True)
        keys += [e.key for e in events if isinstance(e, (Hold, Refund, Settle))]
    keys += [e.key for e in w.bet("ann", "red 5") + w.close() if isinstance(e, (Hold, Refund))]
    assert len(keys) == len(set(keys)) == 14 and all(k.startswith("run9:r1:") for k in keys)


def test_call_wording():
    assert RouletteWheel.call(0) == "0 green"
    assert new().call(17) == "17 black, odd, low, second dozen, second column"
    assert new().call(36) == "36 red, even, high, third dozen, third column"


def test_bad_setup_is_refused_at_once():
    with pytest.raises(ValueError, match="max_bet"):
        RouletteWheel(RouletteOptions(min_bet=10, max_bet=5), Pockets([]), HZ, "t")
    with pytest.raises(ValueError, match="last_call"):
        RouletteWheel(RouletteOptions(bet_window=5, last_call=5), Pockets([]), HZ, "t")
    with pytest.raises(ValueError, match="tick_hz"):
        RouletteWheel(RouletteOptions(), Pockets([]), 0, "t")
    w = new([37], spin_seconds=0)
    w.bet("ann", "red 1")
    with pytest.raises(ValueError, match="not a pocket"):
        w.spin("ann", True)


def test_options_problems_are_one_line_reasons():
    assert RouletteOptions().problems() == []
    assert RouletteOptions(min_bet=0, la_partage="yes", spin_seconds=-1).problems() == [
        "min_bet must be a whole number of chips, at least 1 (got 0)",
        "la_partage must be true or false (got 'yes')",
        "spin_seconds must be seconds between 0 and 3600 (got -1)",
    ]


def test_accepted_facts_name_the_wager():
    (_, accepted) = new().bet("ann", "street 14 5")
    assert isinstance(accepted, BetAccepted) and accepted.wager.name == "street 13"

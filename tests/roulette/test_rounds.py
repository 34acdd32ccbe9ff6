"""The rounds, driven by ticks (10 a second): idle, window, last call, no more
bets, ball drop; solo spins; a solo player is never forced."""
from roulette_helpers import HZ, kinds, new, of

from server.games.intents import Settle
from server.games.roulette import Phase
from server.games.roulette.events import (
    BallDropped, BetRefused, BetsOpen, LastCall, NoMoreBets, Settlement, SpinRefused, UnbetRefused,
)

WINDOW, CALL, SPIN = 20 * HZ, 5 * HZ, 3 * HZ


def two_bets(w):
    w.bet("ann", "red 10")
    w.bet("bob", "straight 17 5")


def test_idle_without_bets():
    w = new()
    assert w.advance(100_000, multiplayer=True) == [] and w.advance(100_000) == []
    assert w.phase is Phase.IDLE and w.seconds_left is None


def test_the_whole_round_tick_by_tick():
    w = new([17])
    two_bets(w)
    assert w.advance(1, multiplayer=True) == [BetsOpen(1, 20)]
    assert w.phase is Phase.BETTING and w.seconds_left == 20
    assert w.advance(WINDOW - CALL - 2, True) == []           # 51 ticks left
    assert w.advance(1, True) == [LastCall(1, 5)]              # 50 ticks left: 5 s
    assert w.seconds_left == 5
    assert w.advance(CALL - 1, True) == []
    assert w.advance(1, True) == [NoMoreBets(1, 3)]
    assert w.phase is Phase.SPINNING and w.seconds_left == 3
    assert of(w.bet("cy", "red 5"), BetRefused)[0].reason == "no more bets: no bets until the ball drops"
    assert of(w.unbet("ann", "all"), UnbetRefused)[0].reason == "no more bets: no removals until the ball drops"
    assert w.advance(SPIN - 1, True) == []
    events = w.advance(1, True)
    assert kinds(events) == ["BallDropped", "Settle", "Settlement", "Settlement"]
    assert events[0] == BallDropped(1, 17, "black", "17 black, odd, low, second dozen, second column")
    assert w.phase is Phase.IDLE and w.wagers == () and w.history == (17,) and w.spins == 1
    assert w.advance(100_000, True) == []                      # idle again: nobody has a bet


def test_last_call_exactly_once_even_when_time_jumps():
    for step in (1, 7, 60, 10_000):
        w = new([3] * 10)
        two_bets(w)
        events = []
        for _ in range((WINDOW + SPIN) // step + 2):
            events += w.advance(step, True)
        assert len(of(events, LastCall)) == 1 and len(of(events, NoMoreBets)) == 1, step
        assert kinds(events)[:3] == ["BetsOpen", "LastCall", "NoMoreBets"]
        assert len(of(events, BallDropped)) == 1


def test_more_bets_never_extend_the_window():
    w = new([5])
    two_bets(w)
    w.advance(WINDOW - 10, True)
    w.bet("cy", "black 5")
    assert kinds(w.advance(10, True)) == ["NoMoreBets"]


def test_no_last_call_when_configured_off():
    w = new([5], last_call=0)
    two_bets(w)
    assert kinds(w.advance(WINDOW + SPIN, True)) == ["BetsOpen", "NoMoreBets", "BallDropped", "Settle",
                                                      "Settlement", "Settlement"]


def test_solo_is_never_forced_and_spins_at_once():
    w = new([0])
    w.bet("ann", "red 10")
    assert w.advance(10**6) == [] and w.phase is Phase.IDLE
    assert w.spin("ann", solo=True) == [NoMoreBets(1, 3)]
    assert w.phase is Phase.SPINNING
    assert w.advance(SPIN - 1) == []
    events = w.advance(1)
    assert kinds(events) == ["BallDropped", "Settle", "Settlement"]
    assert of(events, Settlement)[0].net == -10
    assert of(events, Settle)[0].pays == (("ann", 0),)


def test_solo_spin_with_no_ball_delay_settles_in_the_same_call():
    w = new([1], spin_seconds=0)
    w.bet("ann", "red 10")
    events = w.spin("ann", solo=True)
    assert kinds(events) == ["NoMoreBets", "BallDropped", "Settle", "Settlement"]
    assert of(events, Settle)[0].pays == (("ann", 20),)


def test_spin_refusals():
    w = new([4])
    assert w.spin("ann", True) == [SpinRefused("ann", "place a bet first, then spin")]
    w.bet("ann", "red 10")
    w.bet("bob", "red 10")
    assert w.spin("ann", False) == [SpinRefused(
        "ann", "others are at the wheel: it spins by itself when the betting window closes")]
    w.spin("ann", True)
    assert w.spin("ann", True) == [SpinRefused("ann", "the ball is already spinning")]


def test_a_solo_player_who_was_in_a_window_is_not_forced():
    w = new([9, 9])
    two_bets(w)
    w.advance(WINDOW // 2, True)
    assert w.advance(10**6, multiplayer=False) == [] and w.phase is Phase.IDLE
    assert w.advance(1, True) == [BetsOpen(1, 20)]              # back to two: a fresh window
    assert kinds(w.advance(WINDOW, True))[:2] == ["LastCall", "NoMoreBets"]


def test_window_stops_when_every_bet_is_taken_down():
    w = new()
    w.bet("ann", "red 10")
    w.advance(5, True)
    w.unbet("ann", "all")
    assert w.advance(10**5, True) == [] and w.phase is Phase.IDLE


def test_multiplayer_spin_is_driven_by_ticks_only():
    w = new([12, 30])
    two_bets(w)
    w.advance(WINDOW + SPIN, True)
    w.bet("ann", "dozen 3 10")
    events = w.advance(WINDOW + SPIN, True)
    assert of(events, BetsOpen) == [BetsOpen(2, 20)] and of(events, BallDropped)[0].spin == 2
    assert w.history == (30, 12)


def test_history_keeps_the_last_20_newest_first():
    w = new(range(25), spin_seconds=0)
    for _ in range(25):
        w.bet("ann", "red 1")
        w.spin("ann", True)
    assert w.history == tuple(range(24, 4, -1)) and w.spins == 25

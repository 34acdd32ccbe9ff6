"""The bank craps table's seats, queue and timing, driven by ticks (no network)."""
from __future__ import annotations

from pathlib import Path

import pytest

from server.config.load import load_config
from server.games.craps import events as ev
from server.games.intents import Forfeit, Hold, Refund, Settle
from server.games.craps.dealer import BankCrapsDealer
from server.games.craps.events import (LastCall, RollSettlement, ShooterUp,
                                       WindowClosed, WindowOpened)
from server.games.seam import Note
from support.dice import TableDice
from support.pure_table import PureTable

ROOT = Path(__file__).resolve().parents[2]
HZ = 10
WINDOW, LAST_CALL, SHOOTER, AUTO = 10 * HZ, 3 * HZ, 60 * HZ, 3 * HZ


def table(*rolls) -> BankCrapsDealer:
    config = load_config(ROOT / "config", ROOT / "rooms").tables["bank_craps"]
    t = PureTable(config, HZ, TableDice(rolls))
    return t


def kinds(events, kind):
    return [e for e in events if isinstance(e, kind)]


def rolled(events):
    return [e.dice for e in kinds(events, ev.Rolled)]


def notes(events, player=None):
    return " | ".join(e.text for e in kinds(events, Note) if player is None or e.to is None or player in e.to)


def test_solo_rolls_at_once_and_is_never_forced():
    t = table((3, 4))
    t.sit("ann", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    assert t.advance(10 * SHOOTER) == []            # nobody forces a solo shooter
    out = t.act("ann", ["roll"], 1000)
    assert rolled(out) == [(3, 4)]
    assert kinds(out, RollSettlement)[0].net == 10


def test_multiplayer_window_last_call_shooter_deadline_then_dealer_rolls():
    t = table((2, 2), (5, 6))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    # ann never types `roll` here (a `roll` in the window is kept and thrown
    # when it closes: test_a_roll_typed_in_the_window_is_kept...), so the
    # shooter's deadline runs out and the dealer rolls.
    assert kinds(t.act("bob", ["bet", "field", "5"], 1000), WindowOpened) == [WindowOpened("ann", 10)]
    out = t.advance(WINDOW - LAST_CALL - 1)
    assert not kinds(out, LastCall)
    out = t.advance(1)
    assert kinds(out, LastCall) == [LastCall(3)]
    out = t.advance(LAST_CALL - 1)
    assert not kinds(out, WindowClosed) and not kinds(out, LastCall)
    out = t.advance(1)
    assert kinds(out, WindowClosed) == [WindowClosed("ann", 60)]
    t.act("ann", ["bet", "pass", "10"], 1000)       # bets stay open until the dice fly
    out = t.advance(SHOOTER - 1)
    assert rolled(out) == []
    out = t.advance(1)
    assert rolled(out) == [(2, 2)]
    assert "The dealer" in str(out) or any(getattr(e, "dealer", False) for e in out)


def test_shooter_may_roll_once_the_window_closes():
    t = table((6, 6))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)
    assert rolled(out) == [(6, 6)]
    assert "bob is the shooter" not in notes(t.act("bob", ["roll"], 1000))
    assert "ann is the shooter" in notes(t.act("bob", ["roll"], 1000))


def test_a_roll_is_one_settlement_and_each_player_still_sees_their_own_line():
    """One Settle for the whole roll; the per-player RollSettlement facts are as before,
    and a settlement pending recovery would be reported to every player it closes
    stakes of, the one who only lost included, and to nobody else."""
    t = table((6, 6))
    for p in ("ann", "bob", "cat"):
        t.sit(p, 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)      # craps 12: lost
    t.act("ann", ["bet", "dp", "10"], 1000)        # bar 12: push
    t.act("bob", ["bet", "field", "5"], 1000)      # 12 pays 3:1 at this table
    t.act("cat", ["bet", "place", "6", "12"], 1000)   # off on the come-out: undecided
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)
    [settle] = kinds(out, Settle)
    assert not kinds(out, Refund) and len(settle.stakes) == 3
    assert dict(settle.pays) == {"ann": 10, "bob": 20}
    assert out.index(settle) < min(out.index(r) for r in kinds(out, RollSettlement))
    assert kinds(out, RollSettlement) == [
        RollSettlement("ann", (), (("pass", 10),), (("dontpass", 10),), 0),
        RollSettlement("bob", (("field", 15),), (), (), 0)]
    assert sorted(p for p, _ in settle.pays) == ["ann", "bob"]     # whom the host tells if it is pending


def test_no_live_bets_pauses_the_table():
    t = table((1, 2))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    assert t.advance(WINDOW + SHOOTER + 50) == []
    t.act("ann", ["bet", "pass", "10"], 1000)
    out = t.advance(WINDOW)
    assert kinds(out, WindowClosed)


def test_second_player_starts_a_fresh_window_and_wagers_never_extend_it():
    t = table((3, 3))
    t.sit("ann", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.advance(50)                                   # solo: nothing runs
    t.sit("bob", 1000)                              # now a fresh 10 s window
    out = t.advance(WINDOW - 1)
    assert not kinds(out, WindowClosed)
    t.act("bob", ["bet", "field", "5"], 1000)       # a wager late in the window
    t.sit("cat", 1000)                              # a third player: no fresh window
    out = t.advance(1)
    assert kinds(out, WindowClosed)


def test_seven_out_moves_the_shooter_to_the_tail_point_made_keeps_them():
    t = table((3, 3), (4, 2), (5, 1), (3, 4))
    for p in ("ann", "bob", "cat"):
        t.sit(p, 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.advance(WINDOW)
    t.act("ann", ["roll"], 1000)                   # point 6
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)              # 6: point made, ann keeps the dice
    assert kinds(out, ev.PointMade)
    assert t.shooter() == "ann"
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.advance(WINDOW)
    t.act("ann", ["roll"], 1000)                   # point 6 again
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)              # seven out
    assert kinds(out, ev.SevenOut)
    assert t.seated() == ["bob", "cat", "ann"] and t.shooter() == "bob"
    assert ShooterUp("bob") in out
    assert t.dice.rotations == 1                    # a shooter hand ended: seeds rotate


def test_sitting_out_players_are_skipped_and_can_come_back():
    t = table()
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["sitout"], 1000)
    assert t.shooter() == "bob"
    assert "sitting out" in notes(t.act("ann", ["bet", "pass", "5"], 1000))
    t.sit("ann", 1000)
    assert t.shooter() == "bob" and t._multiplayer()        # back at the tail: bob keeps the dice
    assert t.seated() == ["bob", "ann"]


def test_departing_shooter_hand_continues_with_point_and_bonus_progress():
    t = table((2, 2), (3, 3), (6, 6), (4, 4))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("bob", ["bet", "fire", "5"], 1000)
    t.act("bob", ["bet", "small", "5"], 1000)
    t.advance(WINDOW)
    t.act("ann", ["roll"], 1000)                    # point 4 (ann has no bets)
    t.advance(WINDOW)
    t.act("ann", ["roll"], 1000)                    # 6
    out = t.leave("ann")                            # no live bets: gone at once
    assert "ann leaves" in notes(out) and ShooterUp("bob") in out
    assert t.state.point == 4 and t.state.view.hits & (1 << 6) and t.state.view.hits & (1 << 4)
    out = t.act("bob", ["roll"], 1000)              # solo now: bob rolls the same hand
    assert rolled(out) == [(6, 6)] and t.state.point == 4


def test_leave_waits_for_the_last_live_bet():
    t = table((4, 5), (4, 5))
    t.sit("ann", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["roll"], 1000)                    # point 9: the pass bet is a contract now
    assert "once your live bets are decided" in notes(t.leave("ann"))
    assert "no new bets" in notes(t.act("ann", ["bet", "field", "5"], 1000))
    assert t.seated() == ["ann"]
    out = t.act("ann", ["roll"], 1000)              # 9: point made, the bet is decided
    assert "ann leaves the table" in notes(out)
    assert t.seated() == []


def test_stop_in_manual_mode_keeps_the_seat():
    t = table()
    t.sit("ann", 1000)
    out = notes(t.act("ann", ["stop"], 1000))
    assert "Autoroll is not running" in out and "ann leaves" not in out
    assert t.seated() == ["ann"]


def test_autoroll_rolls_every_three_seconds_and_stops_when_bets_are_done():
    t = table((3, 3), (2, 2), (3, 4))
    t.sit("ann", 1000)
    assert "bet first" in notes(t.act("ann", ["autoroll"], 1000))
    t.act("ann", ["bet", "pass", "10"], 1000)
    assert "Autoroll on" in notes(t.act("ann", ["autoroll"], 1000))
    assert rolled(t.advance(AUTO - 1)) == []
    assert rolled(t.advance(1)) == [(3, 3)]
    assert rolled(t.advance(AUTO)) == [(2, 2)]
    out = t.advance(AUTO)
    assert rolled(out) == [(3, 4)]                  # seven out: the pass bet is done
    assert "autoroll stops" in notes(out)
    assert rolled(t.advance(10 * AUTO)) == []


def test_stop_cancels_autoroll_at_once_and_keeps_seat_and_bets():
    t = table((3, 3))
    t.sit("ann", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["autoroll"], 1000)
    assert "Autoroll off" in notes(t.act("ann", ["stop"], 1000))
    assert rolled(t.advance(10 * AUTO)) == []
    assert t.seated() == ["ann"] and len(t.state.bets_of("ann")) == 1


def test_autoroll_in_multiplayer_respects_the_window():
    t = table((3, 3), (2, 2))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["autoroll"], 1000)
    assert rolled(t.advance(WINDOW)) == []           # the window holds the dice
    assert rolled(t.advance(1)) == [(3, 3)]
    assert rolled(t.advance(WINDOW)) == []
    assert rolled(t.advance(1)) == [(2, 2)]


def test_disconnect_forfeits_live_bets_and_passes_the_dice():
    t = table()
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["bet", "field", "5"], 1000)
    out = t.disconnect("ann")
    assert len(kinds(out, Forfeit)) == 2
    assert t.seated() == ["bob"] and ShooterUp("bob") in out


def test_shutdown_refunds_every_stake():
    t = table()
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    holds = kinds(t.act("ann", ["bet", "pass", "10"], 1000) + t.act("bob", ["bet", "dp", "10"], 1000), Hold)
    out = t.close("closing")
    assert sorted(r.stake for r in kinds(out, Refund)) == sorted(h.key for h in holds)


def test_full_table_refuses_a_seat():
    t = table()
    for i in range(t.config.max_players):
        t.sit(f"p{i}", 1000)
    assert "full" in notes(t.sit("late", 1000))


@pytest.mark.parametrize("words,reason", [
    (["bet", "pass", "0"], "cannot be zero"),
    (["bet", "pass", "20000"], "maximum"),
    (["bet", "place", "6", "10"], "multiples of 6"),
    (["bet", "come", "10"], "waits for a point"),
    (["bet", "nonsense", "10"], ""),
])
def test_refused_bets_change_nothing(words, reason):
    t = table()
    t.sit("ann", 1000)
    out = t.act("ann", words, 1000)
    refused = kinds(out, ev.BetRefused)
    assert refused and reason in refused[0].reason
    assert not kinds(out, Hold) and t.state.wagers == {}


def test_a_player_whose_sitout_waits_on_bets_is_never_handed_the_dice():
    """Issue 28 item 11: bob's sit-out waits on his place bet; ann sevens out.
    The dice go straight to cat: bob is never announced as the shooter only
    to sit out a moment later."""
    t = table((3, 3), (3, 4))
    for p in ("ann", "bob", "cat"):
        t.sit(p, 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("bob", ["bet", "place", "8", "12"], 1000)
    t.advance(WINDOW)
    t.act("ann", ["roll"], 1000)                   # point 6; bob's place 8 is working
    assert "once your live bets are decided" in notes(t.act("bob", ["sitout"], 1000), "bob")
    assert t.shooter() == "ann"                     # the hand's shooter keeps the dice
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)              # seven out: bob's place 8 loses, he sits out
    assert kinds(out, ev.SevenOut)
    assert ShooterUp("bob") not in out and ShooterUp("cat") in out
    assert t.shooter() == "cat" and t.seating.seat("bob").sitting_out


def test_the_window_counts_one_second_in_the_singular():
    t = table()
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.advance(WINDOW - HZ)                          # one second of the window left
    assert "Your roll is kept: you roll when bets close, in 1 second." in notes(t.act("ann", ["roll"], 1000))


# --- issue 38 item 6: the hand-off, the window's opening, a roll in the window ---
def test_a_roll_typed_in_the_window_is_kept_and_thrown_when_it_closes():
    """The shooter types `roll` once: kept, the window runs its full length
    (bets stay open, a last call sounds), then the dice fly at its close:
    no "you may roll now", no deadline, no dealer."""
    t = table((2, 2))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("bob", ["bet", "field", "5"], 1000)
    assert notes(t.act("ann", ["roll"], 1000), "ann") == "Your roll is kept: you roll when bets close, in 10 seconds."
    out = t.advance(WINDOW - 1)
    assert rolled(out) == [] and kinds(out, LastCall) == [LastCall(3)]
    t.act("bob", ["bet", "any7", "5"], 1000)             # bets stay open while the roll waits
    out = t.advance(1)
    assert rolled(out) == [(2, 2)] and not kinds(out, WindowClosed)
    assert [e for e in kinds(out, ev.Throw)] == [ev.Throw("ann", False)]
    assert len(kinds(out, RollSettlement)) == 1 and not t.state.wagers     # bob's field and any 7 decided
    assert rolled(t.advance(WINDOW + SHOOTER)) == []      # one roll kept, one thrown


def test_a_kept_roll_goes_with_the_dice():
    """ann keeps a roll, then sits out while her bet rides: bob has the dice,
    and the window's close asks him to roll; ann's roll is not thrown for him."""
    t = table((3, 3))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["bet", "field", "5"], 1000)
    t.act("ann", ["roll"], 1000)                          # kept
    t.leave("ann", "sitout")                              # waits on her field bet
    out = t.advance(WINDOW)
    assert rolled(out) == [] and kinds(out, WindowClosed) == [WindowClosed("bob", 60)]


def test_a_kept_roll_flies_at_once_when_the_table_goes_solo():
    t = table((3, 3))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["roll"], 1000)                          # kept
    t.leave("bob")                                        # no bets: up at once, ann is alone
    assert rolled(t.advance(1)) == [(3, 3)]               # no window holds the kept roll now


def test_the_window_opening_is_said_once_per_window():
    t = table((3, 3))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    assert kinds(t.act("ann", ["bet", "pass", "10"], 1000), WindowOpened) == [WindowOpened("ann", 10)]
    assert not kinds(t.act("bob", ["bet", "field", "5"], 1000), WindowOpened)
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)                    # point 6: pass stays live, a new window opens
    assert kinds(out, WindowOpened) == [WindowOpened("ann", 10)]
    assert out.index(kinds(out, WindowOpened)[0]) > out.index(kinds(out, RollSettlement)[0])


def test_a_solo_table_and_a_table_with_no_bets_announce_no_window():
    t = table()
    t.sit("ann", 1000)
    assert not kinds(t.act("ann", ["bet", "pass", "10"], 1000), WindowOpened)
    u = table()
    u.sit("ann", 1000)
    assert not kinds(u.sit("bob", 1000), WindowOpened)     # nothing live: the table waits


def test_the_next_shooter_is_told_at_once_when_the_shooter_sits_out_with_live_bets():
    """ann's sit-out waits on her pass bet: bob has the dice now and is told
    now; ann calling it off ('play craps') takes them back, said at once."""
    t = table((3, 3))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.advance(WINDOW)
    t.act("ann", ["roll"], 1000)                          # point 6, ann's pass is live
    out = t.leave("ann", "sitout")
    assert "once your live bets are decided" in notes(out, "ann")
    assert ShooterUp("bob") in out and t.shooter() == "bob"
    out = t.sit("ann", 1000)                              # she stays after all
    assert "You stay at the table." in notes(out, "ann") and ShooterUp("ann") in out

"""A High Point table's seats, queue and timing, driven by ticks (no network):
a win keeps the dice, a loss passes them on (docs/play-craps-variants.md "High Point craps"), with
bank craps' windows, last call, dealer roll, autoroll, leave, disconnect and
shutdown unchanged."""
from __future__ import annotations

from server.config.model import TableConfig
from server.games.craps import events as ev
from server.games.craps.events import LastCall, RollSettlement, ShooterUp, WindowClosed
from server.games.craps.options import CrapsOptions
from server.games.intents import Forfeit, Hold, Refund
from server.games.seam import HandResult, Note, Viewer
from server.render.prefs import Prefs
from support.dice import TableDice
from support.pure_table import PureTable

HZ = 10
WINDOW, LAST_CALL, SHOOTER, AUTO = 10 * HZ, 3 * HZ, 60 * HZ, 3 * HZ


def table(*rolls):
    config = TableConfig("high_point_craps", "craps", 12, 1, 10_000, CrapsOptions(variant="high_point"))
    return PureTable(config, HZ, TableDice(rolls))


def kinds(events, kind):
    return [e for e in events if isinstance(e, kind)]


def rolled(events):
    return [e.dice for e in kinds(events, ev.Rolled)]


def notes(events, player=None):
    return " | ".join(e.text for e in kinds(events, Note) if player is None or e.to is None or player in e.to)


def text(t, events, player):
    return [line for e in events for line in t.render(e, Viewer(player, Prefs(), True))]


def test_a_win_keeps_the_dice_and_a_loss_passes_them_on():
    t = table((1, 2), (2, 2), (3, 3), (3, 4), (2, 3))
    for p in ("ann", "bob", "cat"):
        t.sit(p, 1000)
    t.act("ann", ["bet", "high", "10"], 1000)
    t.act("bob", ["bet", "pass", "10"], 1000)
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)                       # 3: no decision
    assert not kinds(out, RollSettlement) and t.shooter() == "ann"
    t.advance(WINDOW)
    t.act("ann", ["roll"], 1000)                             # point 4
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)                       # 6 beats 4: a win, ann keeps the dice
    assert kinds(out, ev.HandWon) == [ev.HandWon(4, 2, 1)]
    assert kinds(out, RollSettlement) == [RollSettlement("ann", (("high", 10),), (), (), 0),
                                          RollSettlement("bob", (("high", 10),), (), (), 0)]
    assert t.shooter() == "ann" and t.dice.rotations == 0
    assert "Winner! Higher than the point 4: high wins 1:1. The shooter keeps the dice." in text(t, out, "ann")
    t.act("ann", ["bet", "high", "10"], 1000)
    t.advance(WINDOW)
    t.act("ann", ["roll"], 1000)                             # point 7
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)                       # 5 is lower: a loss, the dice move on
    assert kinds(out, ev.HandLost) == [ev.HandLost(7, 2)]
    assert t.seated() == ["bob", "cat", "ann"] and t.shooter() == "bob"
    assert ShooterUp("bob") in out and t.dice.rotations == 1
    assert kinds(out, HandResult)
    shown = text(t, out, "ann")
    assert "5! (2 + 3 = 5)" in shown
    assert "Line away: Not higher than the point 7: high loses. The dice move on." in shown
    assert not any("Seven out" in line for line in shown)


def test_a_come_out_eleven_wins_at_once_and_keeps_the_dice():
    t = table((5, 6))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["bet", "high", "10"], 1000)
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)
    assert kinds(out, RollSettlement)[0].net == 10 and t.shooter() == "ann"
    assert "Winner! High wins 1:1 on the come-out. The shooter keeps the dice." in text(t, out, "ann")


def test_windows_last_call_and_the_dealer_roll_are_bank_crapss():
    t = table((2, 2))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("bob", ["bet", "high", "5"], 1000)
    out = t.advance(WINDOW - LAST_CALL)
    assert kinds(out, LastCall) == [LastCall(3)]
    out = t.advance(LAST_CALL)
    assert kinds(out, WindowClosed) == [WindowClosed("ann", 60)]
    assert rolled(t.advance(SHOOTER - 1)) == []
    out = t.advance(1)
    assert rolled(out) == [(2, 2)] and any(getattr(e, "dealer", False) for e in out)
    assert "The point is 4: the next roll decides: higher than 4 wins, 4 or lower loses." in text(t, out, "bob")


def test_autoroll_runs_until_the_bets_are_done():
    t = table((1, 1), (4, 4), (2, 2))
    t.sit("ann", 1000)
    t.act("ann", ["bet", "high", "10"], 1000)
    assert "Autoroll on" in notes(t.act("ann", ["autoroll"], 1000))
    assert rolled(t.advance(AUTO)) == [(1, 1)]              # no decision
    assert rolled(t.advance(AUTO)) == [(4, 4)]              # point 8
    out = t.advance(AUTO)
    assert rolled(out) == [(2, 2)] and "autoroll stops" in notes(out)
    assert rolled(t.advance(10 * AUTO)) == []


def test_leave_waits_for_the_contract_and_sitout_skips_the_seat():
    t = table((3, 3), (6, 6))
    t.sit("ann", 1000)
    t.act("ann", ["bet", "high", "10"], 1000)
    t.act("ann", ["roll"], 1000)                             # point 6
    assert "once your live bets are decided" in notes(t.leave("ann"))
    assert t.seated() == ["ann"]
    out = t.act("ann", ["roll"], 1000)                       # 12 beats 6
    assert "ann leaves the table" in notes(out) and t.seated() == []
    t.sit("bob", 1000)
    t.sit("cat", 1000)
    t.act("bob", ["sitout"], 1000)
    assert t.shooter() == "cat"


def test_disconnect_forfeits_and_shutdown_refunds():
    t = table()
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("ann", ["bet", "high", "10"], 1000)
    out = t.disconnect("ann")
    assert len(kinds(out, Forfeit)) == 1 and t.seated() == ["bob"] and ShooterUp("bob") in out
    holds = kinds(t.act("bob", ["bet", "pass", "20"], 1000), Hold)
    out = t.close("closing")
    assert [r.stake for r in kinds(out, Refund)] == [h.key for h in holds]


def test_the_view_and_rules_show_the_one_bet_at_every_width():
    from server.render.width import display_width
    t = table((2, 3))
    t.sit("ann", 1000)
    t.act("ann", ["bet", "high", "10"], 1000)
    t.act("ann", ["roll"], 1000)                             # point 5
    for width in (40, 60, 80, 120):
        for unicode in (False, True):
            view = t.view(Viewer("ann", Prefs(width=width, unicode=unicode), True))
            assert all(display_width(line) <= min(width, 80) for line in view), (width, view)
            flat = " ".join(view)
            assert "HIGH" in flat and "PASS" not in flat and "FIELD" not in flat
            assert "ON 5" in flat and "1) high 10" in flat.replace("\xa0", " ")
    rules = " ".join(t.rules())
    assert "higher than the point wins 1:1" in rules and "passes them to the next shooter" in rules
    assert "High Point craps has no field. Bets here: high" in " ".join(
        text(t, t.act("ann", ["bet", "field", "5"], 1000), "ann"))

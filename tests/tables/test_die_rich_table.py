"""A Die Rich table by ticks (no network): one die drawn from the table's fair
source as a draw of 6, shown as one die, carried by GMCP Casino.Roll; a win
keeps the die, a loss passes it on (docs/play-craps-variants.md "Die Rich"); bank craps'
windows, last call, dealer roll, autoroll, leave, disconnect and shutdown."""
from __future__ import annotations

from server.config.model import TableConfig
from server.dice.derive import derive_draws
from server.dice.fair import FairDice
from server.games.craps import events as ev
from server.games.craps.events import LastCall, RollSettlement, ShooterUp, WindowClosed
from server.games.craps.options import CrapsOptions
from server.games.intents import Forfeit, Hold, Refund
from server.games.seam import HandResult, Note, Viewer
from server.render.prefs import Prefs
from server.render.width import display_width
from support.pure_table import PureTable

HZ = 10
WINDOW, LAST_CALL, SHOOTER, AUTO = 10 * HZ, 3 * HZ, 60 * HZ, 3 * HZ


class Die:
    """Faces as listed, asked for as draws of 6 (face - 1), as the fair source is."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[int] = []
        self.rotations = 0

    def draw(self, n: int) -> int:
        self.asked.append(n)
        return self.faces.pop(0) - 1

    def roll(self):
        raise AssertionError("Die Rich draws one die, never two")

    def rotate(self):
        self.rotations += 1


def table(*faces, source=None):
    config = TableConfig("die_rich", "craps", 12, 1, 10_000, CrapsOptions(variant="die_rich"))
    return PureTable(config, HZ, source or Die(*faces))


def kinds(events, kind):
    return [e for e in events if isinstance(e, kind)]


def rolled(events):
    return [e.dice for e in kinds(events, ev.Rolled)]


def notes(events, player=None):
    return " | ".join(e.text for e in kinds(events, Note) if player is None or e.to is None or player in e.to)


def text(t, events, player, **prefs):
    return [line for e in events for line in t.render(e, Viewer(player, Prefs(**prefs), True))]


def test_one_die_is_one_fair_draw_of_six_and_shown_as_one_die():
    t = table(4)
    t.sit("ann", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    out = t.act("ann", ["roll"], 1000)
    assert rolled(out) == [(4,)] and t.dice.asked == [6]
    shown = text(t, out, "ann")
    assert "Four! (the die shows 4)" in shown
    art = shown[shown.index("You roll:") + 1:shown.index("Four! (the die shows 4)")]
    assert len(art) == 5 and all(display_width(line) <= 11 for line in art)     # one die, not two
    [(package, data, _)] = [d for e in kinds(out, ev.Rolled) for d in t.event_data(e)]
    assert package == "Casino.Roll" and data["die"] == 4 and data["dice"] == [4] and data["total"] == 4
    assert "The point is 4: 4 within three more rolls wins" in " ".join(shown)


def test_the_fair_source_draws_what_casino_verify_recomputes():
    dice = FairDice("die_rich", seed=7)
    t = table(source=dice)
    t.sit("ann", 1000)
    t.act("ann", ["bet", "face", "3", "10"], 1000)
    out = t.act("ann", ["roll"], 1000)
    [record] = dice.rolls
    assert record.n == 6 and rolled(out) == [(record.value + 1,)]
    revealed = dice.rotate()
    assert derive_draws(revealed.server_seed, record.client_seed, record.nonce, 1, 6) == [record.value]
    assert 6 in revealed.sizes                                # the reveal says the draws were of 6


def test_a_win_keeps_the_die_and_a_loss_passes_it_on():
    t = table(3, 5, 3, 6, 1)
    for p in ("ann", "bob", "cat"):
        t.sit(p, 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.advance(WINDOW)
    t.act("ann", ["roll"], 1000)                             # point 3
    t.act("bob", ["bet", "face", "5", "10"], 1000)
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)                       # 5: bob's face wins 4:1, the hand goes on
    assert kinds(out, RollSettlement) == [RollSettlement("bob", (("face5", 40),), (), (), 0)]
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)                       # 3 on the third roll: 1:1
    assert kinds(out, ev.HandWon) == [ev.HandWon(3, 3, 1)] and t.shooter() == "ann"
    assert "Winner! The point 3 on the third roll: pass pays 1:1. The shooter keeps the die." \
        in text(t, out, "ann")
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)                       # come-out 6 wins
    assert kinds(out, ev.HandWon) == [ev.HandWon(0, 1, 1)] and t.shooter() == "ann"
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.advance(WINDOW)
    out = t.act("ann", ["roll"], 1000)                       # come-out 1 loses: the die moves on
    assert kinds(out, ev.HandLost) == [ev.HandLost(0, 1)] and kinds(out, HandResult)
    assert t.seated() == ["bob", "cat", "ann"] and t.shooter() == "bob" and ShooterUp("bob") in out
    assert t.dice.rotations == 1
    assert "Line away: Pass loses on the come-out. The die moves on." in text(t, out, "ann")


def test_windows_last_call_dealer_roll_and_autoroll():
    t = table(2, 4, 4, 1)
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    t.act("bob", ["bet", "face", "2", "5"], 1000)
    out = t.advance(WINDOW - LAST_CALL)
    assert kinds(out, LastCall) == [LastCall(3)]
    out = t.advance(LAST_CALL)
    assert kinds(out, WindowClosed) == [WindowClosed("ann", 60)]
    out = t.advance(SHOOTER)
    assert rolled(out) == [(2,)] and any(getattr(e, "dealer", False) for e in out)
    assert "The dealer rolls for ann." in text(t, out, "bob")
    assert t.state.point == 2                                # the puck moves with or without a pass bet
    t.leave("bob")
    t.act("ann", ["bet", "face", "4", "10"], 1000)
    assert "Autoroll on: the die roll every" in notes(t.act("ann", ["autoroll"], 1000))
    out = t.advance(AUTO)
    assert rolled(out) == [(4,)] and kinds(out, RollSettlement)[0].net == 40
    assert "autoroll stops" in notes(out) and rolled(t.advance(10 * AUTO)) == []


def test_leave_waits_disconnect_forfeits_shutdown_refunds():
    t = table(2, 2)
    t.sit("ann", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["roll"], 1000)                             # point 2
    assert "once your live bets are decided" in notes(t.leave("ann"))
    out = t.act("ann", ["roll"], 1000)
    assert "ann leaves the table" in notes(out) and t.seated() == []
    t.sit("bob", 1000)
    t.sit("cat", 1000)
    t.act("bob", ["bet", "face", "6", "10"], 1000)
    out = t.disconnect("bob")
    assert len(kinds(out, Forfeit)) == 1 and ShooterUp("cat") in out
    holds = kinds(t.act("cat", ["bet", "pass", "10"], 1000) + t.act("cat", ["bet", "face", "1", "5"], 1000), Hold)
    out = t.close("closing")
    assert sorted(r.stake for r in kinds(out, Refund)) == sorted(h.key for h in holds)


def test_the_view_shows_one_die_the_hand_and_the_faces_at_every_width():
    t = table(5, 3)
    t.sit("ann", 1000)
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["roll"], 1000)                             # point 5
    t.act("ann", ["bet", "face", "6", "10"], 1000)
    t.act("ann", ["roll"], 1000)                             # 3: the third roll is next
    for width in (40, 60, 80, 120):
        for unicode in (False, True):
            view = t.view(Viewer("ann", Prefs(width=width, unicode=unicode), True))
            assert all(display_width(line) <= min(width, 80) for line in view), (width, view)
            flat = " ".join(view).replace("\xa0", " ")
            assert "PASS LINE 10" in flat and "FACES" in flat and "odds" not in flat and "FIELD" not in flat
            assert "ON 5" in flat and "Next: the hand's third roll" in flat and "of up to 4" in flat
            assert "Last roll:" in flat and "help dierich" in flat
    rules = " ".join(t.rules())
    assert "on the second roll of the hand pays 2:1, on the third 1:1, on the fourth 2:1" in rules
    assert "4:1" in rules

"""New York craps (docs/play-craps-variants.md "New York craps"): pass and don't pass with odds, the
box numbers bought or laid with the 5% charge taken when the bet is made (its
own Hold, settled to the house at once, never returned); all 36 outcomes of
every bet in every state; refusals by name; edges from edge.py."""
from __future__ import annotations

from fractions import Fraction

import pytest

from server.config.model import TableConfig
from server.games.craps.bets import NUMBERS, POINTS, Bet, Kind
from server.games.craps.edge import house_edges
from server.games.craps.events import BetAccepted, BetRefused, Charged
from server.games.craps.options import CrapsOptions
from server.games.craps.outcome import ALL_DICE, Outcome, Result, TableView, rulebook
from server.games.craps.state import CrapsState
from server.games.craps.variants import BANK, NEW_YORK
from server.games.intents import Hold, Refund, Settle

from craps_helpers import accept, refusal, results
from support.sweep import Sweep

BOOK = rulebook(2, NEW_YORK)
BANK_BOOK = rulebook(2, BANK)
TRUE = {4: (2, 1), 10: (2, 1), 5: (3, 2), 9: (3, 2), 6: (6, 5), 8: (6, 5)}


def table() -> CrapsState:
    return CrapsState(TableConfig("ny", "craps", 12, 1, 10_000, CrapsOptions(variant="new_york")))


def on_point(t: CrapsState, point: int = 4) -> None:
    accept(t, "ann", "pass 10")
    t.roll((1, point - 1) if point <= 7 else (6, point - 6))
    assert t.point == point


_SAME_AS_BANK = ([Bet(Kind.PASS, 0, 10), Bet(Kind.DONT_PASS, 0, 10)]
                 + [Bet(k, n, 60) for k in (Kind.PASS, Kind.DONT_PASS, Kind.ODDS, Kind.LAY_ODDS,
                                            Kind.HARD) for n in NUMBERS[Kind.HARD] or ()]
                 + [Bet(k, n, 60) for k in (Kind.ODDS, Kind.LAY_ODDS) for n in (5, 9)]    # 6, 8: above
                 + [Bet(Kind.FIELD, 0, 10), Bet(Kind.ANY7, 0, 10), Bet(Kind.ANYCRAPS, 0, 10),
                    Bet(Kind.HORN, 0, 8), Bet(Kind.HOP, 12, 10), Bet(Kind.HOP, 44, 10)]
                 + [Bet(Kind.PROP, n, 10) for n in (2, 3, 11, 12)])


def test_line_odds_hardways_and_one_roll_bets_are_bank_crapss():
    sweep = Sweep(bet_state=[(bet, state) for bet in _SAME_AS_BANK for state in (0, *POINTS)
                             # a line bet's number is the point
                             if not (bet.kind in (Kind.PASS, Kind.DONT_PASS) and bet.number
                                     and bet.number != state)], dice=ALL_DICE)
    for (bet, state), dice in sweep:
        view = TableView(point=state)
        sweep.expect(BOOK.outcome(bet, dice, view), BANK_BOOK.outcome(bet, dice, view))
    sweep.done()


def test_buy_pays_true_odds_in_full_and_is_off_on_the_come_out():
    sweep = Sweep(number=POINTS, state=(0, *POINTS), dice=ALL_DICE)
    for number, state, dice in sweep:
        total = sum(dice)
        if state == 0 or total not in (number, 7):
            want = Outcome(Result.NONE)
        elif total == 7:
            want = Outcome(Result.LOSE)
        else:
            want = Outcome(Result.WIN, 60 * TRUE[number][0] // TRUE[number][1])    # no commission
        sweep.expect(BOOK.outcome(Bet(Kind.BUY, number, 60), dice, TableView(point=state)), want)
    sweep.done()


def test_lay_pays_true_odds_against_in_full_and_always_works():
    sweep = Sweep(number=POINTS, state=(0, *POINTS), dice=ALL_DICE)
    for number, state, dice in sweep:
        total = sum(dice)
        num, den = TRUE[number]
        if total == 7:
            want = Outcome(Result.WIN, 60 * den // num)
        elif total == number:
            want = Outcome(Result.LOSE)
        else:
            want = Outcome(Result.NONE)
        sweep.expect(BOOK.outcome(Bet(Kind.LAY, number, 60), dice, TableView(point=state)), want)
    sweep.done()


@pytest.mark.parametrize("words, charge", [("buy 4 20", 1), ("buy 4 10", 1), ("buy 6 25", 2),
                                           ("buy 9 40", 2), ("lay 4 40", 1), ("lay 4 42", 2),
                                           ("lay 6 24", 1), ("lay 9 60", 2)])
def test_the_charge_is_its_own_hold_settled_to_the_house_when_the_bet_is_made(words, charge):
    t = table()
    events = t.bet("ann", words, 1000)
    assert isinstance(events[0], BetAccepted)
    stake = int(words.split()[-1])
    handle = events[0].wager.handle
    holds = [e for e in events if isinstance(e, Hold)]
    assert holds == [Hold(handle, "ann", stake), Hold(f"{handle}:charge", "ann", charge)]
    settles = [e for e in events if isinstance(e, Settle)]
    assert len(settles) == 1 and settles[0].stakes == (f"{handle}:charge",) and settles[0].pays == (("ann", 0),)
    assert [e.charge for e in events if isinstance(e, Charged)] == [charge]
    assert [w.bet.amount for w in t.bets_of("ann")] == [stake]          # the charge is no part of the stake


def test_the_charge_is_never_returned_not_on_unbet_nor_on_a_win():
    t = table()
    on_point(t, 4)
    h = accept(t, "ann", "buy 10 20")
    removed = t.unbet("ann", "buy10")
    assert [e for e in removed if isinstance(e, Refund)][0].stake == h      # the stake only
    assert len([e for e in removed if isinstance(e, Refund)]) == 1
    accept(t, "ann", "buy 10 20")
    events = t.roll((5, 5))
    assert results(events) == {"buy10": ("won", 40)}                          # 2:1 in full
    settle = [e for e in events if isinstance(e, Settle)][0]
    assert dict(settle.pays)["ann"] == 60 and not any(s.endswith(":charge") for s in settle.stakes)


def test_the_wallet_must_cover_the_stake_and_the_charge():
    t = table()
    [refused] = t.bet("ann", "buy 4 20", 20)
    assert isinstance(refused, BetRefused) and "the 1 charge" in refused.reason
    assert isinstance(t.bet("ann", "buy 4 20", 21)[0], BetAccepted)


def test_a_refused_charge_takes_the_bet_down():
    t = table()
    events = t.bet("ann", "buy 4 20", 1000)
    handle = events[0].wager.handle
    back = t.cancel(f"{handle}:charge", "no chips")
    assert [e for e in back if isinstance(e, Refund)][0].stake == handle and not t.bets_of("ann")


@pytest.mark.parametrize("words, name", [("come 10", "come"), ("dontcome 10", "don't come"),
                                         ("place 6 12", "place"), ("fire 1", "fire"),
                                         ("small 1", "small"), ("tall 1", "tall"), ("all 1", "all")])
def test_bets_it_does_not_offer_are_refused_by_name(words, name):
    t = table()
    on_point(t)
    reason = refusal(t, "ann", words)
    assert reason.startswith(f"New York craps has no {name}. Bets here: pass, dontpass, odds, buy, lay, hard")


def test_pass_after_the_come_out_does_not_suggest_come():
    t = table()
    on_point(t)
    assert refusal(t, "ann", "pass 10") == "pass is bet on the come-out; the point is 4"


def test_the_edges_count_the_charge_as_part_of_what_was_bet():
    edges = dict(house_edges(TableConfig("ny", "craps", 12, 1, 10_000, CrapsOptions(variant="new_york"))))
    assert all(edges[f"buy {n}"] == Fraction(1, 21) for n in POINTS)
    assert edges["lay 4"] == Fraction(1, 41) and edges["lay 6"] == Fraction(1, 25)
    assert edges["pass"] == Fraction(7, 495) and edges["dontpass"] == Fraction(3, 220)
    assert not {"come", "dontcome", "place 6", "fire", "small"} & set(edges)


def test_at_the_table_the_money_goes_first_and_the_player_is_told_the_charge():
    from server.games.seam import Viewer
    from server.render.prefs import Prefs
    from support.dice import TableDice
    from support.pure_table import PureTable

    t = PureTable(TableConfig("ny", "craps", 12, 1, 10_000, CrapsOptions(variant="new_york")), 10, TableDice())
    t.sit("ann", 1000)
    out = t.act("ann", ["bet", "lay", "4", "40"], 1000)
    kinds = [type(e).__name__ for e in out]
    assert kinds[:4] == ["Hold", "Hold", "Settle", "BetAccepted"] and "Charged" in kinds
    text = [line for e in out for line in t.render(e, Viewer("ann", Prefs(), True))]
    assert "Charge: 1 to the house for lay4 (5%, taken now and never returned)." in text
    assert "New York craps has no place" in " ".join(
        line for e in t.act("ann", ["bet", "place", "6", "12"], 959) for line in t.render(e, Viewer("ann", Prefs(), True)))

"""All 36 outcomes of pass, don't pass, come and don't come: come-out and every point."""
from __future__ import annotations

from server.games.craps.bets import POINTS, Bet, Kind
from server.games.craps.outcome import ALL_DICE, Outcome, Result, TableView, rulebook
from support.sweep import Sweep

BOOK = rulebook(2)


def WIN1(n: int) -> Outcome:
    return Outcome(Result.WIN, n)


# What a 10-chip bet does on the come-out (or, for come/don't come, in the come box).
COME_OUT_DO = {2: "lose", 3: "lose", 12: "lose", 7: "win", 11: "win"}
COME_OUT_DONT = {2: "win", 3: "win", 12: "push", 7: "lose", 11: "lose"}


def expect_box(do: bool, total: int) -> Outcome:
    if total in POINTS:
        return Outcome(Result.TRAVEL, 0, total)
    word = (COME_OUT_DO if do else COME_OUT_DONT)[total]
    return {"win": WIN1(10), "lose": Outcome(Result.LOSE), "push": Outcome(Result.PUSH)}[word]


def expect_on(do: bool, number: int, total: int) -> Outcome:
    if total == number:
        return WIN1(10) if do else Outcome(Result.LOSE)
    if total == 7:
        return Outcome(Result.LOSE) if do else WIN1(10)
    return Outcome(Result.NONE)


def test_line_on_the_come_out():
    sweep = Sweep(kind=[Kind.PASS, Kind.DONT_PASS], dice=ALL_DICE)
    for kind, dice in sweep:
        sweep.expect(BOOK.outcome(Bet(kind, 0, 10), dice, TableView()), expect_box(kind is Kind.PASS, sum(dice)))
    sweep.done()


def test_come_box_acts_like_a_come_out_whatever_the_point():
    sweep = Sweep(kind=[Kind.COME, Kind.DONT_COME], table_point=POINTS, dice=ALL_DICE)
    for kind, table_point, dice in sweep:
        sweep.expect(BOOK.outcome(Bet(kind, 0, 10), dice, TableView(point=table_point)),
                     expect_box(kind is Kind.COME, sum(dice)))
    sweep.done()


def test_line_on_every_point():
    sweep = Sweep(kind=[Kind.PASS, Kind.DONT_PASS], number=POINTS, dice=ALL_DICE)
    for kind, number, dice in sweep:
        sweep.expect(BOOK.outcome(Bet(kind, number, 10), dice, TableView(point=number)),
                     expect_on(kind is Kind.PASS, number, sum(dice)))
    sweep.done()


def test_come_on_its_number_works_on_the_come_out_too():
    sweep = Sweep(kind=[Kind.COME, Kind.DONT_COME], table_point=(0, 4, 9), number=POINTS, dice=ALL_DICE)
    for kind, table_point, number, dice in sweep:
        sweep.expect(BOOK.outcome(Bet(kind, number, 10), dice, TableView(point=table_point)),
                     expect_on(kind is Kind.COME, number, sum(dice)))
    sweep.done()


def test_outcome_counts_over_all_36():
    """Sanity of the whole come-out table: 8 ways to win, 4 to lose, 24 to travel."""
    res = [BOOK.outcome(Bet(Kind.PASS, 0, 1), d, TableView()).result for d in ALL_DICE]
    assert (res.count(Result.WIN), res.count(Result.LOSE), res.count(Result.TRAVEL)) == (8, 4, 24)
    res = [BOOK.outcome(Bet(Kind.DONT_PASS, 0, 1), d, TableView()).result for d in ALL_DICE]
    assert (res.count(Result.WIN), res.count(Result.LOSE), res.count(Result.PUSH)) == (3, 8, 1)

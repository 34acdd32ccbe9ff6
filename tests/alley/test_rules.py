"""Alley craps' pure pieces: roll decisions, amount checks, rules text, escrow."""
import pytest

from server.games.alley.options import AlleyOptions
from server.games.alley import Decision, amount_problem, decide, start_problem, table_rules
from server.games.alley.escrow import Escrow
from server.games.intents import Hold, Settle


@pytest.mark.parametrize("total,decision", [
    (7, Decision.NATURAL), (11, Decision.NATURAL),
    (2, Decision.CRAPS), (3, Decision.CRAPS), (12, Decision.CRAPS),
    *((n, Decision.POINT_SET) for n in (4, 5, 6, 8, 9, 10)),
])
def test_come_out(total, decision):
    assert decide(None, total) is decision


@pytest.mark.parametrize("point,total,decision", [
    (6, 6, Decision.POINT_MADE), (6, 7, Decision.SEVEN_OUT), (6, 11, Decision.NO_DECISION),
    (4, 2, Decision.NO_DECISION), (10, 12, Decision.NO_DECISION), (10, 10, Decision.POINT_MADE),
])
def test_with_a_point(point, total, decision):
    assert decide(point, total) is decision


@pytest.mark.parametrize("amount,reason", [
    (35, "bets go in multiples of 10"), (5, "the minimum is 10"), (0, "the amount must be more than zero"),
    (-10, "the amount must be more than zero"), (110, "the most you can bet is 100 (your bankroll)"),
    ("10", "the amount must be a whole number of chips"), (10.0, "the amount must be a whole number of chips"),
    (True, "the amount must be a whole number of chips"),
])
def test_amount_problems(amount, reason):
    assert amount_problem(amount, 10, 100, "your bankroll") == reason


@pytest.mark.parametrize("amount", [10, 50, 100])
def test_valid_amounts(amount):
    assert amount_problem(amount, 10, 100, "your bankroll") is None


def test_start_problems():
    o = AlleyOptions()
    assert start_problem(["a"], o) == "alley craps needs at least 2 players"
    assert start_problem(["a", "b", "c"], AlleyOptions(min_players=4)) == "alley craps needs at least 4 players"
    assert "at most 6" in start_problem([f"p{i}" for i in range(7)], o)
    assert start_problem(["a", "a"], o) == "a player is seated twice"
    assert start_problem(["a", "b"], AlleyOptions(buy_in=105)) is not None
    assert start_problem(["a", "b"], o) is None


def test_table_rules_use_the_tables_numbers():
    text = "\n".join(table_rules(AlleyOptions(buy_in=200, bet_unit=25), max_players=4))
    assert "2 to 4 players" in text and "200 chips" in text and "multiple of 25" in text
    assert "NO MORE BETS" in text and "natural" in text and "cleaned out" in text
    assert all(isinstance(line, str) and line for line in table_rules(AlleyOptions()))


def test_escrow_pays_out_what_it_holds_and_reholds():
    e = Escrow("g")
    holds = [e.hold("a", 100), e.hold("b", 100), e.hold("c", 100)]
    assert holds[0] == Hold("g:stake:1:a", "a", 100) and e.total == 300
    e.at_risk("a", 50)                   # a pass: a won 50 of b's and c's, who faded 25 each
    e.at_risk("b", 25)
    e.at_risk("c", 25)
    e.at_risk("c", 0)                    # nothing at risk names nobody
    out = e.pay_out({"a": 150}, {"b": 150, "c": 0})
    assert out[0] == Settle("g:settle:1", ("g:stake:1:a", "g:stake:2:b", "g:stake:3:c"),
                            (("a", 150), ("b", 150)), (("a", 50), ("b", 25), ("c", 25)))
    assert out[1:] == [Hold("g:stake:4:b", "b", 150)] and e.total == 150
    with pytest.raises(AssertionError):
        e.pay_out({"b": 100}, {})
    # the next pay-out decides no pass: it names no wagers (not None: the stakes are not wagers)
    assert e.pay_out({"b": 150}, {})[0].risked == ()
    e.hold("b", 150)
    assert e.drop("g:stake:5:b") == ("b", 150) and e.total == 0
    assert e.pay_out({}, {}) == []

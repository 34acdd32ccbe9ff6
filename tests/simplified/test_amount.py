"""The amount parser: whole chips, cents returned, one-line reasons."""
from __future__ import annotations

import pytest

from server.games.simplified.amount import Amount, parse_amount


@pytest.mark.parametrize("text, chips, cents", [
    ("10", 10, 0), ("5.36", 5, 36), ("10.00", 10, 0), ("10.5", 10, 50), ("$7", 7, 0),
    (" 12 ", 12, 0), ("1000", 1000, 0), ("5.", 5, 0)])
def test_accepted(text, chips, cents):
    assert parse_amount(text, 5, 1000) == Amount(chips, cents)


def test_message_like_002():
    assert Amount(10, 36).message() == "0.36 returned, your wager is 10"
    assert Amount(5, 5).message() == "0.05 returned, your wager is 5"
    assert Amount(10).message() == "" and Amount(10).returned == ""


@pytest.mark.parametrize("text, reason", [
    ("abc", "'abc' is not an amount: type whole chips, like 10."),
    ("", "'' is not an amount: type whole chips, like 10."),
    (".", "'.' is not an amount: type whole chips, like 10."),
    ("5.123", "'5.123' is not an amount: type whole chips, like 10."),
    ("1e3", "'1e3' is not an amount: type whole chips, like 10."),
    ("0", "You can't bet zero."),
    ("0.00", "You can't bet zero."),
    ("-5", "You can't bet a negative amount (-5)."),
    ("-0.50", "You can't bet a negative amount (-0.50)."),
    ("2.50", "You can't bet 2.50: the minimum bet is 5."),
    ("4", "You can't bet 4: the minimum bet is 5."),
    ("1001", "You can't bet 1001: the table maximum is 1000."),
    ("9" * 40, "'" + "9" * 20 + "' is not an amount: type whole chips, like 10."),
])
def test_refused(text, reason):
    assert parse_amount(text, 5, 1000) == reason

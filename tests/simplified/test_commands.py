"""Typed lines to actions."""
from __future__ import annotations

import pytest

from server.games.simplified.commands import parse_action
from server.games.simplified.events import Bet, Collect, Odds, Press, Ride, Roll
from server.games.simplified.rules import Side


@pytest.mark.parametrize("line, action", [
    ("bet pass 10", Bet(Side.PASS, "10")), ("BET dontpass 5.36", Bet(Side.DONT, "5.36")),
    ("bet dp 5", Bet(Side.DONT, "5")), ("roll", Roll()), ("press", Press()),
    ("odds 15", Odds("15")), ("ride", Ride()), ("collect", Collect())])
def test_parsed(line, action):
    assert parse_action(line) == action


@pytest.mark.parametrize("line", ["", "bet", "bet come 5", "bet pass", "odds", "roll now", "dance"])
def test_reasons(line):
    result = parse_action(line)
    assert isinstance(result, str) and "\n" not in result

"""The example session in docs/play-simplified-craps.md, replayed on the engine."""
from __future__ import annotations

from simplified_helpers import Wallet, table, of

from server.dice.source import FixedDice
from server.games.simplified.commands import parse_action
from server.games.simplified.engine import SimplifiedCraps
from server.games.simplified.events import (
    BetPlaced, Collected, GameOver, OddsPlaced, PointSet, Pressed, RollAgain)
from server.games.simplified.rules import Outcome


def test_doc_example_session():
    dice = FixedDice([(3, 1), (5, 4), (2, 2), (6, 1), (6, 6)])
    g, w = SimplifiedCraps(table(), "alice", dice), Wallet(100)

    def do(line):
        return w.apply(g.act(parse_action(line), w.chips))

    assert of(do("bet pass 10.36"), BetPlaced)[0].note == "0.36 returned, your wager is 10"
    assert of(do("roll"), PointSet) == [PointSet(4, True)]
    assert of(do("press"), Pressed) == [Pressed(20)]
    assert of(do("odds 30"), OddsPlaced)[0].wins == 60
    assert of(do("roll"), RollAgain) == [RollAgain(4)]
    over = of(do("roll"), GameOver)[0]
    assert (over.how, over.net, over.flat_win, over.odds_win, w.chips) == (
        "point made", 80, 20, 60, 180)
    assert of(do("ride"), BetPlaced)[0].amount == 130
    over = of(do("roll"), GameOver)[0]
    assert (over.how, over.net, w.chips) == ("natural", 130, 310)
    assert of(do("collect"), Collected) == [Collected(260)]
    do("bet dontpass 5")
    over = of(do("roll"), GameOver)[0]
    assert (over.outcome, over.how, w.chips) == (Outcome.PUSH, "bar", 310)

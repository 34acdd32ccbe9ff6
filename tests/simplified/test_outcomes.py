"""Every pass / don't pass decision, under both bar settings, with its money."""
from __future__ import annotations

import pytest
from simplified_helpers import Wallet, game, of

from server.games.intents import Hold, Refund, Settle
from server.games.simplified.engine import Phase
from server.games.simplified.events import (
    Bet, GameOver, PointSet, RollAgain, Roll, Rolled)
from server.games.simplified.rules import Outcome, Side

W, L, P = Outcome.WIN, Outcome.LOSE, Outcome.PUSH
# come-out total -> (pass, don't pass with bar 12, don't pass with no bar)
COME_OUT = {2: (L, W, W), 3: (L, W, W), 12: (L, P, W), 7: (W, L, L), 11: (W, L, L)}


@pytest.mark.parametrize("bar", [12, None])
@pytest.mark.parametrize("side", [Side.PASS, Side.DONT])
@pytest.mark.parametrize("total", sorted(COME_OUT))
def test_come_out_decisions(bar, side, total):
    g = game([total], bar=bar)
    wallet = Wallet(100)
    wallet.apply(g.act(Bet(side, "10"), wallet.chips))
    events = wallet.apply(g.act(Roll(), wallet.chips))
    rolled = of(events, Rolled)[0]
    assert rolled.total == total and sum(rolled.dice) == total and rolled.point is None
    expected = COME_OUT[total][0 if side is Side.PASS else (1 if bar == 12 else 2)]
    over = of(events, GameOver)[0]
    assert over.outcome is expected
    assert over.net == {W: 10, L: -10, P: 0}[expected]
    assert wallet.chips == 100 + over.net
    assert not wallet.held
    if expected is P:
        assert over.how == "bar" and of(events, Refund) and not of(events, Settle)
    else:
        assert over.how == ("natural" if total in (7, 11) else "craps")
    assert g.phase is (Phase.WON if expected is W else Phase.BETTING)


@pytest.mark.parametrize("bar", [12, None])
@pytest.mark.parametrize("side", [Side.PASS, Side.DONT])
@pytest.mark.parametrize("point", [4, 5, 6, 8, 9, 10])
@pytest.mark.parametrize("made", [True, False])
def test_point_made_or_sevened(bar, side, point, made):
    # Some totals that decide nothing in between: 2, 3, 11, 12 and other points.
    filler = [t for t in (2, 3, 11, 12, 4, 10) if t != point][:3]
    g = game([point] + filler + [point if made else 7], bar=bar)
    wallet = Wallet(100)
    wallet.apply(g.act(Bet(side, "10"), wallet.chips))
    events = wallet.apply(g.act(Roll(), wallet.chips))
    assert of(events, PointSet)[0].point == point and g.phase is Phase.POINT
    for _ in filler:
        events = wallet.apply(g.act(Roll(), wallet.chips))
        assert of(events, RollAgain) == [RollAgain(point)]
        assert of(events, Rolled)[0].point == point
        assert not of(events, GameOver)
    events = wallet.apply(g.act(Roll(), wallet.chips))
    over = of(events, GameOver)[0]
    wins = made == (side is Side.PASS)
    assert over.outcome is (W if wins else L)
    assert over.how == ("point made" if made else "seven out")
    assert over.net == (10 if wins else -10)
    assert over.paid == (20 if wins else 0)
    assert wallet.chips == 100 + over.net and not wallet.held


def test_intents_use_stable_unique_keys():
    g = game([7, 7])
    e1 = g.act(Bet(Side.PASS, "10"), 100) + g.act(Roll(), 100)
    e2 = g.act(Bet(Side.PASS, "10"), 100) + g.act(Roll(), 100)
    keys = [e.key for e in e1 + e2 if isinstance(e, (Hold, Settle))]
    assert len(keys) == len(set(keys)) == 4
    settle = of(e1, Settle)[0]
    assert settle.stakes == (of(e1, Hold)[0].key,)
    assert settle.pays == (("alice", 20),)

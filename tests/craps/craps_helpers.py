"""Small readers over the event lists a CrapsState returns."""
from __future__ import annotations

from server.config.model import TableConfig
from server.games.craps.options import CrapsOptions
from server.games.craps.events import (
    BetAccepted,
    BetLost,
    BetPushed,
    BetRefused,
    BetWon,
)
from server.games.craps.state import CrapsState


def config(odds: int = 0, field_12: int = 2, min_bet: int = 1, max_bet: int = 10_000) -> TableConfig:
    return TableConfig("t", "craps", 12, min_bet, max_bet, CrapsOptions(odds=odds, field_12=field_12))


def new(**kw) -> CrapsState:
    return CrapsState(config(**kw))


def accept(t: CrapsState, player: str, words: str) -> str:
    """Place a bet that must be accepted; returns its handle."""
    events = t.bet(player, words)
    assert isinstance(events[0], BetAccepted), events
    return events[0].wager.handle


def refusal(t: CrapsState, player: str, words: str) -> str:
    events = t.bet(player, words)
    assert len(events) == 1 and isinstance(events[0], BetRefused), events
    return events[0].reason


def results(events) -> dict[str, tuple]:
    """name -> ("won", amount) / ("lost",) / ("pushed",) for the bets a roll decided."""
    out = {}
    for e in events:
        if isinstance(e, BetWon):
            out[e.wager.name] = ("won", e.amount)
        elif isinstance(e, BetLost):
            out[e.wager.name] = ("lost",)
        elif isinstance(e, BetPushed):
            out[e.wager.name] = ("pushed",)
    return out


def roll_until(t: CrapsState, *dice):
    events = []
    for d in dice:
        events += t.roll(d)
    return events

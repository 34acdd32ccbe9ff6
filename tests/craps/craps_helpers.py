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


def config_with(tmp_path, table_id: str, variant: str):
    """A copy of the shipped config and rooms with a `table_id` table of `variant`
    in the variants' room (unless it is shipped already): (config dir, rooms dir)."""
    import shutil
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    config, rooms = tmp_path / "config", tmp_path / "rooms"
    shutil.copytree(root / "config", config)
    shutil.copytree(root / "rooms", rooms)
    tables = (config / "casino_tables.yaml").read_text()
    if f"- id: {table_id}\n" not in tables:
        (config / "casino_tables.yaml").write_text(
            tables + f"- id: {table_id}\n  game: craps\n  craps:\n    variant: {variant}\n")
        room = (rooms / "6184.yaml").read_text()
        (rooms / "6184.yaml").write_text(room.replace("tables: [", f"tables: [{table_id}, "))
    return config, rooms

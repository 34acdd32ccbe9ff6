"""Exact house edges of a simplified craps table, by playing the engine itself.

Every come-out roll (36 equally likely dice) is played through a real
SimplifiedCraps engine with fixed dice; when a point is set, the game is
finished both ways (the point again, weight ways(point) / (ways(point) + 6),
or a seven, weight 6 / (ways(point) + 6)), since every other total only means
"roll again". The chips the engine holds and pays back give each strategy's
expected loss exactly, as a Fraction, so what `casino odds` shows is the game
the table really plays (bar, press and odds settings included).

Edge = expected loss / expected chips wagered (flat, press and odds together;
a bar push counts as a wager that lost nothing). Negative: the player has the
edge, as with 001's rules (no bar, pressing the don't side).

The flat bet is 30 chips, which makes every odds limit an exact payout unit;
the table's min_bet and max_bet are lifted so they cannot cap the odds (an
edge is the same at any stake).
"""
from __future__ import annotations

import dataclasses
from fractions import Fraction

from server.config.model import GameOptions, TableConfig
from server.dice.source import Dice, FixedDice
from server.games.craps.options import CrapsOptions
from server.games.intents import Hold, Refund, Settle
from server.games.simplified.engine import SimplifiedCraps
from server.games.simplified.events import Bet, Odds, PointSet, Press, Refused, Roll
from server.games.simplified.rules import POINTS, SEVEN, WAYS, Side, odds_limit, press_allowed

FLAT = 30
PLENTY = 10**12
_SEVEN_DICE: Dice = (3, 4)
_ALL_DICE: tuple[Dice, ...] = tuple((a, b) for a in range(1, 7) for b in range(1, 7))


def _point_dice(point: int) -> Dice:
    return (point // 2, point - point // 2)


def _play(table: TableConfig[CrapsOptions], side: Side, rolls: list[Dice], take_odds: bool,
          press: bool) -> tuple[int, int]:
    """Play one game on these dice: (chips wagered, chips paid back)."""
    game = SimplifiedCraps(table, "edge", FixedDice(rolls))
    events = list(game.act(Bet(side, str(FLAT)), PLENTY))
    events += game.act(Roll(), PLENTY)
    point = next((e.point for e in events if isinstance(e, PointSet)), None)
    if point is not None:
        if press:
            events += game.act(Press(), PLENTY)
        if take_odds:
            limit = odds_limit(side, point, game.flat, game.options.odds)
            events += game.act(Odds(str(limit)), PLENTY)
        events += game.act(Roll(), PLENTY)
    refused = [e.reason for e in events if isinstance(e, Refused)]
    if refused:
        raise RuntimeError(f"edge enumeration refused: {refused}")
    held = {e.key: e.amount for e in events if isinstance(e, Hold)}
    back = sum(held[e.stake] for e in events if isinstance(e, Refund))
    back += sum(chips for e in events if isinstance(e, Settle) for _, chips in e.pays)
    return sum(held.values()), back


def edge(table: TableConfig[CrapsOptions], side: Side, take_odds: bool = False, press: bool = False) -> Fraction:
    """The exact edge of one strategy at this table (see the module doc)."""
    table = dataclasses.replace(table, min_bet=1, max_bet=PLENTY)
    wagered = loss = Fraction(0)
    for come_out in _ALL_DICE:
        total = sum(come_out)
        branches: list[tuple[Fraction, Dice | None]]
        if total in POINTS:
            win_weight = Fraction(WAYS[total], WAYS[total] + WAYS[SEVEN])
            branches = [(win_weight, _point_dice(total)), (1 - win_weight, _SEVEN_DICE)]
        else:
            branches = [(Fraction(1), None)]
        for weight, second in branches:
            rolls = [come_out] + ([second] if second else [])
            bet, back = _play(table, side, rolls, take_odds, press)
            p = weight / 36
            wagered += p * bet
            loss += p * (bet - back)
    return loss / wagered


def house_edges(config: TableConfig[GameOptions]) -> list[tuple[str, Fraction]]:
    """(strategy, exact edge) for pass, dontpass, each with full odds, and
    pressing always on each side the table lets press."""
    table = config.narrowed(CrapsOptions)
    rows = [
        ("pass", edge(table, Side.PASS)),
        ("dontpass", edge(table, Side.DONT)),
        ("pass+odds", edge(table, Side.PASS, take_odds=True)),
        ("dontpass+odds", edge(table, Side.DONT, take_odds=True)),
    ]
    options = table.options
    for side in (Side.PASS, Side.DONT):
        if press_allowed(side, options.press):
            rows.append((f"{side.value}+press", edge(table, side, press=True)))
    return rows

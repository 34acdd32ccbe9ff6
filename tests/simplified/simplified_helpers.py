"""Shared builders for the simplified craps tests (imported by path-free name)."""
from __future__ import annotations

from server.config.model import TableConfig
from server.games.craps.options import CrapsOptions
from server.dice.source import Dice, FixedDice
from server.games.intents import Hold, Refund, Settle
from server.games.simplified.engine import SimplifiedCraps


def table(bar: int | None = 12, press: str = "pass", odds: int = 0,
          min_bet: int = 5, max_bet: int = 1000) -> TableConfig:
    opts = CrapsOptions(variant="simplified", odds=odds, dont_pass_bar=bar, press=press)
    return TableConfig("s1", "craps", 1, min_bet, max_bet, opts)


def dice_for(total: int) -> Dice:
    return (1, total - 1) if total <= 7 else (total - 6, 6)


def game(totals: list[int], **kw) -> SimplifiedCraps:
    return SimplifiedCraps(table(**kw), "alice", FixedDice([dice_for(t) for t in totals]))


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


class Wallet:
    """Applies the engine's intents like the host would, to check the money."""

    def __init__(self, chips: int) -> None:
        self.chips = chips
        self.held: dict[str, int] = {}

    def apply(self, events) -> list:
        for e in events:
            if isinstance(e, Hold):
                assert e.amount <= self.chips
                self.chips -= e.amount
                self.held[e.key] = e.amount
            elif isinstance(e, Settle):
                for k in e.stakes:
                    self.held.pop(k)
                self.chips += sum(c for _, c in e.pays)
            elif isinstance(e, Refund):
                self.chips += self.held.pop(e.stake)
        return events

"""Pig test helpers: a tiny renderer printing spec 003's sample lines, and a
model of the ledger that checks every money intent the engine emits."""
from __future__ import annotations

from server.games.intents import Hold, Refund, Settle
from server.games.pig import events as ev


def lines(events: list) -> list[str]:
    """Render facts the way spec 003's sample prints them."""
    out: list[str] = []
    for e in events:
        if isinstance(e, ev.TurnStarted):
            out.append(f"{e.player}: {e.score}")
        elif isinstance(e, ev.Rolled):
            out.append(f"{e.dice[0]}, {e.dice[1]} Current Round Score: {e.round_score}")
        elif isinstance(e, ev.TurnEnded):
            out.append(f"{e.player}: {e.score}")
        elif isinstance(e, ev.GameOver) and e.winner:
            out += [f"{e.winner} wins!", f"{e.rounds} rounds"]
    return out


class LedgerModel:
    """Applies money intents the way docs/ledger.md promises, so tests can check balance."""

    def __init__(self, wallets: dict[str, int]) -> None:
        self.wallets = dict(wallets)
        self.stakes: dict[str, tuple[str, int]] = {}
        self.closed: set[str] = set()
        self.house = 0
        self.held_total = 0
        self.paid_total = 0

    def apply(self, events: list) -> None:
        for e in events:
            if isinstance(e, Hold):
                assert e.key not in self.stakes and e.key not in self.closed
                assert 0 < e.amount <= self.wallets[e.player]
                self.wallets[e.player] -= e.amount
                self.stakes[e.key] = (e.player, e.amount)
                self.held_total += e.amount
            elif isinstance(e, Settle):
                held = 0
                for key in e.stakes:
                    held += self.stakes.pop(key)[1]
                    self.closed.add(key)
                paid = sum(amount for _, amount in e.pays)
                assert all(amount > 0 for _, amount in e.pays)
                for player, amount in e.pays:
                    self.wallets[player] += amount
                self.house += held - paid
                self.paid_total += paid
            elif isinstance(e, Refund):
                player, amount = self.stakes.pop(e.stake)
                self.closed.add(e.stake)
                self.wallets[player] += amount
                self.paid_total += amount

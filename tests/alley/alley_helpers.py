"""Alley test helpers: a ledger model that checks every money intent, and a
table driver that applies each call's intents and checks the money after it."""
from __future__ import annotations

from server.games.alley.options import AlleyOptions
from server.dice.source import FixedDice
from server.games.alley import AlleyGame
from server.games.intents import Hold, Refund, Settle

TPS = 10


class LedgerModel:
    """Applies money intents the way docs/ledger.md promises."""

    def __init__(self, wallets: dict[str, int]) -> None:
        self.wallets = dict(wallets)
        self.stakes: dict[str, tuple[str, int]] = {}
        self.closed: set[str] = set()
        self.house = 0
        self.refuse: set[str] = set()       # Hold keys to refuse
        self.refuse_next = False            # refuse the next Hold, whatever its key

    @property
    def held(self) -> int:
        return sum(amount for _, amount in self.stakes.values())

    def apply(self, events: list) -> list[str]:
        refused = []
        for e in events:
            if isinstance(e, Hold):
                assert e.key not in self.stakes and e.key not in self.closed, e.key
                assert e.amount > 0
                if e.key in self.refuse or self.refuse_next or e.amount > self.wallets[e.player]:
                    self.refuse_next = False
                    refused.append(e.key)
                    continue
                self.wallets[e.player] -= e.amount
                self.stakes[e.key] = (e.player, e.amount)
            elif isinstance(e, Settle):
                assert e.stakes, "a Settle must close something"
                held = sum(self.stakes.pop(key)[1] for key in e.stakes)
                self.closed.update(e.stakes)
                assert len({p for p, _ in e.pays}) == len(e.pays)
                for player, amount in e.pays:
                    assert amount > 0
                    self.wallets[player] += amount
                self.house += held - sum(amount for _, amount in e.pays)
            elif isinstance(e, Refund):
                player, amount = self.stakes.pop(e.stake)
                self.closed.add(e.stake)
                self.wallets[player] += amount
        return refused


class Table:
    """A game plus a ledger; every call's intents are applied and the money checked."""

    def __init__(self, players, rolls, wallets=None, **opts) -> None:
        options = AlleyOptions(**opts)
        self.game = AlleyGame(players, options, FixedDice(rolls), TPS,
                              max_players=6, game_id="a1:g1")
        self.ledger = LedgerModel(wallets or {p: 1000 for p in players})
        self.money = sum(self.ledger.wallets.values())
        self.log: list = []

    def _run(self, events: list) -> list:
        """Like the table host: intents one at a time, in order; a refused Hold
        goes back to the game at once and its answer is handled before the rest."""
        queue, seen = list(events), []
        while queue:
            event = queue.pop(0)
            seen.append(event)
            if self.ledger.apply([event]):
                queue[:0] = self.game.hold_refused(event.key)
        self.log += seen
        self.check()
        return seen

    def check(self) -> None:
        assert self.ledger.house == 0
        assert self.ledger.held == self.game.held == sum(self.game.bankrolls.values())
        assert sum(self.ledger.wallets.values()) + self.ledger.held == self.money

    def start(self):
        return self._run(self.game.start())

    def act(self, player, action):
        return self._run(self.game.act(player, action))

    def advance(self, ticks):
        return self._run(self.game.advance(ticks))

    def leave(self, player):
        return self._run(self.game.leave(player))

    def close(self):
        return self._run(self.game.close())


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]

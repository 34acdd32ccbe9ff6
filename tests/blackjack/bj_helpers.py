"""A small ledger model, a seeded draw and event filters for the blackjack engine tests."""
from __future__ import annotations

import random

from server.games.blackjack.game import BlackjackGame
from server.games.blackjack.options import BlackjackOptions
from server.games.intents import Forfeit, Hold, Refund, Settle

HZ = 10


def of(events, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


class Draws:
    """draw(n) from a seeded generator, every value kept (to shuffle the shoe again, independently)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.values: list[tuple[int, int]] = []

    def __call__(self, n: int) -> int:
        v = self.rng.randrange(n)
        self.values.append((n, v))
        return v


def stacked(game, ranks, fill: int = 52) -> None:
    """Put a shoe whose first cards have these ranks (1-13) in the game, then `fill` more cards."""
    from server.games.blackjack.cards import Card
    from server.games.blackjack.shoe import Shoe
    order = tuple(Card(r, i % 4) for i, r in enumerate(ranks)) + tuple(Card.of(n) for n in range(fill))
    game.shoe = Shoe(order, game.options.penetration)


def new(draw=None, order=("ann",), timed=False, **options) -> BlackjackGame:
    seats = list(order)
    return BlackjackGame(BlackjackOptions(**options), draw or Draws(1), HZ, "t",
                         order=lambda: seats, timed=lambda: timed)


class Ledger:
    """Applies money intents like the host would, and checks each stake ends once."""

    def __init__(self) -> None:
        self.open: dict[str, tuple[str, int]] = {}
        self.closed: set[str] = set()
        self.held = self.paid = self.refunded = self.house = 0
        self.wallet_delta: dict[str, int] = {}

    def apply(self, events) -> None:
        for e in events:
            if isinstance(e, Hold):
                assert e.key not in self.open and e.key not in self.closed
                assert type(e.amount) is int and e.amount > 0
                self.open[e.key] = (e.player, e.amount)
                self.held += e.amount
                self._move(e.player, -e.amount)
            elif isinstance(e, Settle):
                stakes = sum(self._close(k)[1] for k in e.stakes)
                pays = sum(chips for _, chips in e.pays)
                assert all(type(c) is int and c >= 0 for _, c in e.pays)
                for player, chips in e.pays:
                    self._move(player, chips)
                self.paid += pays
                self.house += stakes - pays
            elif isinstance(e, Refund):
                player, amount = self._close(e.stake)
                self.refunded += amount
                self._move(player, amount)
            else:
                assert not isinstance(e, Forfeit), "blackjack never forfeits"

    def cancel(self, key: str) -> None:
        player, amount = self.open.pop(key)
        self.held -= amount
        self._move(player, amount)

    def _close(self, key: str) -> tuple[str, int]:
        assert key in self.open, f"stake {key} is not open"
        self.closed.add(key)
        return self.open.pop(key)

    def _move(self, player: str, chips: int) -> None:
        self.wallet_delta[player] = self.wallet_delta.get(player, 0) + chips

    def conserved(self) -> bool:
        open_chips = sum(a for _, a in self.open.values())
        return (self.held == self.paid + self.house + self.refunded + open_chips
                and sum(self.wallet_delta.values()) + self.house + open_chips == 0)

"""A small model of the ledger for a game's engine tests: applies money intents
as the host would, checks that each stake ends exactly once, and keeps the
totals that conservation is checked against."""
from __future__ import annotations

from server.games.intents import Forfeit, Hold, Refund, Settle


class Ledger:
    """Applies money intents like the host would, and checks each stake ends once."""

    def __init__(self, forfeits: bool = False) -> None:
        self.forfeits = forfeits                       # whether the game under test may forfeit
        self.open: dict[str, tuple[str, int]] = {}     # stake key -> (player, amount)
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
                assert self.forfeits or not isinstance(e, Forfeit), "this game never forfeits"

    def cancel(self, key: str) -> None:
        """The hold was refused: it never happened."""
        player, amount = self.open.pop(key)
        self.held -= amount
        self._move(player, amount)

    def conserved(self) -> bool:
        """Every chip held is paid, the house's, refunded or still open; the wallets and the house sum to 0."""
        still = sum(a for _, a in self.open.values())
        return (self.held == self.paid + self.house + self.refunded + still
                and sum(self.wallet_delta.values()) + self.house + still == 0)

    def _close(self, key: str) -> tuple[str, int]:
        assert key in self.open, f"stake {key} is not open"
        self.closed.add(key)
        return self.open.pop(key)

    def _move(self, player: str, chips: int) -> None:
        self.wallet_delta[player] = self.wallet_delta.get(player, 0) + chips

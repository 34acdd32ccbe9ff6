"""Fixed pockets, a small ledger model and event filters for the wheel tests."""
from __future__ import annotations

from collections.abc import Iterable

from server.games.intents import Forfeit, Hold, Refund, Settle
from server.games.roulette import RouletteOptions, RouletteWheel

HZ = 10


class Pockets:
    """draw(37) answered from a list, as a fixed wheel for tests."""

    def __init__(self, pockets: Iterable[int]) -> None:
        self._pockets = iter(pockets)
        self.calls = 0

    def __call__(self, n: int) -> int:
        assert n == 37, n
        self.calls += 1
        try:
            return next(self._pockets)
        except StopIteration:
            raise AssertionError("the test wheel ran out of pockets") from None


def new(pockets: Iterable[int] = (), table_id: str = "t", **options) -> RouletteWheel:
    return RouletteWheel(RouletteOptions(**options), Pockets(pockets), HZ, table_id)


def of(events, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


def kinds(events) -> list[str]:
    return [type(e).__name__ for e in events]


def hold_key(events) -> str:
    (hold,) = of(events, Hold)
    return hold.key


class Ledger:
    """Applies money intents like the host would, and checks each stake ends once."""

    def __init__(self) -> None:
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
                assert not isinstance(e, Forfeit), "roulette never forfeits"

    def cancel(self, key: str) -> None:
        """The hold was refused: it never happened."""
        player, amount = self.open.pop(key)
        self.held -= amount
        self._move(player, amount)

    def _close(self, key: str) -> tuple[str, int]:
        assert key in self.open, f"stake {key} is not open"
        self.closed.add(key)
        return self.open.pop(key)

    def _move(self, player: str, chips: int) -> None:
        self.wallet_delta[player] = self.wallet_delta.get(player, 0) + chips

"""Fixed pockets, a small ledger model and event filters for the wheel tests."""
from __future__ import annotations

from collections.abc import Iterable

from server.games.intents import Hold
from support.stakes import Ledger as Ledger
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

"""One `relief` claim at a time per player (server.commands.relief)."""
from __future__ import annotations

import asyncio
import weakref


class ReliefLocks:
    """A lock per player while a claim of theirs runs: two sessions typing
    `relief` at once are judged one after the other. The map is weak, so it
    holds a lock only while a claim holds it, and nobody who is not claiming."""

    def __init__(self) -> None:
        self._claims: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def of(self, player: str) -> asyncio.Lock:
        """The player's lock; hold on to it for as long as the claim runs."""
        lock = self._claims.get(player)
        if lock is None:
            lock = self._claims[player] = asyncio.Lock()
        return lock

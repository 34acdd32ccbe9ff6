"""Who is online, kept in name order as people come and go, so `who` pages
and filters by prefix without sorting the whole casino on every call.

`Online` is the casino's map of account key -> live session; every way an
entry is set or removed keeps the sorted roster beside it (an insort and a
bisect: a memmove, not a sort), so a page of `who` costs the same with 5 or
5,000 people online.

`version` counts the changes, so a view drawn from the roster (a page of
`who`) can be kept until the roster under it changes.
"""
from __future__ import annotations

from bisect import bisect_left, insort
from typing import TYPE_CHECKING, Callable, Generic, TypeVar

if TYPE_CHECKING:
    from server.net.session import LoggedIn


K = TypeVar("K")
V = TypeVar("V")


class Online(dict[str, "LoggedIn"]):
    """key -> session, plus `names`: (lower-case name, key) in order, and
    `version`, one more after every arrival and departure. `on_change` hears
    the key of each arrival and departure (a shard's subjects on the bus
    follow it: server/casino/crossing.py)."""

    def __init__(self) -> None:
        super().__init__()
        self.names: list[tuple[str, str]] = []
        self.version = 0
        self.on_change: Callable[[str], None] = lambda key: None

    def __setitem__(self, key: str, session: LoggedIn) -> None:
        arrived = key not in self
        if not arrived:
            self._forget(key)
        super().__setitem__(key, session)
        insort(self.names, (session.name.lower(), key))
        self.version += 1
        if arrived:
            self.on_change(key)

    def __delitem__(self, key: str) -> None:
        self._forget(key)
        super().__delitem__(key)
        self.on_change(key)

    def remove(self, key: str) -> LoggedIn | None:
        """Take `key` off the roster: its session, or None if it was not on it
        (a plain dict's pop would skip the name index)."""
        if key not in self:
            return None
        session = self[key]
        del self[key]
        return session

    def pop(self, *args: object) -> LoggedIn:
        raise TypeError("Online.pop would skip the name index: use remove(key)")

    def _forget(self, key: str) -> None:
        entry = (self[key].name.lower(), key)
        i = bisect_left(self.names, entry)
        if i < len(self.names) and self.names[i] == entry:
            del self.names[i]
        self.version += 1

    def page(self, prefix: str, number: int, size: int) -> tuple[list[LoggedIn], int]:
        """Page `number` (from 1) of the sessions whose name starts with
        `prefix`, in name order, and how many match in all."""
        prefix = prefix.lower()
        lo = bisect_left(self.names, (prefix,))
        hi = bisect_left(self.names, (prefix + "\U0010ffff",)) if prefix else len(self.names)
        start = lo + (number - 1) * size
        return [self[key] for _, key in self.names[start:min(start + size, hi)]], hi - lo


class Memo(Generic[K, V]):
    """Views drawn from the casino's state (a page of `who`), kept while that
    state holds: in a crowd most `who`s ask for a page nothing has changed
    since it was last drawn. `state` is whatever the view was drawn from,
    compared with ==; a new state forgets every view drawn before it."""

    LIMIT = 256           # views kept at most (the prefixes asked are the players')

    def __init__(self) -> None:
        self._state: object = None
        self._views: dict[K, V] = {}

    def get(self, state: object, key: K) -> V | None:
        """What was drawn for `key` in `state`, or None."""
        if state != self._state:
            return None
        return self._views.get(key)

    def keep(self, state: object, key: K, view: V) -> None:
        if state != self._state or len(self._views) >= self.LIMIT:
            self._state, self._views = state, {}
        self._views[key] = view

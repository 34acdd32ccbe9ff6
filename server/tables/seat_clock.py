"""Time at a table: each seat's visit, counted from the tick it was taken.

The table calls `clock` after every input, so every way out of a seat (leave,
a waited leave, a drop, a closing) is counted without each path having to say
so; the time of each seat that ended goes to the table-time store (`stats`).
Time is not money: a lost write is logged and play goes on.
"""
from __future__ import annotations

import logging
from typing import Iterable, Protocol

from server import logs
from server.games.seating import Seat
from server.tables.manager import Manager

log = logging.getLogger("casino.tables")


class TimeKeeper(Protocol):
    """Where time at the tables goes (server.accounts.table_time), and the
    rounds played there for no chips, which the ledger cannot count."""

    async def add(self, player: str, table: str, millis: int) -> None: ...

    async def add_round(self, player: str, table: str) -> None: ...


class SeatClock:
    def __init__(self, table_id: str, manager: Manager, keeper: TimeKeeper) -> None:
        self.table_id = table_id
        self.manager = manager
        self.keeper = keeper
        self._since: dict[str, int] = {}          # account key -> the manager tick its seat was taken

    def seated_ticks(self, key: str) -> int | None:
        """Ticks the account `key` has sat here in its current visit, or None."""
        start = self._since.get(key)
        return None if start is None else self.manager.ticks - start

    async def played(self, keys: Iterable[str]) -> None:
        """A round that moved no chips was played by these accounts (a game of
        Pig against the computer): one more round each in `stats`. Not money:
        a lost write is logged and play goes on."""
        for key in keys:
            try:
                await self.keeper.add_round(key, self.table_id)
            except Exception as err:      # noqa: BLE001 - a count, not money: play goes on, the loss is logged
                logs.event(log, "round_count_lost", table=self.table_id, player=key, why=err)

    async def clock(self, seats: Iterable[Seat], everyone: bool = False) -> None:
        """Start the clock of each seat just taken; add the time of each seat
        that ended (`everyone`: the table is closing) to the store."""
        keys = [s.key for s in seats]
        if not everyone and len(keys) == len(self._since) and all(k in self._since for k in keys):
            return                                         # nobody came or went: the usual case
        now = self.manager.ticks
        here = set() if everyone else set(keys)
        for key in here - self._since.keys():
            self._since[key] = now
        for key in [k for k in self._since if k not in here]:
            millis = (now - self._since.pop(key)) * 1000 // self.manager.tick_hz
            try:
                await self.keeper.add(key, self.table_id, millis)
            except Exception as err:      # noqa: BLE001 - time is not money: play goes on, the loss is logged
                logs.event(log, "table_time_lost", table=self.table_id, player=key, millis=millis, why=err)

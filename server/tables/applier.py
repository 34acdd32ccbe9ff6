"""Carrying out what a table's game answered, in order.

A dealer answers every input with events; the table hands them here. Money
intents go to the cashier first (a refused Hold comes back as the game's
answer to it, in place); a question is put to its player's prompt; a hand's
result goes to the operator's log; a Notice is told now or kept for the next
login; a round played for no chips is counted for `stats` beside the
ledger; a wallet report reads the ledger after the money before it; every
other event is a fact, shown to the table's viewers. After each batch the
seat clock counts who came and went.
"""
from __future__ import annotations

import logging
from typing import Awaitable, Callable, Protocol

from server import logs
from server.accounts.names import name_key
from server.games.intents import Forfeit, Hold, Refund, Settle
from server.games.seam import Ask, Event, HandResult, Notice, RoundPlayed, WalletReport
from server.ledger import Balance, LedgerError
from server.tables.core import TableCore
from server.tables.delivery import Delivery, Viewing
from server.tables.money import Cashier, TableLedger
from server.tables.seat_clock import SeatClock

log = logging.getLogger("casino.tables")

Answer = Callable[[Viewing, str], Callable[[str], Awaitable[bool]]]
"""The table's handler for a player's answer to an Ask (session, the Ask's word)."""


class HostLedger(TableLedger, Protocol):
    """What a table reads and writes of the ledger (server.ledger.Ledger):
    the cashier's writes, a wallet to play with, a notice for one who is gone."""

    async def balance(self, player: str) -> Balance: ...
    async def notify(self, player: str, text: str) -> None: ...


class Applier:
    def __init__(self, table_id: str, core: TableCore, cashier: Cashier, delivery: Delivery,
                 ledger: HostLedger, seat_clock: SeatClock, answer: Answer) -> None:
        self.table_id = table_id
        self.core = core
        self.cashier = cashier
        self.delivery = delivery
        self.ledger = ledger
        self.seat_clock = seat_clock
        self.answer = answer
        self._retry_ticks = 0

    async def apply(self, events: list[Event]) -> None:
        """Apply money intents in order, then show every fact to its viewers.

        The viewers are looked up once for a run of facts (a roll is a couple
        of hundred): the seats changed before the run began (the core carries
        out a SeatRequest where the dealer made it), never during it."""
        queue = list(events)
        audience = None
        while queue:
            event = queue.pop(0)
            if isinstance(event, (Hold, Settle, Refund, Forfeit)):
                queue[:0] = await self.cashier.pay(event, self.core.hold_refused, self.core.seating.names)
            elif isinstance(event, Ask):
                session = self.delivery.session_of(event.player)
                if session is not None:
                    session.ask(event.prompt, self.answer(session, event.word))
            elif isinstance(event, HandResult):
                logs.event(log, "hand_result", table=self.table_id, **dict(event.fields))
            elif isinstance(event, Notice):
                await self.notice(event)
            elif isinstance(event, RoundPlayed):
                await self.seat_clock.played(name_key(p) for p in event.players)
            elif isinstance(event, WalletReport):
                session = self.delivery.session_of(event.player)
                if session is not None:
                    balance = await self.ledger.balance(session.key)
                    self.delivery.tell(session, f"Wallet: {balance.wallet} chips.")
            else:
                if audience is None:
                    audience = self.delivery.audience(self.core)
                self.delivery.show(self.core, event, audience)
        await self.seat_clock.clock(self.core.seating.seats)

    async def notice(self, notice: Notice) -> None:
        """Tell a connected player now; keep it for the next login of one who is gone."""
        session = self.delivery.session_of(notice.player)
        if session is not None and not session.gone:        # a drop being handled is gone already
            self.delivery.tell(session, f"Notice: {notice.text}")
            return
        try:
            await self.ledger.notify(name_key(notice.player), notice.text)
        except LedgerError as err:
            logs.event(log, "notice_lost", table=self.table_id, player=notice.player, why=err)

    async def tick(self, ticks: int, every: int) -> None:
        """Time passed: retry settlements the ledger could not write, every `every` ticks."""
        if not self.cashier.pending:
            return
        self._retry_ticks += ticks
        if self._retry_ticks >= every:
            self._retry_ticks = 0
            await self.retry_pending()

    async def retry_pending(self) -> None:
        """Write again the settlements the ledger refused, and tell their players."""
        for players in await self.cashier.retry():
            for player in players:
                self.delivery.tell_player(player, "The pending settlement has now been recorded.")

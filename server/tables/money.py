"""A table's cashier: the game's money intents written to the ledger, in order.

A game's intent keys count from 1 per dealer; the cashier makes them unique
across restarts (the run id) and across dealers of one run (the install
number, after a reload), so a key the ledger has seen is always a retry that
moves nothing. It keeps the table's open stakes (what `tables` and `quit`
show, and what "at rest" means) and the settlements the ledger could not
write yet, which it retries until they are durable. What it cannot write is
answered as events for the table to apply: a refused hold goes back to the
game, a failed settlement is told to its players as "pending recovery",
never as paid.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable, Protocol

from server import logs
from server.accounts.names import name_key
from server.metrics import COUNTS
from server.games.intents import Hold, MoneyIntent, Refund, Settle
from server.games.seam import Event, Note
from server.ledger import InsufficientFunds, LedgerError, Refused

log = logging.getLogger("casino.tables")

PENDING = ("Settlement pending recovery: the ledger could not record it yet. "
           "Your stake stays held until it is; nothing is paid twice.")


class TableLedger(Protocol):
    """What a table writes to the ledger (server.ledger.Ledger)."""

    async def hold(self, key: str, player: str, table: str, amount: int) -> object: ...
    async def settle(self, key: str, table: str, stakes: list[str], pays: dict[str, int],
                     risked: dict[str, int] | None = None) -> object: ...
    async def refund(self, key: str, table: str, stake: str) -> object: ...
    async def forfeit(self, key: str, table: str, stake: str) -> object: ...


@dataclass
class PendingIntent:
    intent: MoneyIntent
    players: tuple[str, ...]


class Cashier:
    def __init__(self, ledger: TableLedger, table: str, run_id: str, game: str = "") -> None:
        self.ledger = ledger
        self.game = game                               # the label of its chips in casino_chips_*_total
        self.table = table
        self.run_id = run_id
        self.installs = 0                              # dealers installed before the current one
        self.stakes: dict[str, tuple[str, int]] = {}   # open holds by game key: (player, chips)
        self.pending: list[PendingIntent] = []         # writes the ledger failed; retried
        self.touched: set[str] = set()                 # players whose chips moved since asked

    @property
    def at_rest(self) -> bool:
        """No stake is live and no settlement is waiting: safe to change or close."""
        return not self.stakes and not self.pending

    def chips_at_stake(self, player: str) -> int:
        """Chips `player` has in open stakes here."""
        return sum(chips for owner, chips in self.stakes.values() if owner == player)

    def key(self, key: str) -> str:
        """The game's key made unique across restarts and across dealers of this run."""
        if self.installs:
            return f"{self.run_id}.{self.installs}:{key}"
        return f"{self.run_id}:{key}"

    async def _write(self, intent: MoneyIntent) -> None:
        """One money intent to the ledger; returns only when durable."""
        k = self.key
        if isinstance(intent, Hold):
            await self.ledger.hold(k(intent.key), name_key(intent.player), self.table, intent.amount)
        elif isinstance(intent, Settle):
            stakes = [k(s) for s in intent.stakes]
            if intent.risked is None:
                await self.ledger.settle(k(intent.key), self.table, stakes, _sum_pays(intent.pays))
            else:
                await self.ledger.settle(k(intent.key), self.table, stakes, _sum_pays(intent.pays),
                                         risked=_sum_pays(intent.risked))
        elif isinstance(intent, Refund):
            await self.ledger.refund(k(intent.key), self.table, k(intent.stake))
        else:
            await self.ledger.forfeit(k(intent.key), self.table, k(intent.stake))

    async def pay(self, intent: MoneyIntent, refused: Callable[[str, str], list[Event]],
                  seated: Callable[[], list[str]]) -> list[Event]:
        """Write an intent. A refused hold is answered by `refused(key, reason)`
        (the game cancels the wager); a failed settlement is kept for retry and
        its players (those it pays, else everyone `seated`) are told."""
        try:
            await self._write(intent)
        except Refused as err:
            if isinstance(intent, Hold):
                logs.event(log, "hold_refused", table=self.table, player=intent.player,
                           chips=intent.amount, why=err)
                return refused(intent.key, hold_refusal(err))
            log.error("event=settlement_refused table=%s key=%s error=%s", self.table, intent.key, err)
            return []
        except LedgerError as err:
            if isinstance(intent, Hold):
                logs.event(log, "hold_failed", table=self.table, player=intent.player, why=err)
                return refused(intent.key, "The cashier could not take that wager just now.")
            paid = tuple(p for p, _ in intent.pays) if isinstance(intent, Settle) else ()
            players = paid or tuple(seated())
            self.pending.append(PendingIntent(intent, players))
            logs.event(log, "settlement_pending", table=self.table, key=intent.key, why=err)
            return [Note(players, PENDING)]
        self._count(intent)
        self._track(intent)
        if isinstance(intent, Settle):
            logs.event(log, "settlement", table=self.table, key=intent.key, stakes=len(intent.stakes),
                       paid=sum(a for _, a in intent.pays))
        return []

    def _count(self, intent: MoneyIntent) -> None:
        """A durable intent in the casino's counts (server.metrics): chips wagered,
        and a settlement's round, the stakes it decided and what it paid."""
        if isinstance(intent, Hold):
            COUNTS.wagered[self.game] += intent.amount
        elif isinstance(intent, Settle):
            COUNTS.rounds[self.game] += 1
            COUNTS.settled[self.game] += sum(self.stakes[s][1] for s in intent.stakes if s in self.stakes)
            COUNTS.paid[self.game] += sum(a for _, a in intent.pays)

    def _track(self, intent: MoneyIntent) -> None:
        """Keep the open stakes; note whose chips moved (their Char.Status is resent)."""
        if isinstance(intent, Hold):
            self.touched.add(intent.player)
            self.stakes[intent.key] = (intent.player, intent.amount)
        elif isinstance(intent, Settle):
            self.touched.update(p for p, _ in intent.pays)
            self.touched.update(self.stakes[s][0] for s in intent.stakes if s in self.stakes)
            for stake in intent.stakes:
                self.stakes.pop(stake, None)
        else:
            if intent.stake in self.stakes:
                self.touched.add(self.stakes[intent.stake][0])
            self.stakes.pop(intent.stake, None)

    async def retry(self) -> list[tuple[str, ...]]:
        """Write what is pending again; the players of each write that is now durable."""
        still: list[PendingIntent] = []
        recovered: list[tuple[str, ...]] = []
        for item in self.pending:
            try:
                await self._write(item.intent)
            except LedgerError:
                still.append(item)
                continue
            self._count(item.intent)
            self._track(item.intent)
            logs.event(log, "settlement_recovered", table=self.table, key=item.intent.key)
            recovered.append(item.players)
        self.pending = still
        return recovered


def hold_refusal(err: Exception) -> str:
    """Why the ledger would not hold a stake, as a player reads it: no
    account names, keys or amounts the player did not type."""
    if isinstance(err, InsufficientFunds):
        return f"your wallet has {err.balance} chips" if err.balance else "your wallet is empty"
    return "the cashier could not take it"


def _sum_pays(pays: tuple[tuple[str, int], ...]) -> dict[str, int]:
    """Pays by ledger key (games name players by display name)."""
    total: dict[str, int] = {}
    for player, amount in pays:
        key = name_key(player)
        total[key] = total.get(key, 0) + amount
    return total

"""`relief`: a way back from zero (issue 31).

A player who cannot make the smallest bet anywhere would otherwise have
nothing left to do in a casino. They may ask the house for `relief.amount`
chips, at most once per `relief.every_hours`, counted from their last relief.

Paying it twice must be impossible, whatever happens between asking and
hearing the answer, so three things stand in the way:
- the wait is read from the ledger itself (`Ledger.last_minted`): a restart,
  a reconnect or a second session sees the relief the first one got;
- one claim per player runs at a time (a lock per player name), so two
  sessions typing `relief` at once are judged one after the other, and the
  second is told honestly that it was already claimed;
- the mint's idempotency key names the player and the period, so whatever
  slips past both (a retry after a crash) mints nothing the second time.
  A relief let through by the wait is always in a new period: its last one
  is at least one period old. `every_hours` is in the key too, so periods
  of another length after a `reload` never collide with old keys.
"""
from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Mapping, Protocol

from server import logs
from server.commands.registry import REGISTRY, Context
from server.config.model import CasinoConfig, GameOptions, TableConfig
from server.ledger import KeyConflict, Ledger
from server.net import mud
from server.net.session import LoggedIn
from server.tables.table import Table

log = logging.getLogger("casino.relief")
REASON = "relief"          # the mint's reason: what `statement` shows


class PlayerLocks(Protocol):
    """A lock per player (server.casino.relief_locks.ReliefLocks)."""

    def of(self, player: str) -> asyncio.Lock: ...


class ReliefApp(Protocol):
    """What `relief` uses of the casino: the rules (config), the wall clock
    its waits are counted by, the ledger that mints it and knows the last,
    the tables whose smallest bet says who is broke, one claim at a time
    per player, and the chips told to GMCP after."""

    @property
    def config(self) -> CasinoConfig: ...
    @property
    def ledger(self) -> Ledger: ...
    @property
    def tables(self) -> Mapping[str, Table]: ...
    @property
    def relief_locks(self) -> PlayerLocks: ...

    def wall_clock(self) -> float: ...          # epoch seconds (tests move it)
    async def status(self, session: LoggedIn) -> dict[str, object]: ...   # GMCP Char.Status


Ctx = Context[ReliefApp]


class ChipGame(Protocol):
    """A table's game, asked whether it plays ledger chips (a Table, or its Dealer)."""

    def plays_for_chips(self) -> bool: ...


def takes_chips(table: TableConfig[GameOptions], game: ChipGame) -> bool:
    """Whether playing at the table costs ledger chips. A Pig table without a
    stake (min_bet 0) plays for nothing, and a game may play chips that never
    reach the ledger (classic dice: a practice bankroll): being broke keeps
    nobody from either, so neither says what "too poor to play" is."""
    return table.min_bet > 0 and game.plays_for_chips()


def smallest_minimum_bet(tables: Iterable[tuple[TableConfig[GameOptions], ChipGame]]) -> int:
    """The smallest minimum bet over the tables that take chips: a player
    below it can play nowhere. 1 when no table takes chips (only a player
    with no chips at all is then below every table)."""
    return min((t.min_bet for t, game in tables if takes_chips(t, game)), default=1)


def relief_prefix(player: str) -> str:
    """Every relief key of the player starts with this (`Ledger.last_minted`)."""
    return f"relief:{player}:"


def relief_period(every_hours: int, now: float) -> int:
    """Which period of `every_hours` `now` falls in, counted from the epoch."""
    return int(now // (every_hours * 3600))


def relief_key(player: str, every_hours: int, period: int) -> str:
    """The mint's idempotency key: one per player and period."""
    return f"{relief_prefix(player)}{every_hours}h:{period}"


def span(seconds: float) -> str:
    """A wait in words a player reads at a glance: 20h 50m, 24h, 45m; days
    (3d 4h) only past two days, so the usual day's wait reads as 24h."""
    minutes = max(0, int(seconds // 60))
    days, rest = divmod(minutes, 24 * 60) if minutes >= 48 * 60 else (0, minutes)
    hours, minutes = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    return f"{minutes}m" if minutes else "less than a minute"


def at(when: float, now: float) -> str:
    """A UTC time; with its date when it is not today."""
    moment, today = datetime.fromtimestamp(when, UTC), datetime.fromtimestamp(now, UTC)
    return f"{moment:%H:%M} UTC" if moment.date() == today.date() else f"{moment:%Y-%m-%d %H:%M} UTC"


def chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def hours(n: int) -> str:
    return f"{n} hour" if n == 1 else f"{n} hours"


@REGISTRY.command("relief", help="""relief - out of chips? When your chips (wallet and bets at tables) are below the smallest bet at every table, the house gives you some, at most once a day.
How many chips and how often is the operator's choice (100 chips every 24 hours
unless they say otherwise). A refusal says why, and when you may ask again.""")
async def relief(ctx: Ctx) -> None:
    if ctx.argv:
        ctx.tell("relief takes nothing after it: type just 'relief'.")
        return
    async with ctx.app.relief_locks.of(ctx.session.key):
        await _claim(ctx)


async def _claim(ctx: Ctx) -> None:
    app, player = ctx.app, ctx.session.key
    rules = app.config.settings.relief
    period = rules.every_hours * 3600
    now = app.wall_clock()
    last = await app.ledger.last_minted(relief_prefix(player))
    if last is not None and now - last < period:
        due = last + period
        ctx.tell(f"Relief was claimed {span(now - last)} ago; the next is yours in "
                 f"{span(due - now + 59)} (at {at(due, now)}).")     # the wait rounded up to a minute
        return
    bal = await app.ledger.balance(player)
    floor = smallest_minimum_bet((table.config, table) for table in app.tables.values()
                                 if not (table.closing or table.retiring))
    if bal.total >= floor:
        held = bal.total - bal.wallet
        where = f" ({bal.wallet} in your wallet, {held} at tables)" if held else " in your wallet"
        ctx.tell(f"You still have {chips(bal.total)}{where}: relief is for players below "
                 f"{chips(floor)}, the smallest bet here.")
        return
    number = relief_period(rules.every_hours, now)
    key = relief_key(player, rules.every_hours, number)
    try:
        await app.ledger.mint(key, player, rules.amount, REASON)
    except KeyConflict:
        # this period's relief was minted with another amount (a reload between
        # a claim whose reply was lost and its retry): it was paid, once
        ctx.tell(f"Your relief for this period was already paid; ask again in at most {hours(rules.every_hours)}.")
        return
    logs.event(log, "relief", name=player, amount=rules.amount, period=number,
               every_hours=rules.every_hours, had=bal.total)
    ctx.tell(f"The house gives you {chips(rules.amount)} of relief. "
             f"Next relief: in {hours(rules.every_hours)} at the soonest.")
    mud.send(ctx.session, "Char.Status", await app.status(ctx.session))

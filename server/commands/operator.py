"""Operator commands: only accounts named under `operators:` have them.

For everyone else these words do not exist: `help` does not list them and
typing one gets the same "No such command" as any unknown word.
"""
from __future__ import annotations

import asyncio
import logging
from typing import Mapping, Protocol

from server import logs
from server.accounts.names import name_key
from server.accounts.store import AccountStore
from server.cli.ledger import report_lines
from server.commands.registry import REGISTRY, Context
from server.config.model import CasinoConfig
from server.db.url import Database
from server.ledger import Ledger
from server.tables.table import Table
from server.world.rooms import World
from server.world.roster import Online

log = logging.getLogger("casino.operator")
command = REGISTRY.command
MAX_GRANT = 1_000_000_000


class OperatorApp(Protocol):
    """What the operator commands use of the casino: accounts and the ledger
    (`grant`, `ledger check` on the live database), who is online (`kick`),
    the rooms and tables (`tables`, `close`; the config names a closed
    room's tables), and the casino's life (`shutdown`, `restart`, `reload`)."""

    @property
    def accounts(self) -> AccountStore: ...
    @property
    def ledger(self) -> Ledger: ...
    @property
    def database(self) -> Database: ...
    @property
    def online(self) -> Online: ...
    @property
    def world(self) -> World: ...
    @property
    def tables(self) -> Mapping[str, Table]: ...
    @property
    def closed_rooms(self) -> set[str]: ...
    @property
    def config(self) -> CasinoConfig: ...

    def grant_key(self) -> str: ...             # a grant's ledger key, unique across restarts
    async def close_room(self, room_id: str, reason: str) -> list[str]: ...
    def schedule_shutdown(self, seconds: int, reason: str) -> None: ...
    def request_restart(self, reason: str) -> str | None: ...
    async def reload(self) -> tuple[bool, list[str]]: ...


Ctx = Context[OperatorApp]


@command("grant", operator=True, topic="operator",
         help="""grant <player> <chips> <reason> - give a player chips, recorded in the ledger as a mint.""")
async def grant(ctx: Ctx) -> None:
    if len(ctx.argv) < 3:
        ctx.tell("Usage: grant <player> <chips> <reason>")
        return
    who, amount, reason = ctx.argv[0], ctx.argv[1], " ".join(ctx.argv[2:])
    if not (amount.isascii() and amount.isdigit()) or not 1 <= int(amount) <= MAX_GRANT:
        ctx.tell(f"Chips must be a whole number from 1 to {MAX_GRANT}.")
        return
    account = await ctx.app.accounts.get(who)
    if account is None:
        ctx.tell(f"No account called {who[:20]}.")
        return
    chips = int(amount)
    key = ctx.app.grant_key()
    await ctx.app.ledger.mint(key, account.key, chips, f"grant by {ctx.session.name}: {reason}")
    logs.event(log, "grant", operator=ctx.session.key, player=account.key, chips=chips, reason=reason)
    ctx.tell(f"Granted {chips} chips to {account.name}.")
    target = ctx.app.online.get(account.key)
    if target is not None and target is not ctx.session:
        target.tell(f"An operator granted you {chips} chips ({reason}).")


@command("kick", operator=True, topic="operator",
         help="""kick <player> - disconnect a player (their live bets are handled as a disconnect).""")
async def kick(ctx: Ctx) -> None:
    if len(ctx.argv) != 1:
        ctx.tell("Usage: kick <player>")
        return
    target = ctx.app.online.get(name_key(ctx.argv[0]))
    if target is None:
        ctx.tell(f"{ctx.argv[0][:20]} is not connected.")
        return
    logs.event(log, "kick", operator=ctx.session.key, player=target.key)
    target.close("You have been disconnected by an operator.")
    ctx.tell(f"Kicked {target.name}.")


@command("ledger", operator=True, topic="operator",
         help="""ledger check - verify every ledger invariant on the live database.""")
async def ledger(ctx: Ctx) -> None:
    from server.ledger import check
    if ctx.argv != ["check"]:
        ctx.tell("Usage: ledger check")
        return
    report = await asyncio.to_thread(check, ctx.app.database)
    logs.event(log, "ledger_check", operator=ctx.session.key, ok=report.ok)
    ctx.tell(*report_lines(report))


@command("shutdown", operator=True, topic="operator",
         help="""shutdown [seconds] [reason] - count down, refund every open stake, and stop the server.""")
async def shutdown(ctx: Ctx) -> None:
    seconds, words = 0, list(ctx.argv)
    if words and words[0].isascii() and words[0].isdigit():
        seconds = min(int(words.pop(0)), 3600)
    reason = " ".join(words) or "The casino is closing."
    logs.event(log, "operator_shutdown", operator=ctx.session.key, seconds=seconds, reason=reason)
    ctx.app.schedule_shutdown(seconds, reason)
    ctx.tell(f"Shutdown in {seconds} seconds." if seconds else "Shutting down now.")


@command("restart", operator=True, topic="operator",
         help="""restart [reason] - restart the casino with the code now on disk; nobody is disconnected.
Every live stake is refunded (table state is not kept); each player is logged in again where they were.""")
async def restart(ctx: Ctx) -> None:
    reason = " ".join(ctx.argv) or "The casino is restarting."
    refused = ctx.app.request_restart(reason)
    if refused is not None:
        ctx.tell(*refused.splitlines())
        return
    logs.event(log, "operator_restart", operator=ctx.session.key, reason=reason)
    ctx.tell("Restarting now: everyone stays connected.")


@command("reload", operator=True, topic="operator",
         help="""reload - re-read config/ and rooms/; apply what is safe now and the rest when each table is idle.
Any error changes nothing; each is shown as file:line: key: problem.""")
async def reload(ctx: Ctx) -> None:
    applied, lines = await ctx.app.reload()
    logs.event(log, "operator_reload", operator=ctx.session.key, applied=applied)
    if not applied:
        ctx.tell(f"Reload refused: {len(lines)} error{'s' if len(lines) != 1 else ''}; nothing changed.")
    ctx.tell(*lines)


@command("tables", operator=True, topic="operator",
         help="""tables - every table: its room, players, phase and live stakes; a closed room's tables as closed.""")
async def tables(ctx: Ctx) -> None:
    """One row a table, in columns as wide as the longest table id, game and
    room (issue 38 item 12), so no row is pushed right and each fits 80
    columns; the phase and players go on the line under it."""
    app = ctx.app
    rooms = {t: r.id for r in app.world.rooms.values() for t in r.tables}
    closed = sorted(t for t, room in rooms.items() if room in app.closed_rooms and t not in app.tables)
    if not app.tables and not closed:
        ctx.tell("No tables are open.")
        return
    games = {**{t: app.config.tables[t].game for t in closed if t in app.config.tables},
             **{t: table.entry.game for t, table in app.tables.items()}}
    ids = sorted({*app.tables, *closed})
    id_w, game_w = max(map(len, ids)), max(len(games.get(t, "?")) for t in ids)
    room_w = max(len(rooms.get(t, "?")) for t in ids)
    for table_id in ids:
        row = f"{table_id:<{id_w}}  {games.get(table_id, '?'):<{game_w}}  room {rooms.get(table_id, '?'):<{room_w}}  "
        table = app.tables.get(table_id)
        if table is None:
            ctx.tell(row + "closed with its room until reload")
            continue
        players = ", ".join(s.player for s in table.seats()) or "nobody"
        live = sum(amount for _, amount in table.stakes.values())
        flags = (" [closing]" if table.retiring else "") + (" [new settings waiting]" if table.next_config else "")
        pending = f", {len(table.pending)} pending" if table.pending else ""
        ctx.tell(row + f"stakes {live} in {len(table.stakes)} hold(s){pending}{flags}")
        ctx.tell(f"{'':{id_w}}  {table.phase()}; players: {players}")


@command("close", operator=True, topic="operator",
         help="""close <room> - refund every stake at the room's tables, show everyone out, keep it closed until reload.""")
async def close(ctx: Ctx) -> None:
    if len(ctx.argv) != 1:
        ctx.tell("Usage: close <room>")
        return
    room = ctx.argv[0]
    if room not in ctx.app.world.rooms:
        ctx.tell(f"No room called {room[:20]}. Rooms: " + ", ".join(sorted(ctx.app.world.rooms)))
        return
    closed = await ctx.app.close_room(room, "The management has closed this room; every stake is refunded.")
    logs.event(log, "operator_close", operator=ctx.session.key, room=room, tables=len(closed))
    ctx.tell(f"Room {room} closed" + (f"; refunded and closed tables: {', '.join(closed)}." if closed else "."))

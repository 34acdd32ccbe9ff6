"""Operator commands: only accounts named under `operators:` have them.

For everyone else these words do not exist: `help` does not list them and
typing one gets the same "No such command" as any unknown word.
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Mapping, Protocol

from server import logs
from server.accounts.names import name_key, name_problem
from server.accounts.store import Account, AccountStore
from server.bus.bus import BusUnavailable, Message
from server.bus.words import WORDS, Heard
from server.cli.ledger import report_lines
from server.commands.registry import REGISTRY, Context
from server.config.model import CasinoConfig
from server.db.url import Database
from server.ledger import Ledger
from server.ledger.errors import Refused
from server.net.session import LoggedIn
from server.render.text import clean
from server.tables.table import Table
from server.world.rooms import World
from server.world.roster import Online

if TYPE_CHECKING:
    from server.casino.crossing import Crossing
    from server.casino.hosting import Hosting

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
    @property
    def hosting(self) -> Hosting: ...
    @property
    def crossing(self) -> Crossing | None: ...      # the other shards; None: one shard

    def grant_key(self) -> str: ...
    def broken_config(self) -> str | None: ...             # a grant's ledger key, unique across restarts
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
    chips, key = int(amount), ctx.app.grant_key()
    why = f"grant by {ctx.session.name}: {reason}"
    crossing = ctx.app.crossing
    if crossing is not None and account.key not in ctx.app.online:
        await _grant_elsewhere(ctx, crossing, account, chips, key, reason)
        return
    await ctx.app.ledger.mint(key, account.key, chips, why)
    _granted(ctx.app.online.get(account.key), ctx.session.key, account, chips, reason)
    ctx.tell(f"Granted {chips} chips to {account.name}.")


async def _grant_elsewhere(ctx: Ctx, crossing: Crossing, account: Account, chips: int, key: str,
                           reason: str) -> None:
    """A grant to a player this shard does not host: the shard that hosts them
    mints it (only it writes their wallet); to nobody's, this shard takes the
    wallet and mints it here. The bus down: nothing is minted, and it is said."""
    fields: Message = {"chips": chips, "key": key, "reason": reason, "by": ctx.session.name,
                       "operator": ctx.session.key}
    try:
        answer = await crossing.to_player(account.key, "grant", fields, timeout=5.0)
    except BusUnavailable as why:
        if not why.nobody:
            ctx.tell(f"Not granted: {why}. If it said no answer, check {account.name}'s statement "
                     "before you grant again.")
            return
        await ctx.app.ledger.claim([account.key])        # connected nowhere: this shard writes it now
        await ctx.app.ledger.mint(key, account.key, chips, f"grant by {ctx.session.name}: {reason}")
        _granted(None, ctx.session.key, account, chips, reason)
        ctx.tell(f"Granted {chips} chips to {account.name}.")
        return
    if "error" in answer:
        ctx.tell(f"Not granted: {answer['error']}.")
        return
    ctx.tell(f"Granted {chips} chips to {account.name}.")


def _granted(target: LoggedIn | None, operator: str | None, account: Account, chips: int, reason: str) -> None:
    logs.event(log, "grant", operator=operator or "-", player=account.key, chips=chips, reason=reason)
    if target is not None and target.key != operator:
        target.tell(f"An operator granted you {chips} chips ({reason}).")


@WORDS.to_player("grant")
async def granted_here(heard: Heard[OperatorApp]) -> Message:
    """The far half of `grant`: the player is here, so this shard writes their wallet."""
    session, app = heard.session, heard.app
    assert session is not None
    chips, key = heard.number("chips"), heard.text("key", 100)
    if not 1 <= chips <= MAX_GRANT or not key.startswith("grant:"):
        return {"error": "the grant was malformed"}
    reason, by = heard.text("reason", 200), heard.text("by", 20)
    try:
        await app.ledger.mint(key, session.key, chips, f"grant by {by}: {reason}")
    except Refused as why:
        return {"error": str(why)}
    account = session.account
    _granted(session, heard.text("operator", 20) or None, account, chips, reason)
    return {"name": session.name}


@command("kick", operator=True, topic="operator",
         help="""kick <player> - disconnect a player (their live bets are handled as a disconnect).""")
async def kick(ctx: Ctx) -> None:
    if len(ctx.argv) != 1:
        ctx.tell("Usage: kick <player>")
        return
    name = ctx.argv[0]
    target = ctx.app.online.get(name_key(name))
    if target is not None:
        ctx.tell(f"Kicked {kicked(target, ctx.session.key)}.")
        return
    crossing = ctx.app.crossing
    answer = (BusUnavailable("one shard", nobody=True) if crossing is None
              else await crossing.ask_player(name, "kick", {"operator": ctx.session.key}))
    if isinstance(answer, BusUnavailable):
        ctx.tell(f"{name[:20]} is not connected." if answer.nobody else f"{name[:20]} was not kicked: {answer}.")
        return
    ctx.tell(f"Kicked {answer.get('name', name)}.")


def kicked(target: LoggedIn, operator: str | None) -> str:
    logs.event(log, "kick", operator=operator or "-", player=target.key)
    target.close("You have been disconnected by an operator.")
    return target.name


@WORDS.to_player("kick")
async def kicked_here(heard: Heard[OperatorApp]) -> Message:
    assert heard.session is not None
    return {"name": kicked(heard.session, heard.text("operator", 20) or None)}


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
Every live stake is refunded (table state is not kept); each player is logged in again where they were.
With shards, every shard restarts; 'restart shard <name> [reason]' restarts that one alone.""")
async def restart(ctx: Ctx) -> None:
    words = list(ctx.argv)
    one = words[1] if len(words) >= 2 and words[0].lower() == "shard" else None
    shards = [s.name for s in ctx.app.config.settings.shards]
    if one is not None and one not in shards:
        ctx.tell(f"No shard called {one[:20]}. Shards: " + (", ".join(shards) or "none (one process)") + ".")
        return
    reason = " ".join(words[2:] if one is not None else words) or "The casino is restarting."
    crossing = ctx.app.crossing
    refused = ctx.app.broken_config()
    if refused is not None:
        ctx.tell(*refused.splitlines())
        return
    logs.event(log, "operator_restart", operator=ctx.session.key, reason=reason, shard=one or "all")
    if crossing is not None and one != crossing.shard:
        targets = [one] if one is not None else crossing.others
        for shard in targets:
            try:
                answer = await crossing.to_shard(shard, "restart", {"reason": reason}, timeout=5.0)
            except BusUnavailable as why:
                ctx.tell(f"The {shard} shard was not restarted: {why}.")
                continue
            said = answer.get("refused")
            ctx.tell(*(str(said).splitlines() if said else [f"The {shard} shard is restarting."]))
        if one is not None:
            return
    refused = ctx.app.request_restart(reason)
    if refused is not None:
        ctx.tell(*refused.splitlines())
        return
    ctx.tell("Restarting now: everyone stays connected.")


@WORDS.to_shard("restart")
async def restart_here(heard: Heard[OperatorApp]) -> Message:
    return {"refused": heard.app.request_restart(heard.text("reason", 200) or "The casino is restarting.")}


@command("reload", operator=True, topic="operator",
         help="""reload - re-read config/ and rooms/; apply what is safe now and the rest when each table is idle.
Any error changes nothing; each is shown as file:line: key: problem. With shards, every shard reloads.""")
async def reload(ctx: Ctx) -> None:
    applied, lines = await ctx.app.reload()
    logs.event(log, "operator_reload", operator=ctx.session.key, applied=applied)
    if not applied:
        ctx.tell(f"Reload refused: {len(lines)} error{'s' if len(lines) != 1 else ''}; nothing changed.")
    ctx.tell(*lines)
    if ctx.app.crossing is None or not applied:
        return
    for shard, answer in (await ctx.app.crossing.to_others("reload", {}, timeout=10.0)).items():
        if isinstance(answer, BusUnavailable):
            ctx.tell(f"The {shard} shard did not reload: {answer}.")
        elif answer.get("applied") is True:
            ctx.tell(f"The {shard} shard reloaded too.")
        else:
            ctx.tell(f"The {shard} shard refused the reload:", *map(str, _list(answer.get("lines"))))


def _list(value: object) -> list[object]:
    return value if isinstance(value, list) else []


@WORDS.to_shard("reload")
async def reload_here(heard: Heard[OperatorApp]) -> Message:
    applied, lines = await heard.app.reload()
    logs.event(log, "operator_reload", operator="-", applied=applied, via="bus")
    return {"applied": applied, "lines": lines}


@command("announce", operator=True, topic="operator",
         help="""announce <text> - a line every player reads, wherever they are in the casino.""")
async def announce(ctx: Ctx) -> None:
    if not ctx.args:
        ctx.tell("Usage: announce <text>")
        return
    told = announced(ctx.app, ctx.session.name, ctx.args)
    logs.event(log, "operator_announce", operator=ctx.session.key)
    missing = []
    if ctx.app.crossing is not None:
        for shard, answer in (await ctx.app.crossing.to_others(
                "announce", {"by": ctx.session.name, "text": ctx.args})).items():
            if isinstance(answer, BusUnavailable):
                missing.append(f"The {shard} shard did not hear it: {answer}.")
                continue
            heard = answer.get("told")
            told += heard if isinstance(heard, int) else 0
    ctx.tell(f"Announced to {told:,} player{'s' if told != 1 else ''}.", *missing)


def announced(app: OperatorApp, by: str, text: str) -> int:
    line = f"*** {by} announces: {text} ***"
    for session in list(app.online.values()):
        session.tell(line)
    return len(app.online)


@WORDS.to_shard("announce")
async def announce_here(heard: Heard[OperatorApp]) -> Message:
    by = heard.text("by", 20)
    if name_problem(by) is not None:
        return {"told": 0}
    return {"told": announced(heard.app, by, clean(heard.text("text")))}


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
    crossing = ctx.app.crossing
    if crossing is not None and not ctx.app.hosting.hosts(room):
        shard = ctx.app.hosting.where[room]
        try:
            answer = await crossing.to_shard(shard, "close", {"room": room}, timeout=10.0)
        except BusUnavailable as why:
            ctx.tell(f"Room {room} was not closed: its shard ({shard}) {why}.")
            return
        closed = [str(t) for t in _list(answer.get("tables"))]
    else:
        closed = await closed_here(ctx.app, room)
    logs.event(log, "operator_close", operator=ctx.session.key, room=room, tables=len(closed))
    ctx.tell(f"Room {room} closed" + (f"; refunded and closed tables: {', '.join(closed)}." if closed else "."))


async def closed_here(app: OperatorApp, room: str) -> list[str]:
    return await app.close_room(room, "The management has closed this room; every stake is refunded.")


@WORDS.to_shard("close")
async def close_here(heard: Heard[OperatorApp]) -> Message:
    room = heard.text("room", 100)
    if room not in heard.app.world.rooms or not heard.app.hosting.hosts(room):
        return {"tables": []}
    return {"tables": await closed_here(heard.app, room)}

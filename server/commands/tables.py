"""Commands at a table: sitting, watching, the table view, dice fairness, and
the game words (`roll`, `bet`, `hold`, ...) routed to the player's table.

Games know players by their display name (as they chose its case); the
casino's own maps (seats, watchers) and the ledger use the lower-case key.
A player sits at one table at a time. Game words mean what the player's table
says they mean; `help <game>` lists them with their help text.
"""
from __future__ import annotations

import textwrap
from typing import Any

from server.commands import REGISTRY
from server.commands.registry import Context
from server.dice.view import fair_lines
from server.tables.game_words import GAME_HELP, GAME_WORDS

command = REGISTRY.command
OPENING_WORDS = ("bet", "start", "odds", "press", "ride")   # refused at a closing table


def tables_here(app: Any, session: Any) -> list[Any]:
    room = app.world.rooms.get(session.room)
    return [app.tables[t] for t in (room.tables if room else ()) if t in app.tables]


def find_table(app: Any, session: Any, word: str | None) -> tuple[Any | None, str | None]:
    """The table in this room for `word` (or the only one), or a reason."""
    here = tables_here(app, session)
    if not here:
        return None, "There is no table here."
    if word is None:
        if len(here) == 1:
            return here[0], None
        return None, "Which game? " + ", ".join(h.game.word for h in here)
    for host in here:
        if host.game.word == word.lower() or host.id == word.lower():
            return host, None
    return None, f"There is no {word[:20]} table here; this room has: " + ", ".join(h.game.word for h in here) + "."


async def wallet(app: Any, key: str) -> int:
    return (await app.ledger.balance(key)).wallet


@command("play", topic="table", help="""play <game> - sit down at the table in this room: play craps, play alley, play pig.""")
async def play(ctx: Context) -> None:
    app, session = ctx.app, ctx.session
    host, why = find_table(app, session, ctx.argv[0] if ctx.argv else None)
    if host is None:
        ctx.tell(why)
        return
    if host.retiring:
        ctx.tell("This table is closing; it takes no new players.")
        return
    current = app.seats.get(session.key)
    if current is not None and current is not host:
        ctx.tell(f"You are playing at {current.id}; 'leave' there first.")
        return
    host.watchers.pop(session.key, None)
    chips = await wallet(app, session.key)
    await host.run(lambda: host.apply(host.game.sit(session.name, chips)))
    if session.name in host.game.seated():
        app.seats[session.key] = host


@command("watch", topic="table", help="""watch <game> - watch the table in this room without playing; 'leave' to stop.""")
async def watch(ctx: Context) -> None:
    host, why = find_table(ctx.app, ctx.session, ctx.argv[0] if ctx.argv else None)
    if host is None:
        ctx.tell(why)
        return
    if ctx.session.name in host.game.seated():
        ctx.tell("You are playing at this table already.")
        return
    host.watchers[ctx.session.key] = ctx.session
    ctx.tell(f"You watch {host.id}. You will see every roll; 'leave' to stop watching.")


@command("leave", topic="table", help="""leave - get up from your table (or stop watching). With bets in play you leave once they are decided.""")
async def leave(ctx: Context) -> None:
    app, session = ctx.app, ctx.session
    host = app.seats.get(session.key)
    if host is not None:
        await host.run(lambda: host.apply(host.game.leave(session.name)))
        if session.name not in host.game.seated():
            app.seats.pop(session.key, None)
        return
    for h in app.tables.values():
        if h.watchers.pop(session.key, None) is not None:
            ctx.tell(f"You stop watching {h.id}.")
            return
    ctx.tell("You are not at a table.")


@command("table", topic="table", help="""table [rules] - show the table here and its state; 'table rules' explains the game.""")
async def table(ctx: Context) -> None:
    app, session = ctx.app, ctx.session
    host = app.seats.get(session.key)
    words = list(ctx.argv)
    if host is None or (host.id not in (app.world.rooms[session.room].tables if session.room else ())):
        host, why = find_table(app, session, None)
        if host is None:
            ctx.tell(why)
            return
    if words and words[0].lower() == "rules":
        width = session.prefs.width
        for line in host.game.rules():          # prose: wrapped to the reader's width
            indent = " " * (len(line) - len(line.lstrip()))
            ctx.tell(*textwrap.wrap(line, width - 1, subsequent_indent=indent + "  ") or [""])
    else:
        ctx.tell(*host.game.view(host.viewer(session)))


@command("seed", topic="table", help="""seed <text> - as the shooter, choose the client seed mixed into the next rolls (see 'fair').""")
async def seed(ctx: Context) -> None:
    host = ctx.app.seats.get(ctx.session.key)
    if host is None:
        ctx.tell("Sit at a table first.")
        return
    if host.game.shooter() != ctx.session.name:
        ctx.tell("Only the shooter sets the client seed.")
        return
    problem = host.game.dice.set_client_seed(ctx.args)
    ctx.tell(problem or f"Client seed set to '{host.game.dice.client_seed}'. The next roll uses nonce {host.game.dice.nonce}.")


@command("fair", topic="table", help="""fair [new] - the table's dice commitment, client seed, nonce and revealed seeds; 'fair new' reveals the current server seed and commits to a new one.""")
async def fair(ctx: Context) -> None:
    app, session = ctx.app, ctx.session
    host = app.seats.get(session.key)
    if host is None:
        host, why = find_table(app, session, None)
        if host is None:
            ctx.tell(why)
            return
    if ctx.argv and ctx.argv[0].lower() == "new":
        if session.name not in host.game.seated():
            ctx.tell("Only a player at this table can retire its server seed.")
            return

        async def rotate() -> list[str]:
            host.game.dice.rotate()
            return fair_lines(host.game.dice)
        ctx.tell("The server seed was retired and revealed; a new one is committed.", *await host.run(rotate))
        return
    ctx.tell(*fair_lines(host.game.dice))


def _game_word(word: str):
    async def routed(ctx: Context) -> None:
        app, session = ctx.app, ctx.session
        host = app.seats.get(session.key)
        if host is None or word not in host.game.commands:
            ctx.tell(f"'{word}' is a table command: sit at a table first (play craps, play alley, play pig).")
            return
        if host.retiring and word in OPENING_WORDS:
            ctx.tell("This table is closing: no new bets or games.")
            return
        chips = await wallet(app, session.key)
        await host.run(lambda: host.apply(host.game.act(session.name, [word, *ctx.argv], chips)))
    return routed


for _word, _help in GAME_WORDS.items():
    REGISTRY.command(_word, topic="table", help=_help)(_game_word(_word))


def game_help(word: str) -> list[str] | None:
    """`help craps` and friends: the commands of one game, or None."""
    return GAME_HELP.get(word.lower())

"""Looking around and talking: look, say, who, help, quit."""
from __future__ import annotations

from server.commands import REGISTRY
from server.commands.registry import Context
from server.render.text import paint, wrap

command = REGISTRY.command


def describe_room(app, session) -> list[str]:
    """The room as `look` shows it, ending with the `Exits:` line clients trigger on."""
    room = app.world.rooms[session.room]
    prefs = session.prefs
    lines = [paint(room.name, "bold", "bright_cyan", color=prefs.color)]
    lines += wrap(room.description, prefs.width)
    for table_id in room.tables:
        table = app.config.tables.get(table_id)
        if table:
            game = describe_game(table)
            article = "An" if game[0].lower() in "aeiou" else "A"
            lines.append(f"{article} {game} table is here ({table_id}): 'play {play_word(table)}' to sit.")
    others = [s.name for s in app.world.others(session)]
    if others:
        lines.append("Here: " + ", ".join(others) + ".")
    exits = ", ".join(room.exits) if room.exits else "none"
    lines.append(f"Exits: {exits}")
    return lines


def describe_game(table) -> str:
    from server.games.catalogue import entry_for
    return entry_for(table).phrase


def play_word(table) -> str:
    from server.games.catalogue import entry_for
    return entry_for(table).word


@command("look", aliases=("l",), help="""look - describe the room: who and what is here, and the exits.
The last line is always 'Exits: ...'.""")
async def look(ctx: Context) -> None:
    ctx.tell(*describe_room(ctx.app, ctx.session))


@command("say", help="""say <text> - speak to everyone in the room. Shortcut: 'text""")
async def say(ctx: Context) -> None:
    text = ctx.args
    if not text:
        ctx.tell("Say what? For example: say hello")
        return
    ctx.tell(f"You say, \"{text}\"")
    ctx.app.broadcast_room(ctx.session.room, f"{ctx.session.name} says, \"{text}\"", exclude=ctx.session)


@command("who", help="""who - list everyone connected and where they are.""")
async def who(ctx: Context) -> None:
    people = sorted(ctx.app.online.values(), key=lambda s: s.name.lower())
    ctx.tell(f"{len(people)} {'person' if len(people) == 1 else 'people'} in the casino:")
    for s in people:
        room = ctx.app.world.rooms.get(s.room)
        ctx.tell(f"  {s.name:<20} {room.name if room else '?'}")


@command("help", aliases=("?",), help="""help [command] - list the commands, or explain one.""")
async def help_(ctx: Context) -> None:
    registry = ctx.app.registry
    operator = ctx.app.is_operator(ctx.session)
    if ctx.args:
        topic = ctx.argv[0]
        from server.commands.tables import game_help
        lines = game_help(ctx.app, topic)
        if lines:
            ctx.tell(*lines)
            return
        cmd = registry.find(topic, operator)
        if cmd is None:
            hint = registry.suggest(topic, operator)
            ctx.tell(f"No help for '{topic[:30]}'." + (f" Did you mean '{hint}'?" if hint else ""))
            return
        ctx.tell(*cmd.help.strip().splitlines())
        if cmd.aliases:
            ctx.tell("Also: " + ", ".join(cmd.aliases))
        return
    by_topic: dict[str, list] = {}
    for cmd in registry.visible(operator):
        by_topic.setdefault(cmd.topic, []).append(cmd)
    for topic in sorted(by_topic, key=lambda t: (t != "general", t)):
        ctx.tell(paint(f"{topic.capitalize()} commands:", "bold", color=ctx.session.prefs.color))
        if topic == "movement":       # a dozen direction words read best as one line
            words = [c.name + (f" ({c.aliases[0]})" if c.aliases else "") for c in by_topic[topic]
                     if c.name != "go"]
            ctx.tell(*("  " + line for line in wrap(", ".join(words) + "; go <exit>.", ctx.session.prefs.width - 2)))
            continue
        for cmd in sorted(by_topic[topic], key=lambda c: c.name):
            ctx.tell(f"  {cmd.summary}")
    ctx.tell("Type 'help <command>' for more.")


@command("quit", help="""quit - leave the casino. Your chips stay in your wallet.
With live bets at a table you are warned first: leaving forfeits them, as a dropped connection does.""")
async def quit_(ctx: Context) -> None:
    session = ctx.session
    host = ctx.app.seat_of(session.key)
    live = sum(chips for player, chips in host.stakes.values() if player == session.name) if host else 0
    if live and not getattr(session, "quit_warned", False):
        session.quit_warned = True
        ctx.tell(f"You have {live} chips in live bets at {host.id}; leaving now forfeits them. "
                 "'leave' first, or type 'quit' again to go anyway.")
        return
    session.close("Thanks for playing. Goodbye!")

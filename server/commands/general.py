"""Looking around and talking: look, say, who, help, quit."""
from __future__ import annotations

from server.commands import REGISTRY
from server.commands.registry import Context
from server.render.text import paint, wrap
from server.render.width import glue

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


@command("help", aliases=("?",), help="""help [command|game|bet] - list the commands, or explain one.
'help craps' (or alley, pig) lists a game's words and its bets with what they pay;
'help pass', 'help field' explain a bet.""")
async def help_(ctx: Context) -> None:
    if ctx.args:
        ctx.tell(*help_topic(ctx.app, ctx.argv[0], ctx.app.is_operator(ctx.session)))
        return
    registry = ctx.app.registry
    operator = ctx.app.is_operator(ctx.session)
    color = ctx.session.prefs.color
    by_topic: dict[str, list] = {}
    for cmd in registry.visible(operator):
        by_topic.setdefault(cmd.topic, []).append(cmd)
    from server.commands.tables import game_words_lines
    order = ("general", "account", "movement", "table", "game", "operator")
    for topic in sorted(by_topic, key=lambda t: (order.index(t) if t in order else len(order), t)):
        if topic == "game":           # the words each game lends its players
            ctx.tell(paint("Game words (at a table; 'help <word>' or 'help <game>'):", "bold", color=color))
            ctx.tell(*game_words_lines())
            continue
        ctx.tell(paint(f"{topic.capitalize()} commands:", "bold", color=color))
        if topic == "movement":       # a dozen direction words read best as one line
            words = [c.name + (f" ({c.aliases[0]})" if c.aliases else "") for c in by_topic[topic]
                     if c.name != "go"]
            ctx.tell("  " + ", ".join(glue(*w.split()) for w in words) + "; go <exit>.")
            continue
        for cmd in sorted(by_topic[topic], key=lambda c: c.name):
            ctx.tell(f"  {cmd.summary}")
    ctx.tell("Type 'help <command>' for more.")


def help_topic(app, word: str, operator: bool) -> list[str]:
    """`help <word>`: a game (its words and bets), a command (every game's
    meaning of a table word), a bet kind, or a suggestion."""
    from server.commands.tables import game_help, topic_help
    lines = game_help(app, word)
    if lines:
        return lines
    registry = app.registry
    cmd = registry.find(word, operator)
    lines = []
    if cmd is not None:
        lines += cmd.help.strip().splitlines()
        if cmd.aliases:
            lines.append("Also: " + ", ".join(cmd.aliases))
    bets = topic_help(word)
    if bets:
        lines += (["As a bet:"] if lines else []) + bets
    if lines:
        return lines
    hint = registry.suggest(word, operator)
    return [f"No help for '{word[:30]}'." + (f" Did you mean '{hint}'?" if hint else "")]


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

"""Looking around and talking: look, say, who, help, quit."""
from __future__ import annotations

import re

from functools import lru_cache
from typing import TYPE_CHECKING, Mapping, Protocol

from server.accounts.names import name_problem
from server.bus.bus import BusUnavailable, Message
from server.bus.words import WORDS, Heard
from server.commands.registry import REGISTRY, Command, Context, Registry
from server.config.model import CasinoConfig, RoomConfig
from server.games.catalogue import GAMES, entry_for
from server.games.seam import GameEntry
from server.net.session import LoggedIn, Session
from server.render.text import clean, paint, wrap
from server.render.width import glue
from server.tables.table import Table
from server.tables.manager import Manager
from server.world.rooms import World
from server.world.roster import Memo, Online

if TYPE_CHECKING:
    from server.casino.crossing import Crossing

command = REGISTRY.command


class RoomApp(Protocol):
    """What describing a room uses of the casino (server.app.Casino): its
    rooms and who stands in them, the tables open there and those configured."""

    @property
    def config(self) -> CasinoConfig: ...
    @property
    def world(self) -> World: ...
    @property
    def online(self) -> Online: ...
    @property
    def tables(self) -> Mapping[str, Table]: ...
    @property
    def crossing(self) -> Crossing | None: ...      # the words that cross shards; None: one shard


class GeneralApp(RoomApp, Protocol):
    """What looking, talking, `who` and `help` use of the casino: the room
    (RoomApp), the clock a crowd's speech is rationed by, `who`'s kept pages,
    the registry `help` lists, and the tables that say where each player is."""

    @property
    def manager(self) -> Manager: ...
    @property
    def who_pages(self) -> Memo[tuple[str, int], tuple[str, ...]]: ...
    @property
    def registry(self) -> Registry: ...

    def is_operator(self, session: Session) -> bool: ...
    def seat_of(self, key: str) -> Table | None: ...
    def broadcast_room(self, room: str, text: str, exclude: Session | None = None) -> None: ...


Ctx = Context[GeneralApp]


def describe_room(app: RoomApp, session: Session) -> list[str]:
    """The room as `look` shows it, ending with the `Exits:` line clients trigger on."""
    if session.room is None:
        return []                       # nowhere (gone from the world): nothing to describe
    room = app.world.rooms[session.room]
    prefs = session.prefs
    lines = [paint(room.name, "bold", "bright_cyan", color=prefs.color)]
    lines += _described(room.description, prefs.width)
    for table_id in room.tables:
        table = app.tables.get(table_id)
        config = app.config.tables.get(table_id)
        if table is not None:
            lines += describe_table(table)
        elif config:
            lines.append(f"{a_game(entry_for(config).phrase)} table is here ({table_id}), closed for now.")
    here = people_here(app, session, room)
    if here:
        lines.append(here)
    exits = ", ".join(room.exits) if room.exits else "none"
    lines.append(f"Exits: {exits}")
    return lines


@lru_cache(maxsize=1024)
def _described(description: str, width: int) -> tuple[str, ...]:
    """A room's description wrapped to a width: the same for everyone who
    looks at that width, so wrapped once."""
    return tuple(wrap(description, width))


LOOK_NAMES = 5      # `look` names this many of the others here and counts the rest


def people_here(app: RoomApp, session: Session, room: RoomConfig) -> str:
    """`Here: ann, bob and 4,998 others.`: a few names and a count, the same
    cost in an empty room and a full one. People at a table in this room are
    shown with the table instead."""
    seated = {key for t in room.tables if t in app.tables for key in app.tables[t].seated_keys()}
    at_tables = sum(1 for key in seated if key != session.key
                    and getattr(app.online.get(key), "room", None) == room.id)
    others = app.world.count(room.id) - 1 - at_tables
    shown = [s.name for s in app.world.sample(session, LOOK_NAMES, seated)]
    if not shown:
        return ""
    rest = others - len(shown)
    if rest > 0:
        return f"Here: {', '.join(shown)} and {rest:,} other{'s' if rest != 1 else ''}."
    if len(shown) == 1:
        return f"Here: {shown[0]}."
    return f"Here: {', '.join(shown[:-1])} and {shown[-1]}."


def a_game(phrase: str) -> str:
    """ "A bank craps", "An alley craps": a game as it reads in a sentence, with its article."""
    return ("An " if phrase[0].lower() in "aeiou" else "A ") + phrase


def a_table(table: Table) -> str:
    """ "A bank craps table": a table as `look` names it. A table that plays
    no ledger chips is the practice table with classic dice (a C program's
    predictable rolls are why it plays a practice bankroll: server.dice.classic),
    and is named as what it is rather than as its game's chip table."""
    if not table.plays_for_chips():
        return f"A practice {table.entry.game} table with classic dice"
    return f"{a_game(table.entry.phrase)} table"


def describe_table(table: Table) -> list[str]:
    """A table as `look` shows it: the game, how to sit (`play <word>`: a
    second table of one game in a room answers to its id), who sits and
    their roles (the table's seating and its dealer are the one answer)."""
    lines = [f"{a_table(table)} is here ({table.id}): 'play {table.word}' to sit."]
    seats = table.seats()
    if seats:
        names = [s.player + (" (sitting out)" if s.sitting_out else "") for s in seats]
        line = "  Seated: " + ", ".join(names) + "."
        for player, role in table.roles().items():
            line += f" {player} {role}."
        lines.append(line)
    else:
        lines.append("  Nobody is seated.")
    watching = sorted(table.watching().values())
    if watching:
        lines.append("  Watching: " + ", ".join(watching) + ".")
    return lines


def places_at_tables(app: RoomApp) -> dict[str, str]:
    """`who`'s table column for everyone at a table, by account key: where each
    plays (and their role) or watches. Made once per `who` from the tables'
    seating (a few dozen seats), not asked of every table for each name shown."""
    places: dict[str, str] = {}
    for table in app.tables.values():
        for key in table.watching():
            places.setdefault(key, f"watching {table.id}")
    for table in app.tables.values():
        seats = table.seats()
        roles = table.roles() if seats else {}
        for seat in seats:
            role = "sitting out" if seat.sitting_out else roles.get(seat.player, "playing")
            places[seat.key] = f"{table.entry.phrase} ({table.id}), {role}"
    return places


@command("look", aliases=("l",), help="""look [thing] - describe the room: who and what is here, and the exits; or look at something the room names ('look slate').
The last line of the room is always 'Exits: ...'. 'read <thing>' is the same as 'look <thing>'.""")
async def look(ctx: Ctx) -> None:
    from server.commands.tables import seated_elsewhere, table_place
    if ctx.argv:
        ctx.tell(*look_at(ctx.app, ctx.session, ctx.argv))
        return
    lines = describe_room(ctx.app, ctx.session)
    away = seated_elsewhere(ctx.app, ctx.session)
    if away is not None and lines:      # said above the `Exits:` line, which stays last
        lines.insert(-1, f"You are still seated at {table_place(ctx.app, away)}; "
                         "'leave' gets you up from here.")
    ctx.tell(*lines)


@command("read", help="""read <thing> - read something the room names, as a slate or a ledger ('read slate'); the same as 'look <thing>'.""")
async def read(ctx: Ctx) -> None:
    if not ctx.argv:
        ctx.tell("Read what? " + _example(ctx.app, ctx.session, "read"))
        return
    ctx.tell(*look_at(ctx.app, ctx.session, ctx.argv))


_FILLER = ("at", "the", "a", "an")       # 'look at the slate'


def look_at(app: RoomApp, session: Session, words: list[str]) -> list[str]:
    """A thing the room's file names (`things:` in rooms/*.yaml), by its name
    or a unique start of it; else one line saying what there is to look at.
    Data, not code: a room gains a readable thing by a line of YAML."""
    if session.room is None:
        return []
    things = app.world.rooms[session.room].things
    named = [w.lower() for w in words if w.lower() not in _FILLER][:1]
    if not named:
        return ["Look at what? " + _example(app, session, "look")]
    word = named[0][:20]
    found = [name for name in things if name == word] or [name for name in things if name.startswith(word)]
    if len(found) == 1:
        return wrap(things[found[0]], session.prefs.width)
    here = ", ".join(things)
    return [f"You see no '{clean(word)}' here." + (f" To look at here: {here}." if here else
                                                    " 'look' describes the room.")]


def _example(app: RoomApp, session: Session, verb: str) -> str:
    """ "For example: read slate", with a thing of this room; or that it has none."""
    things = app.world.rooms[session.room].things if session.room else {}
    return (f"For example: {verb} {next(iter(things))}" if things
            else "Nothing here is for reading; 'look' describes the room.")


@command("say", help="""say <text> - speak to everyone in the room. Shortcut: 'text (and :text for emote)
In a room of more than 30 people, speech is rationed: if the room is too loud you are told so and nothing is said ('tell' always works).""")
async def say(ctx: Ctx) -> None:
    text = ctx.args
    if not text:
        ctx.tell("Say what? For example: say hello")
        return
    room = ctx.session.room
    if room is None or not _heard(ctx, room):
        return
    ctx.tell(f"You say, \"{text}\"")
    ctx.app.broadcast_room(room, f"{ctx.session.name} says, \"{text}\"", exclude=ctx.session)


def _heard(ctx: Ctx, room: str) -> bool:
    """Whether the crowd lets this speaker be heard now in `room` (World.heard); if not, why."""
    clock = ctx.app.manager
    if ctx.app.world.heard(room, clock.ticks / clock.tick_hz):     # the casino's one clock
        return True
    ctx.tell(f"The room is too crowded and loud ({ctx.app.world.count(room):,} people) "
             "to be heard just now; nothing was said. Try again in a moment, or 'tell' someone.")
    return False


WHO_PAGE = 20
WHO_DEEPEST = 5_000     # a shard tells `who` at most this many names (pages deeper list this shard's)


@command("who", help="""who [page] | who <name prefix> [page] - who is connected, 20 to a page in name order: the room each is in, and the table where each plays or watches.""")
async def who(ctx: Ctx) -> None:
    words = list(ctx.argv)
    number = int(words.pop()) if words and words[-1].isdecimal() and words[-1].isascii() else 1
    prefix = words[0] if words else ""
    if len(words) > 1 or number < 1 or number > 100_000:
        ctx.tell("Usage: who [page], or who <start of a name> [page].")
        return
    app = ctx.app
    places = places_at_tables(app)
    if app.crossing is not None:
        lines = await who_everywhere(app, app.crossing, prefix, number, places)
        ctx.tell(*(spoken_who(lines) if ctx.session.prefs.screenreader else lines))
        return
    state = (app.online.version, app.world.version, places)
    page = app.who_pages.get(state, (prefix, number))
    if page is None:
        rows, total = who_rows(app, prefix, number, WHO_PAGE, places)
        page = who_page(rows, total, prefix, number)
        app.who_pages.keep(state, (prefix, number), page)
    ctx.tell(*(spoken_who(page) if ctx.session.prefs.screenreader else page))


def spoken_who(page: tuple[str, ...]) -> tuple[str, ...]:
    """`who` for a screen reader: "ann: The Lobby." a line, not a padded column."""
    head, *rows = page
    return (head, *(re.sub(r"^ {2}(\S+) +(.*)$", r"\1: \2.", row) for row in rows))


WhoRow = tuple[str, str]        # a name, and where that player is (room, and table if any)


def who_rows(app: RoomApp, prefix: str, number: int, size: int,
             places: dict[str, str]) -> tuple[list[WhoRow], int]:
    """Page `number` (of `size` names) of the players here whose name starts with
    `prefix`, in name order, and how many match in all."""
    people, total = app.online.page(prefix, number, size)
    rows = []
    for s in people:
        room = app.world.rooms.get(s.room) if s.room else None
        table = places.get(s.key, "")
        rows.append((s.name, glue(*(room.name if room else "?").split()) + (f": {table}" if table else "")))
    return rows, total


async def who_everywhere(app: RoomApp, crossing: Crossing, prefix: str, number: int,
                         places: dict[str, str]) -> tuple[str, ...]:
    """`who` of every shard: each tells its first names (as many as the page
    needs), merged here in name order. A shard that does not answer is said
    in one line, and the rest are listed."""
    upto = min(number * WHO_PAGE, WHO_DEEPEST)
    rows, total = who_rows(app, prefix, 1, upto, places)
    missing = []
    for shard, answer in (await crossing.to_others("who", {"prefix": prefix[:20], "upto": upto})).items():
        if isinstance(answer, BusUnavailable):
            missing.append(shard)
            continue
        found = answer.get("rows")
        count = answer.get("n")
        total += count if isinstance(count, int) else 0
        rows += [(str(r[0]), str(r[1])) for r in found if isinstance(r, list) and len(r) == 2] \
            if isinstance(found, list) else []
    rows.sort(key=lambda row: row[0].lower())
    start = (number - 1) * WHO_PAGE
    lines = list(who_page(rows[start:start + WHO_PAGE], total, prefix, number))
    if missing:
        lines.append(f"  (The {' and '.join(missing)} rooms did not answer just now; "
                     "their players are not listed. 'who' again in a moment.)")
    return tuple(lines)


@WORDS.to_shard("who")
async def who_here(heard: Heard[RoomApp]) -> Message:
    """The far half of `who`: this shard's first `upto` names with `prefix`, and its count."""
    upto = max(1, min(heard.number("upto", WHO_PAGE), WHO_DEEPEST))
    rows, total = who_rows(heard.app, heard.text("prefix", 20), 1, upto, places_at_tables(heard.app))
    return {"n": total, "rows": [list(row) for row in rows]}


def who_page(rows: list[WhoRow], total: int, prefix: str, number: int) -> tuple[str, ...]:
    """Page `number` of `who` for names starting with `prefix`, as lines."""
    pages = max(1, -(-total // WHO_PAGE))
    scope = f" whose name starts with '{prefix[:20]}'" if prefix else " in the casino"
    head = f"{total:,} {'person' if total == 1 else 'people'}{scope}"
    if total > WHO_PAGE and number < pages:
        head += f" (page {number} of {pages}; 'who {prefix + ' ' if prefix else ''}{number + 1}' for more)"
    elif total > WHO_PAGE:
        head += f" (page {number} of {pages})" if number == pages else f" ({pages:,} pages)"
    lines = [head + ":"]
    if not rows:
        if total:
            lines.append("  There is only 1 page." if pages == 1 else f"  There are only {pages:,} pages.")
        return tuple(lines)
    width = max(len(name) for name, _ in rows)
    lines += [f"  {name:<{width}}  {where}" for name, where in rows]
    return tuple(lines)


@command("tell", help="""tell <name> <text> - say something to one player, wherever they are. 'reply <text>' answers the last one who told you something.""")
async def tell(ctx: Ctx) -> None:
    if len(ctx.argv) < 2:
        ctx.tell("Tell whom what? For example: tell ann good luck")
        return
    name, text = ctx.argv[0], ctx.args.split(None, 1)[1]
    await _tell(ctx, name, text)


@command("reply", help="""reply <text> - answer the last player who told you something.""")
async def reply(ctx: Ctx) -> None:
    if not ctx.args:
        ctx.tell("Reply what? For example: reply thanks")
        return
    last = getattr(ctx.session, "last_teller", None)
    if last is None:
        ctx.tell("Nobody has told you anything yet: 'tell <name> <text>' starts a conversation.")
        return
    await _tell(ctx, last, ctx.args)


async def _tell(ctx: Ctx, name: str, text: str) -> None:
    from server.accounts.names import name_key
    key = name_key(name)
    target = ctx.app.online.get(key)
    if target is ctx.session:
        ctx.tell("You tell yourself, and nobody else hears.")
        return
    if target is not None:
        ctx.tell(f"You tell {target.name}, \"{text}\"")
        told(target, ctx.session.name, text)
        return
    crossing = ctx.app.crossing
    answer = (BusUnavailable("one shard", nobody=True) if crossing is None
              else await crossing.ask_player(name, "tell", {"from": ctx.session.name, "text": text}))
    if isinstance(answer, BusUnavailable):
        ctx.tell(f"{name[:20]} is not connected. 'who' lists everyone who is." if answer.nobody
                 else f"{name[:20]} could not be told: {answer}.")
        return
    ctx.tell(f"You tell {answer.get('name', name)}, \"{text}\"")


def told(target: LoggedIn, teller: str, text: str) -> None:
    target.last_teller = teller
    target.tell(f"{teller} tells you, \"{text}\"")


@WORDS.to_player("tell")
async def told_here(heard: Heard[RoomApp]) -> Message:
    """The far half of `tell`: the player is here; the teller is on another shard."""
    assert heard.session is not None
    teller = heard.text("from", 20)
    if name_problem(teller) is not None:
        return {"name": heard.session.name}
    told(heard.session, teller, clean(heard.text("text")))
    return {"name": heard.session.name}


@command("emote", help="""emote <action> - show everyone in the room what you do: 'emote grins' shows "ann grins". Shortcut: :grins""")
async def emote(ctx: Ctx) -> None:
    text = ctx.args
    if not text:
        ctx.tell("Emote what? For example: emote grins")
        return
    room = ctx.session.room
    if room is None or not _heard(ctx, room):
        return
    line = f"{ctx.session.name} {text}"
    ctx.tell(line)
    ctx.app.broadcast_room(room, line, exclude=ctx.session)


def _help_help() -> str:
    """help's own help, naming every game in the catalogue."""
    games = ", ".join(dict.fromkeys(f"'help {e.word}'" for e in GAMES))
    return ("help [command|game|bet] - list the commands, or explain one.\n"
            f"A game's help lists its words and its bets with what they pay: {games}.\n"
            "'help pass', 'help field' explain a bet.")


@command("help", aliases=("?",), help=_help_help)
async def help_(ctx: Ctx) -> None:
    if ctx.args:
        ctx.tell(*help_topic(ctx.app, ctx.argv[0], ctx.app.is_operator(ctx.session), _at(ctx),
                             ctx.app.seat_of(ctx.session.key)))
        return
    registry = ctx.app.registry
    operator = ctx.app.is_operator(ctx.session)
    color = ctx.session.prefs.color
    by_topic: dict[str, list[Command]] = {}
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


def _at(ctx: Ctx) -> GameEntry | None:
    """The game of the table the player sits at or watches, if any."""
    key = ctx.session.key
    table = ctx.app.seat_of(key) or next((h for h in ctx.app.tables.values() if key in h.watching()), None)
    return table.entry if table is not None else None


def help_topic(app: GeneralApp, word: str, operator: bool, at: GameEntry | None = None,
               seat: Table | None = None) -> list[str]:
    """`help <word>`: a game (its words and bets; a word two games share is
    the one at the player's table, `at`), a command (every game's meaning of
    a table word), a bet kind (with the figures of the table the player sits
    at, `seat`), or a suggestion."""
    from server.commands.tables import game_help, topic_help
    lines = game_help(app, word, at)
    if (lines and seat is not None and seat.entry is at and at.help_has_table_rules
            and word.lower() in (at.key, at.word, *at.aliases)):
        return lines + [f"The rules at your table, {seat.id}:", *seat.rules()]
    if lines:
        return lines
    registry = app.registry
    cmd = registry.find(word, operator)
    lines = []
    if cmd is not None:
        lines += cmd.text.strip().splitlines()
        if cmd.aliases:
            lines.append("Also: " + ", ".join(cmd.aliases))
    bets = topic_help(word, seat)
    if bets:
        lines += (["As a bet:"] if lines else []) + bets
    if lines:
        return lines
    near = nearest_topics(app, word, operator)
    tried = f"No help for '{word[:30]}'."
    if not near:
        return [tried + " 'help' lists every command and game."]
    return [tried + " Nearest topics: " + ", ".join(f"'help {w}'" for w in near) + "."]


def nearest_topics(app: GeneralApp, word: str, operator: bool, n: int = 3) -> list[str]:
    """The help topics closest to a word `help` does not know: commands, games,
    game words and bet names, by spelling, then by prefix."""
    import difflib
    from server.games.catalogue import GAMES
    registry = app.registry
    topics = {w for c in registry.visible(operator) for w in (c.name, *c.aliases) if len(w) > 1}
    for entry in GAMES:
        topics |= {entry.word, entry.key, *entry.aliases, *entry.words, *entry.topics}
    word = word.lower()[:30]
    near = difflib.get_close_matches(word, sorted(topics), n=n, cutoff=0.6)
    near += [t for t in sorted(topics) if t.startswith(word) and t not in near]
    return near[:n]


@command("quit", help="""quit - leave the casino. Your chips stay in your wallet.
With live bets at a table that forfeits them on a dropped connection you are warned first.""")
async def quit_(ctx: Ctx) -> None:
    session = ctx.session
    table = ctx.app.seat_of(session.key)
    live = table.chips_at_stake(session.name) if table else 0
    if table is not None and live and table.forfeits_on_drop() and not session.quit_warned:
        session.quit_warned = True
        ctx.tell(f"You have {live} chips in live bets at {table.id}; leaving now forfeits them. "
                 "'leave' first, or type 'quit' again to go anyway.")
        return
    session.close("Thanks for playing. Goodbye!", why="quit")

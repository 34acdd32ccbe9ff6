"""Commands at a table: sitting, watching, the table view, dice fairness, and
the game words (`roll`, `bet`, `hold`, ...) routed to the player's table.

Who sits where is the tables' to answer (`app.seat_of`); these commands
ask them and never keep seats of their own. A player sits at one table at a
time. Game words come from the game catalogue and mean what the player's
table says they mean; `help <game>` lists them with their help text.
"""
from __future__ import annotations

from typing import Mapping, Protocol

from server.games.amounts import digits_problem
from server.commands.registry import REGISTRY
from server.commands.registry import Command, Context, Handler
from server.games.catalogue import GAMES
from server.games.seam import GameEntry
from server.ledger import Ledger
from server.net.session import Session
from server.render.width import fit, glue, reflow
from server.tables.table import Table
from server.world.rooms import World

command = REGISTRY.command


class TablesApp(Protocol):
    """What finding the tables of a room uses of the casino (server.app.Casino)."""

    @property
    def world(self) -> World: ...
    @property
    def tables(self) -> Mapping[str, Table]: ...


class WalletApp(Protocol):
    """What reading a player's wallet uses of the casino."""

    @property
    def ledger(self) -> Ledger: ...


class SeatsApp(TablesApp, Protocol):
    """What finding where a player sits uses of the casino: the tables' one answer."""

    def seat_of(self, key: str) -> Table | None: ...


class TableWordsApp(SeatsApp, WalletApp, Protocol):
    """What the table commands and the game words use of the casino: the
    room's tables, the wallet a player sits down or bets with, and the table
    where a player sits (the tables are the one answer)."""


Ctx = Context[TableWordsApp]


def tables_here(app: TablesApp, session: Session) -> list[Table]:
    room = app.world.rooms.get(session.room) if session.room is not None else None
    return [app.tables[t] for t in (room.tables if room else ()) if t in app.tables]


def find_table(app: TablesApp, session: Session, word: str | None, verb: str = "play") -> Table | str:
    """The table in this room for `word` (or the only one), or why there is
    none; in a room of several, which words pick one with `verb` ('table
    craps')."""
    here = tables_here(app, session)
    if not here:
        return "There is no table here."
    if word is None:
        if len(here) == 1:
            return here[0]
        return (f"Which game? {', '.join(h.word for h in here)}: "
                f"type '{verb} <game>', e.g. '{verb} {here[0].word}'.")
    for table in here:
        if word.lower() in (table.word, table.entry.word, table.id):
            return table
    return f"There is no {word[:20]} table here; this room has: " + ", ".join(h.word for h in here) + "."


def table_place(app: TablesApp, table: Table) -> str:
    """A table and the room it stands in, as a sentence names it: "bank_craps in Bank Craps"."""
    room = next((r for r in app.world.rooms.values() if table.id in r.tables), None)
    return f"{table.id} in {room.name}" if room is not None else table.id


def seated_elsewhere(app: SeatsApp, session: Session) -> Table | None:
    """The table this player sits at when it is not in the room they stand in."""
    seated = app.seat_of(session.key) if session.key is not None else None
    return seated if seated is not None and seated not in tables_here(app, session) else None


async def wallet(app: WalletApp, key: str) -> int:
    return (await app.ledger.balance(key)).wallet


def _game_words() -> list[str]:
    """Each game word once, in catalogue order (craps plays two variants)."""
    return list(dict.fromkeys(e.word for e in GAMES))


def _play_help() -> str:
    return (f"play <game> - sit down at the table in this room: {', '.join('play ' + w for w in _game_words())}.\n"
            "Sitting out or on your way out, 'play' again brings you back.")


@command("play", topic="table", help=_play_help)
async def play(ctx: Ctx) -> None:
    app, session = ctx.app, ctx.session
    table = find_table(app, session, ctx.argv[0] if ctx.argv else None)
    if isinstance(table, str):
        ctx.tell(table)
        return
    current = app.seat_of(session.key)
    if current is not None and current is not table:
        again = f"'play {ctx.argv[0][:20]}'" if ctx.argv else "'play'"
        ctx.tell(f"You are seated at {table_place(app, current)}. 'leave' works from anywhere: "
                 f"it gets you up from that table; then {again} again.")
        return
    if table.retiring and current is None:
        ctx.tell("This table is closing; it takes no new players.")
        return
    await table.play(session, await wallet(app, session.key))


@command("watch", topic="table", help="""watch <game> - watch the table in this room without playing; 'leave' to stop.""")
async def watch(ctx: Ctx) -> None:
    table = find_table(ctx.app, ctx.session, ctx.argv[0] if ctx.argv else None)
    if isinstance(table, str):
        ctx.tell(table)
        return
    ctx.tell(table.watch(ctx.session))


@command("leave", topic="table", help="""leave - get up from your table (or stop watching).
What happens to bets in play is each game's rule, in 'table rules': at craps you stay seated until they are decided, at roulette they ride and are paid to your wallet, at Pig and alley craps you are out of the game at once.""")
async def leave(ctx: Ctx) -> None:
    app, session = ctx.app, ctx.session
    table = app.seat_of(session.key)
    if table is not None:
        await table.leave_table(session)
        return
    for h in app.tables.values():
        if h.unwatch(session):
            ctx.tell(f"You stop watching {h.id}.")
            return
    ctx.tell("You are not at a table.")


@command("table", topic="table", help="""table [game] [rules] - show the table here and its state; 'table rules' explains the game. In a room of several tables, name one: 'table craps', 'table craps rules'.""")
async def table(ctx: Ctx) -> None:
    app, session = ctx.app, ctx.session
    words = [w.lower() for w in ctx.argv]
    rules = "rules" in words[:2]
    named = [w for w in words[:2] if w != "rules"][:1]
    seated = app.seat_of(session.key)
    if named or seated is None or seated not in tables_here(app, session):
        found = find_table(app, session, named[0] if named else None, verb="table")
        if isinstance(found, str):
            ctx.tell(found)
            return
        table = found
    else:
        table = seated
    if rules:
        width = session.width
        for line in reflow(table.rules()):         # prose: wrapped to the reader's width
            indent = " " * (len(line) - len(line.lstrip()))
            ctx.tell(*fit(line, width, hang=indent + "  "))
    else:
        ctx.tell(*table.view(session))


@command("seed", topic="table", help="""seed <text> - as the shooter (at a table without one, the first seated), choose the client seed mixed into the next draws (see 'fair').""")
async def seed(ctx: Ctx) -> None:
    table = ctx.app.seat_of(ctx.session.key)
    if table is None:
        ctx.tell("Sit at a table first.")
        return
    ctx.tell(table.set_seed(ctx.session, ctx.args))


@command("fair", topic="table", help="""fair [new] - the table's dice (or wheel) commitment, client seed, nonce and revealed seeds; 'fair new' reveals the current server seed and commits to a new one.""")
async def fair(ctx: Ctx) -> None:
    app, session = ctx.app, ctx.session
    table = app.seat_of(session.key) or find_table(app, session, None)
    if isinstance(table, str):
        ctx.tell(table)
        return
    if ctx.argv and ctx.argv[0].lower() == "new":
        if not table.is_seated(session):
            ctx.tell("Only a player at this table can retire its server seed.")
            return

        ctx.tell(*await table.fair(rotate=True))
        return
    ctx.tell(*await table.fair())


def _game_word(word: str) -> Handler:
    async def routed(ctx: Ctx) -> None:
        app, session = ctx.app, ctx.session
        table = app.seat_of(session.key)
        if table is None:
            games = ", ".join(dict.fromkeys(f"play {e.word}" for e in GAMES if word in e.words))
            ctx.tell(f"'{word}' is a table command: sit at a table first ({games}).")
            return
        if not table.entry.has_word(word):
            ctx.tell(table.entry.actions.unknown(word))
            return
        problem = digits_problem(ctx.argv) or table.refusal(session, word)
        if problem:
            ctx.tell(problem)
            return
        await table.act(session, [word, *ctx.argv], lambda: wallet(app, session.key))
    return routed


def _word_help() -> dict[str, str]:
    """Each game word once: a first line naming every game that has it, then
    each game's meaning of it, labelled with the game."""
    helps: dict[str, list[tuple[GameEntry, str]]] = {}
    titles: dict[str, list[str]] = {}
    for entry in GAMES:
        for word, text in entry.words.items():
            helps.setdefault(word, []).append((entry, text))
            titles.setdefault(word, []).append(entry.title.lower())
    return {word: f"{word} - a table word at {_listing(titles[word])}.\n" + "\n".join(said_once(texts))
            for word, texts in helps.items()}


def said_once(said: list[tuple[GameEntry, str]]) -> list[str]:
    """Each game's words on a topic, a text that several games share said once,
    labelled with all of them ("Bank craps, crapless craps and diceless craps: ...")."""
    by_text: dict[str, list[GameEntry]] = {}
    for entry, text in said:
        by_text.setdefault(text, []).append(entry)
    return [f"{_listing([games[0].title, *(e.phrase for e in games[1:])])}: {text}"
            for text, games in by_text.items()]


def _listing(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


_lent: tuple[int, dict[str, Command]] = (-1, {})


def game_commands() -> dict[str, Command]:
    """The words the games lend: one command per word, routed to the
    player's table; made again only when the catalogue changes."""
    global _lent
    if _lent[0] != GAMES.version:
        aliases: dict[str, list[str]] = {}
        for entry in GAMES:
            for action in entry.actions:
                aliases.setdefault(action.word, []).extend(action.aliases)
        _lent = (GAMES.version, {word: Command(word, _game_word(word), text, tuple(aliases.get(word, ())),
                                               topic="game")
                                 for word, text in _word_help().items()})
    return _lent[1]


REGISTRY.lend(game_commands)

TABLE_WORDS = [
    "play <game> - sit down at this room's table.",
    "watch <game> - watch without playing.",
    "table / table rules - the table and its state / the rules in plain words.",
    "seed <text> - as the shooter, set the client seed; fair [new] - check the dice.",
    "leave - get up, or stop watching; what happens to bets in play is the game's rule ('table rules').",
]


def game_words_lines() -> list[str]:
    """For the `help` listing: each game's words on one line, under its title."""
    return [f"  {entry.title}: " + " ".join(entry.words) + " " + glue("(help", f"{help_word(entry)})")
            for entry in GAMES]


def topic_help(word: str, seat: Table | None = None) -> list[str]:
    """What each game says about `word` beyond its commands (`help pass`,
    `help field`: the bet kinds), labelled with the game. A player seated at
    a table whose game has the topic reads that table's line alone, with its
    own figures ("12 pays 3:1 here"); anyone else the general lines."""
    word = word.lower()
    if seat is not None and seat.entry.table_topics is not None:
        here = seat.entry.table_topics(seat.config)
        if word in here:
            return [f"{seat.entry.title}, at your table: {here[word]}"]
    return said_once([(entry, entry.topics[word]) for entry in GAMES if word in entry.topics])


def help_word(entry: GameEntry) -> str:
    """The word `help` finds this game by alone: its play word, or, where an
    earlier game has that word (simplified craps after bank craps), its
    variant ('help simplified')."""
    first = next(e for e in GAMES if e.word == entry.word)
    return entry.word if first is entry or not entry.variant else entry.variant


def game_help(app: TablesApp, word: str, at: GameEntry | None = None) -> list[str] | None:
    """`help craps` and friends: one game's page (where its tables are, its
    words with their help, its bets with what they pay), or None. A word
    two games share ('craps': bank and simplified) is the game of the table
    the player is at (`at`), else the first; the page names the others of
    its game by their help words. A game's key, title, variant ('help
    simplified') or alias names it alone."""
    word = word.lower()
    entries = [e for e in GAMES if word in (e.key, e.title.lower(), e.variant, *e.aliases)]
    if not entries:
        entries = [e for e in GAMES if e.word == word]
        entries = [at] if at in entries else entries[:1]
    if not entries:
        return None
    entry = entries[0]
    rooms = [room.name for room in app.world.rooms.values()
             if any(t in app.tables and app.tables[t].entry is entry for t in room.tables)]
    where = f" ({', '.join(rooms)})" if rooms else ""
    lines = [f"{entry.title}{where}: {entry.summary}.", *(f"  {h}" for h in entry.words.values()),
             *entry.help_lines]
    others = [e for e in GAMES if e.game == entry.game and e is not entry]
    if others:
        lines.append(f"Other {entry.game} games have their own page: "
                     + ", ".join(f"'help {help_word(e)}'" for e in others) + ".")
    return reflow(lines + ["At any table:", *(f"  {h}" for h in TABLE_WORDS)])

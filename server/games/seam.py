"""The seam between the table host and one game, and a game's catalogue entry.

A game is one package under server/games/<game>/ that exports one GameEntry:
its words (one actions table, server.games.actions), the config it reads, what
it draws (server.dice.kinds) and `make`, which builds its Dealer for one
table. Every dealer extends the base Dealer below, which gives each hook its
default, so the host calls every hook without probing. A Dealer is pure: it holds the rules engine and the
round and timing policy of its game, reads the table's Seating (which the host
owns), and answers every input with events (facts and money intents); it
never awaits. The host calls it one input at a time.

Seating is the host's: it seats, unseats and defers a leave until the
player's last live bet is decided (asking `live`), then tells the dealer with
`seated` and `unseated`. A game word that means "get up" (craps' `stop` and
`sitout`) answers with a SeatRequest, which the host carries out.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from fractions import Fraction
from typing import Any, Callable, ClassVar, Mapping, Protocol

from server.config.keys import Field
from server.config.model import TableConfig
from server.dice.kinds import DICE, DrawKind
from server.dice.source import OwnDraws, TableDraws
from server.games.actions import Actions, Move, Refusal
from server.games.seating import Seating
from server.render.prefs import Prefs

@dataclass(frozen=True)
class Viewer:
    """Someone who sees a table's facts: their name (as facts name players),
    display preferences, and whether they are seated (else they watch)."""

    key: str
    prefs: Prefs
    seated: bool


@dataclass(frozen=True)
class Note:
    """A plain line for some players (`to`), or everyone at the table (None)."""

    to: tuple[str, ...] | None
    text: str


@dataclass(frozen=True)
class HandResult:
    """The end of a hand or game, for the operator's log (not shown to players)."""

    fields: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class WalletReport:
    """Tell `player` their wallet balance, once the money before it is durable."""

    player: str


@dataclass(frozen=True)
class Notice:
    """Tell `player` `text` now if they are connected, else at their next login.

    For news that finds a player gone: bets that rode on after they left or
    dropped, settled to the wallet. The host keeps it durably (the ledger's
    notices, which login reads) when nobody is there to hear it; it follows
    the money intents it speaks of, so it never tells of chips not yet written.
    """

    player: str
    text: str


@dataclass(frozen=True)
class SeatRequest:
    """A game word asks the host to unseat its player: "leave" or "sitout"."""

    player: str
    how: str


@dataclass(frozen=True)
class Ask:
    """Ask `player` something at their prompt (simplified craps offers a dice
    seed): their prompt becomes `prompt`, and their next line, unless it is a
    command, goes to the table as `word` followed by its words (a bare Enter
    sends `word` alone)."""

    player: str
    prompt: str
    word: str


Event = object
"""A fact for people (a frozen dataclass of the game's events.py, or a Note),
a money intent (server.games.intents) or a request to the host (SeatRequest,
Ask, Notice, WalletReport, HandResult)."""


class Dealer:
    """One game at one table: the base every game's dealer extends.

    It gives every hook its default, so a game writes only what its rules
    need and the host calls every hook without probing (python-chess's
    Board does the same for its variants). A dealer is pure: it reads the
    host's Seating, draws from the fair source it is handed, and answers
    each input with events; it never awaits.

    `render` may tell one watcher (a viewer not seated) from another only by
    their prefs and by comparing viewer.key with a name the fact carries
    (names_in: any field, at any depth) or with a seated player's name (no
    watcher is seated); everything else it reads is the same for every
    viewer. The host relies on it: it renders a fact once for each group
    of watchers with equal Prefs, and alone for each watcher the fact names.
    Seated viewers are always rendered one by one (their bets, their turn).
    """

    actions: ClassVar[Actions] = Actions("This table", ())   # the game's words (server.games.actions)
    word: ClassVar[str] = ""                    # play <word>, as "Sit down first" names it

    def __init__(self, config: TableConfig, tick_hz: int, dice: TableDraws, seating: Seating) -> None:
        self.config = config
        self.tick_hz = tick_hz
        self.dice = dice
        self.seating = seating

    # --- seating: the host decides, the dealer is told ----------------------
    def sit_problem(self, player: str, wallet: int) -> str | None:
        """Why `player` may not sit (alley craps' buy-in), or None."""
        return None

    def seated(self, player: str, back: bool) -> list[Event]:
        return []

    def live(self, player: str) -> bool:
        """Whether `player` has bets that a leave must wait for."""
        return False

    def unseated(self, player: str, how: str) -> list[Event]:
        """Up from the table: `how` is "leave", "sitout" or "gone"."""
        return []

    # --- play -------------------------------------------------------------------
    def act(self, player: str, words: list[str], wallet: int) -> list[Event]:
        """A game word typed by `player`: dispatched through the game's actions table."""
        actions = self.actions
        action = actions.find(words[0])
        if action is None:
            return [Note((player,), actions.unknown(words[0]))]
        if player not in self.seating:
            return [Note((player,), f"Sit down first: play {self.word}.")]
        if action.phases and self.phase_key() not in action.phases:
            return [Note((player,), action.not_now)]
        if action.needs and len(words) < 2:
            return [Note((player,), f"Usage: {action.usage}")]
        try:
            args = action.parse(words[1:])
            return action.run(self, Move(player, action.word, args, wallet))
        except Refusal as why:
            return [Note((player,), str(why))]

    def advance(self, ticks: int) -> list[Event]:
        return []

    def hold_refused(self, key: str, reason: str) -> list[Event]:
        """The ledger would not hold the stake of the Hold with `key`."""
        return []

    def close(self, why: str) -> list[Event]:
        """Shutdown or removal: refund everything outstanding."""
        return []

    # --- the table between hands ------------------------------------------------
    def between_hands(self, at_rest: bool) -> bool:
        """Whether a removed table may close now; `at_rest`: no stake is
        open. A game with hands that outlast its stakes says more."""
        return at_rest

    def reconfigure(self, config: TableConfig) -> bool:
        """Take changed settings live (True), or leave them for the host to
        apply by a new dealer once no stake is open (False)."""
        return False

    # --- who is who ------------------------------------------------------------
    def phase(self) -> str:
        """The round as players read it: "betting, 5 s left"."""
        return ""

    def phase_key(self) -> str:
        """The phase as the actions table names it."""
        return self.phase()

    def roles(self) -> dict[str, str]:
        """Each seated player's role in words, where they have one: "has the
        dice" (craps), "has the turn" (Pig); `look`, `who` and GMCP print them."""
        return {}

    def seeder(self) -> str | None:
        """Who may set the client seed mixed into the next draws: the first seated."""
        names = self.seating.names()
        return names[0] if names else None

    def plays_for_chips(self) -> bool:
        """Whether playing here costs ledger chips (what `relief` asks: a table whose
        chips never reach the ledger, such as a practice bankroll, says nothing of who
        is too poor to play). A table with no minimum bet is left out by the caller."""
        return True

    def own_draws(self) -> OwnDraws | None:
        """The table's own source of rolls when they are not the fair ones
        (classic C dice): it answers `seed` and `fair` in their place."""
        return None

    # --- what people see -----------------------------------------------------
    def render(self, event: Event, viewer: Viewer) -> list[str]:
        return render_note(event, viewer) or []

    def view(self, viewer: Viewer) -> list[str]:
        return []

    def rules(self) -> list[str]:
        return []

    def table_data(self) -> dict[str, object]:
        """The game's part of GMCP Casino.Table."""
        return {}

    def event_data(self, event: Event) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
        """A fact as GMCP data: (package, payload, players or None for everyone)."""
        return []


class OptionsReader(Protocol):
    """What a game's `read` is handed by the config loader: one table entry (or
    a section of it). Problems are reported with file and line by the loader;
    the game only names the key. Reading goes on past a problem, with the
    key's default, so every problem is reported at once."""

    def read(self, rows: tuple[Field, ...], *, skip: tuple[str, ...] = (),
             notes: dict[str, str] | None = None) -> Any: ...   # checked values by key, .ok(*keys)
    def section(self, key: str) -> "OptionsReader": ...          # a nested mapping (empty if absent)
    def has(self, key: str) -> bool: ...
    def error(self, key: str, message: str) -> None: ...


@dataclass(frozen=True)
class Built:
    """A table's reading: seats, wager limits and the game's options dataclass."""

    max_players: int
    min_bet: int
    max_bet: int
    options: Any


@dataclass(frozen=True)
class TableKeys:
    """The keys a `game:` reads in casino_tables, for the loader, `casino
    validate` and docs/config.md. Several entries may share one (bank and
    simplified craps are both `game: craps`)."""

    game: str                                   # the `game:` value
    read: Callable[[OptionsReader], Built]
    top: tuple[str, ...]                        # keys at the top of the entry (besides id, game)
    rows: tuple[Field, ...]                     # every key it reads, wherever, for the docs
    hints: Mapping[str, str] = field(default_factory=dict)   # another game's key here -> what to use


MakeDealer = Callable[[TableConfig, int, TableDraws, Seating], Dealer]   # config, tick_hz, dice, seating


@dataclass(frozen=True)
class OddsSheet:
    """`casino odds` for one table: a heading line and each bet's exact house edge."""

    heading: str
    edges: tuple[tuple[str, Fraction], ...]


@dataclass(frozen=True)
class GameEntry:
    """One game in the catalogue: plain data plus `make`.

    Everything that lists games (the table factory, config validation, the
    game words and `help`, the login banner, `casino odds`, `fair`) reads
    these fields and nothing else, so a new game is one package and one
    catalogue line.
    """

    key: str                        # the catalogue's name for it
    title: str                      # "Bank craps", as a heading
    phrase: str                     # "bank craps", as it reads inside a sentence
    word: str                       # play <word>, watch <word>, help <word>
    game: str                       # the config's `game:` value
    variant: str | None             # the config's variant, where one game has several
    summary: str                    # one line for the banner and `help`
    make: MakeDealer
    keys: TableKeys                 # what its tables read from casino_tables
    actions: Actions                # its words (server.games.actions)
    help_lines: tuple[str, ...] = ()          # more lines for `help <word>`
    aliases: tuple[str, ...] = field(default=())
    odds: Callable[[TableConfig], OddsSheet] | None = None   # `casino odds`; None: no house edge to show
    draws: DrawKind = DICE                    # what the table draws: `fair`, verify, art, GMCP
    drop_forfeits: bool = True                # a dropped connection loses live bets (`quit` warns first)
    topics: Mapping[str, str] = field(default_factory=dict)   # help <topic> beyond the words: bet kinds

    @property
    def words(self) -> dict[str, str]:
        """Each game word and its help line, in the order help lists them."""
        return {a.word: a.help_line for a in self.actions}

    def has_word(self, word: str) -> bool:
        """Whether `word` (or an alias) is one of this game's words."""
        return self.actions.find(word) is not None

    @property
    def opening_words(self) -> tuple[str, ...]:
        """Words that open a wager or a game: refused at a closing table and
        to a player on the way out or sitting out."""
        return self.actions.opening


def render_note(event: object, viewer: Viewer) -> list[str] | None:
    """Notes render the same at every table: None when `event` is not a Note."""
    if not isinstance(event, Note):
        return None
    if event.to is None or viewer.key in event.to:
        return [event.text]
    return []


def names_in(fact: object) -> set[str]:
    """Every string `fact` carries, in any field at any depth (dataclasses,
    tuples, lists, sets, dicts): all the names it can address a viewer by.

    Gathered from the data rather than listed per game, so a new fact or
    field that names someone is covered without anyone remembering to say
    so; a string that is not a name only costs one more render.
    """
    found: set[str] = set()
    todo = [fact]
    while todo:
        value = todo.pop()
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, (tuple, list, set, frozenset)):
            todo.extend(value)
        elif isinstance(value, dict):
            todo.extend(value.keys())
            todo.extend(value.values())
        elif is_dataclass(value) and not isinstance(value, type):
            todo.extend(getattr(value, f.name) for f in fields(value))
    return found

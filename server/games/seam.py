"""The seam between the table and one game, and a game's catalogue entry.

A game is one package under server/games/<game>/ that exports one GameEntry:
its words (one actions table, server.games.actions), the config it reads, what
it draws (server.dice.kinds) and `make`, which builds its Dealer for one
table. Every dealer extends the base Dealer below, which gives each hook its
default, so the table calls every hook without probing. A Dealer is pure: it holds the rules engine and the
round and timing policy of its game, reads the table's Seating (which the table
owns), and answers every input with events (facts and money intents); it
never awaits. The table calls it one input at a time.

Seating is the table's: it seats, unseats and defers a leave until the
player's last live bet is decided (asking `has_live_bets`), then tells the dealer with
`seated` and `unseated`. A game word that means "get up" (craps' `stop` and
`sitout`) answers with a SeatRequest, which the table carries out.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from fractions import Fraction
from typing import Any, Callable, ClassVar, Generic, Mapping, Never, Protocol, Self, TypeVar

from server.config.keys import Field
from server.config.model import GameOptions, TableConfig
from server.dice.kinds import DICE, DrawKind
from server.dice.source import OwnDraws, TableDraws
from server.games.actions import Action, Actions, Move, Refusal
from server.games.events import Ask as Ask
from server.games.events import Event as Event
from server.games.events import HandResult as HandResult
from server.games.events import Note as Note
from server.games.events import Notice as Notice
from server.games.events import RoundPlayed as RoundPlayed
from server.games.events import SeatRequest as SeatRequest
from server.games.events import WalletReport as WalletReport
from server.games.seating import Seating
from server.render.prefs import Prefs

@dataclass(frozen=True)
class Viewer:
    """Someone who sees a table's facts: their name (as facts name players),
    display preferences, and whether they are seated (else they watch)."""

    key: str
    prefs: Prefs
    seated: bool


S = TypeVar("S")
"""A game's snapshot: the frozen copy of its table that its view reads."""
S_co = TypeVar("S_co", covariant=True)
D = TypeVar("D", bound="Dealer[object]")      # a game's own dealer type, in its handlers' tables


@dataclass(frozen=True)
class Views(Generic[S]):
    """How a game's table reads to people, each a function of its snapshot:
    the five things every dealer shows, written once here instead of five
    one-line delegations in each dealer (a game's view module supplies them)."""

    event_lines: Callable[[S, "Event", Viewer], list[str]]      # a fact, as one viewer reads it
    table_view: Callable[[S, Viewer], list[str]]                # `look` / `table`
    rules_text: Callable[[S], list[str]]                        # `table rules`
    table_data: Callable[[S], dict[str, object]]                # GMCP Casino.Table, the game's part
    event_data: Callable[[S, "Event"], list[tuple[str, dict[str, object], tuple[str, ...] | None]]]


class Dealer(Generic[S_co]):
    """One game at one table: the base every game's dealer extends.

    It gives every hook its default, so a game writes only what its rules
    need and the table calls every hook without probing (python-chess's
    Board does the same for its variants). A dealer is pure: it reads the
    table's Seating, draws from the fair source it is handed, and answers
    each input with events; it never awaits.

    A game hands the base its words (its actions table, whose handlers are
    its own methods: hence `Actions[Self]`) and its Views; the base
    dispatches the words and shows the table through `snapshot()`.

    `render` may tell one watcher (a viewer not seated) from another only by
    their prefs and by comparing viewer.key with a name the fact carries
    (names_in: any field, at any depth) or with a seated player's name (no
    watcher is seated); everything else it reads is the same for every
    viewer. The table relies on it: it renders a fact once for each group
    of watchers with equal Prefs, and alone for each watcher the fact names.
    Seated viewers are always rendered one by one (their bets, their turn).
    """

    forfeits_on_drop: ClassVar[bool] = True
    """What a dropped connection does to live bets: forfeit them (craps), or
    False: they ride on and are paid to the wallet (roulette). `quit` warns
    a player with live bets only where they would be lost."""

    def __init__(self, config: TableConfig[GameOptions], tick_hz: int, dice: TableDraws, seating: Seating,
                 actions: Actions[Self], views: Views[S_co]) -> None:
        self.config = config
        self.tick_hz = tick_hz
        self.dice = dice
        self.seating = seating
        self.actions = actions
        self.views = views

    # --- seating: the table decides, the dealer is told ----------------------
    def sit_problem(self, player: str, wallet: int) -> str | None:
        """Why `player` may not sit (alley craps' buy-in), or None."""
        return None

    def seated(self, player: str, back: bool) -> list[Event]:
        return []

    def has_live_bets(self, player: str) -> bool:
        """Whether `player` has bets that a leave must wait for."""
        return False

    def unseated(self, player: str, how: str) -> list[Event]:
        """Up from the table: `how` is "leave", "sitout" or "gone"."""
        return []

    def turns_changed(self) -> list[Event]:
        """A seat's leave or sit-out began to wait on its live bets, or was
        called off (the player stays): whose turn it is may have changed
        (craps passes over a shooter on the way out), so say it now."""
        return []

    # --- play -------------------------------------------------------------------
    def act(self: D, player: str, words: list[str], wallet: int) -> list[Event]:
        """A game word typed by a seated `player` (the table checks the seat,
        since it knows the word players sit down with here): dispatched
        through the game's actions table."""
        action = self.actions.find(words[0])
        if action is None:
            return [Note((player,), self.actions.unknown(words[0]))]
        if action.phases and self.phase() not in action.phases:
            return [Note((player,), action.not_now)]
        if action.needs and len(words) < 2:
            return [Note((player,), f"Usage: {action.usage}")]
        try:
            return self.perform(action, Move(player, action.word, tuple(words[1:]), wallet))
        except Refusal as why:
            return [Note((player,), str(why))]

    def perform(self: D, action: Action[D], move: Move) -> list[Event]:
        """Run one parsed word: a dealer with book-keeping around every word
        (craps' cached snapshot) says so here."""
        return action.run(self, move)

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

    def reconfigure(self, config: TableConfig[GameOptions]) -> bool:
        """Take changed settings live (True), or leave them for the table to
        apply by a new dealer once no stake is open (False)."""
        return False

    # --- who is who ------------------------------------------------------------
    def phase(self) -> str:
        """The round as players read it: "betting, 5 s left"."""
        return ""

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

    # --- what people see (through the game's Views) ------------------------------
    def snapshot(self) -> S_co:
        """The table as the game's view reads it, now."""
        raise NotImplementedError

    def render(self, event: Event, viewer: Viewer) -> list[str]:
        note = render_note(event, viewer)
        return note if note is not None else self.views.event_lines(self.snapshot(), event, viewer)

    def view(self, viewer: Viewer) -> list[str]:
        return self.views.table_view(self.snapshot(), viewer)

    def rules(self) -> list[str]:
        return self.views.rules_text(self.snapshot())

    def table_data(self) -> dict[str, object]:
        """The game's part of GMCP Casino.Table."""
        return self.views.table_data(self.snapshot())

    def event_data(self, event: Event) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
        """A fact as GMCP data: (package, payload, players or None for everyone)."""
        return self.views.event_data(self.snapshot(), event)


AnyDealer = Dealer[object]
"""A dealer of any game, as the table holds it: the table calls only the
hooks above, none of which hands it the game's snapshot type (a dealer is
covariant in it, so every game's dealer is one)."""


class OptionsReader(Protocol):
    """What a game's `read` is handed by the config loader: one table entry (or
    a section of it). Problems are reported with file and line by the loader;
    the game only names the key. Reading goes on past a problem, with the
    key's default, so every problem is reported at once."""

    def read(self, rows: tuple[Field, ...], *, skip: tuple[str, ...] = (),
             notes: dict[str, str] | None = None) -> Any: ...
    # read: the checked values by key, with .ok(*keys) (server.config.fields.Values).
    # Any, as Values is: each key's type is its row's, which one mapping cannot say;
    # the options dataclass built from them (`PigOptions(**values)`) is where each
    # key meets its declared type.
    def section(self, key: str) -> "OptionsReader": ...          # a nested mapping (empty if absent)
    def has(self, key: str) -> bool: ...
    def error(self, key: str, message: str) -> None: ...


O_co = TypeVar("O_co", bound=GameOptions, covariant=True)


@dataclass(frozen=True)
class Built(Generic[O_co]):
    """A table's reading: seats, wager limits and the game's options dataclass."""

    max_players: int
    min_bet: int
    max_bet: int
    options: O_co


@dataclass(frozen=True)
class TableKeys:
    """The keys a `game:` reads in casino_tables, for the loader, `casino
    validate` and docs/config.md. Several entries may share one (bank and
    simplified craps are both `game: craps`)."""

    read: Callable[[OptionsReader], Built[GameOptions]]
    top: tuple[str, ...]                        # keys at the top of the entry (besides id, game)
    rows: tuple[Field, ...]                     # every key it reads, wherever, for the docs
    hints: Mapping[str, str] = field(default_factory=dict)   # another game's key here -> what to use


MakeDealer = Callable[[TableConfig[GameOptions], int, TableDraws, Seating], AnyDealer]
"""config, tick_hz, dice, seating -> the table's dealer: the game narrows the
config to its own options (TableConfig.narrowed) here."""


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
    actions: Actions[Never]         # its words (server.games.actions): read here, run by its dealer
    help_lines: tuple[str, ...] = ()          # more lines for `help <word>`
    aliases: tuple[str, ...] = field(default=())
    odds: Callable[[TableConfig[GameOptions]], OddsSheet] | None = None   # `casino odds`; None: no house edge
    draws: DrawKind = DICE                    # what the table draws: `fair`, verify, art, GMCP
    topics: Mapping[str, str] = field(default_factory=dict)   # help <topic> beyond the words: bet kinds
    # help <topic> for a player seated at one of its tables: the topics with that table's own
    # figures ("12 pays 3:1 here"); None: the general topics serve everyone
    table_topics: Callable[[TableConfig[GameOptions]], Mapping[str, str]] | None = None
    # `help <word>` from a player at one of its tables goes on with that table's own
    # rules (`table rules`): where the rules are the table's options (blackjack's decks,
    # payout, soft 17, surrender), the game's page alone cannot say them
    help_has_table_rules: bool = False

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

"""One registry of commands; each command carries its own help text.

Lookup is case-insensitive: an exact name or alias first, then a unique prefix
of a long name (`tab` for `table`). Operator commands do not exist for players:
they are neither found nor listed nor suggested.

Besides the commands registered here, words can be lent (as Evennia's objects
lend their command sets): the game catalogue lends each game's words, made
from the catalogue when it is asked, so a game registered later has its
words at once. A registered command wins over a lent word of the same name.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Awaitable, Callable, Generic, Never, TypeVar

from server.net.session import LoggedIn

Handler = Callable[["Context[Never]"], Awaitable[None]]
"""A command's handler, whatever part of the casino its module names (its
`Context[ThatApp]`): a Context is covariant in its app, so every handler is
one. The registry keeps them side by side; dispatch hands each the whole
casino (server.commands.dispatch.Commands, every module's part together)."""
H = TypeVar("H", bound=Handler)     # a handler as registered, its own type kept


@dataclass(frozen=True)
class Command:
    name: str
    handler: Handler
    help: str | Callable[[], str]   # first line: usage and summary; the rest: detail (or a maker of it)
    aliases: tuple[str, ...] = ()
    operator: bool = False
    topic: str = "general"          # groups the `help` listing

    @property
    def text(self) -> str:
        """The help text (made now, for a command whose help lists what may change)."""
        return self.help if isinstance(self.help, str) else self.help()

    @property
    def summary(self) -> str:
        return self.text.strip().splitlines()[0]


App = TypeVar("App", covariant=True)


@dataclass
class Context(Generic[App]):
    """One command call. `app` is the casino as the command's module sees it:
    each module names what it uses as a Protocol of its own (GeneralApp,
    TablesApp, ...) and types its handlers `Context[ThatApp]`."""

    app: App
    session: LoggedIn
    word: str                       # the command word as typed
    args: str                       # the rest of the line, stripped
    command: Command | None = None
    argv: list[str] = field(default_factory=list)

    def tell(self, *lines: str) -> None:
        self.session.tell(*lines)


@dataclass
class Registry:
    commands: dict[str, Command] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    lenders: list[Callable[[], dict[str, Command]]] = field(default_factory=list)
    _lent_from: tuple[dict[str, Command], ...] | None = None
    _lent_cache: tuple[dict[str, Command], dict[str, Command]] = ({}, {})

    def add(self, command: Command) -> None:
        for word in (command.name, *command.aliases):
            if word in self.commands or word in self.aliases:
                raise ValueError(f"command word {word!r} registered twice")
        self.commands[command.name] = command
        self._lent_from = None                 # a lent word of that name is now hidden
        for alias in command.aliases:
            self.aliases[alias] = command.name

    def lend(self, lender: Callable[[], dict[str, Command]]) -> None:
        """Words made by `lender` when asked (each game's words, from the catalogue).
        A lender hands out the same dict until its words change."""
        self.lenders.append(lender)
        self._lent_from = None

    def lent(self) -> dict[str, Command]:
        """The lent commands by name (a name a registered command has is left out)."""
        return self._lending()[0]

    def _lending(self) -> tuple[dict[str, Command], dict[str, Command]]:
        """The lent commands by name, and by name or alias. Made again only when
        a lender hands out another dict (the catalogue changed): a game word is
        typed far more often than a game comes or goes."""
        given = tuple(lender() for lender in self.lenders)
        if self._lent_from is None or any(a is not b for a, b in zip(given, self._lent_from)):
            words: dict[str, Command] = {}
            for lent in given:
                for word, cmd in lent.items():
                    if word not in self.commands and word not in self.aliases:
                        words.setdefault(word, cmd)
            found = {w: cmd for cmd in words.values() for w in (cmd.name, *cmd.aliases)}
            self._lent_cache = (words, {**found, **words})
            self._lent_from = given
        return self._lent_cache

    def _lent_word(self, word: str) -> Command | None:
        """A lent command by its name or one of its aliases."""
        return self._lending()[1].get(word)

    def command(self, name: str, help: str | Callable[[], str], aliases: tuple[str, ...] = (),
                operator: bool = False, topic: str = "general") -> Callable[[H], H]:
        """Decorator: register `handler` under `name` with its help text."""
        def register(handler: H) -> H:
            self.add(Command(name, handler, help, aliases, operator, topic))
            return handler
        return register

    def visible(self, operator: bool) -> list[Command]:
        return [c for c in (*self.commands.values(), *self.lent().values()) if operator or not c.operator]

    def find(self, word: str, operator: bool) -> Command | None:
        word = word.lower()
        name = word if word in self.commands else self.aliases.get(word)
        if name:
            cmd = self.commands[name]
            return cmd if operator or not cmd.operator else None
        lent = self._lent_word(word)
        if lent is not None:
            return lent
        matches = [c for c in self.visible(operator) if len(word) >= 2 and c.name.startswith(word)]
        return matches[0] if len(matches) == 1 else None

    def suggest(self, word: str, operator: bool) -> str | None:
        words = [w for c in self.visible(operator) for w in (c.name, *c.aliases) if len(w) > 1]
        close = difflib.get_close_matches(word.lower(), words, n=1, cutoff=0.6)
        if close:
            return close[0]
        prefixed = sorted(c.name for c in self.visible(operator) if c.name.startswith(word.lower()))
        return prefixed[0] if prefixed else None


REGISTRY = Registry()
"""The casino's commands: each module of server.commands adds its own on import."""

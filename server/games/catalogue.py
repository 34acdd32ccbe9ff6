"""Every game the casino can seat, in one catalogue.

The table factory, config validation, the game words and `help`, the login
banner, `casino odds` and `casino verify` read this and nothing else, so
adding a game is one package (server/games/<game>/ with its entry) and one
line in GAMES. `register` adds a game from outside the server's own tree (a
plug-in, or a test's game): everything that lists games reads the catalogue
when it is asked, never a copy made at import.
"""
from __future__ import annotations

from typing import Iterator

from server.config.model import GameOptions, TableConfig
from server.dice.kinds import SHARED, DrawKind
from server.games.alley.entry import ALLEY
from server.games.blackjack.entry import BLACKJACK
from server.games.craps.entry import (BANK_CRAPS, CRAPLESS_CRAPS, DICELESS_CRAPS, DIE_RICH_CRAPS,
                                      HIGH_POINT_CRAPS, NEW_YORK_CRAPS)
from server.games.pig.entry import PIG
from server.games.roulette.entry import ROULETTE
from server.games.seam import GameEntry, TableKeys
from server.games.simplified.entry import SIMPLIFIED


class Catalogue:
    """The games, in the order `help` and the banner list them.

    `version` changes whenever a game comes or goes, so what is derived from
    the catalogue (the command words games lend) is made again only then."""

    def __init__(self, entries: tuple[GameEntry, ...]) -> None:
        self._entries = list(entries)
        self.version = 0

    def __iter__(self) -> Iterator[GameEntry]:
        return iter(tuple(self._entries))

    def __len__(self) -> int:
        return len(self._entries)

    def register(self, entry: GameEntry) -> None:
        """Add a game; its key must be new (its word and `game:` may be shared:
        bank and simplified craps are both `play craps`, `game: craps`)."""
        if any(e.key == entry.key for e in self._entries):
            raise ValueError(f"a game with key {entry.key!r} is already in the catalogue")
        self._entries.append(entry)
        self.version += 1

    def unregister(self, entry: GameEntry) -> None:
        self._entries.remove(entry)
        self.version += 1


GAMES = Catalogue((BANK_CRAPS, SIMPLIFIED, ALLEY, PIG, ROULETTE,
                   CRAPLESS_CRAPS,
                   NEW_YORK_CRAPS,
                   DICELESS_CRAPS,
                   HIGH_POINT_CRAPS,
                   DIE_RICH_CRAPS,
                   BLACKJACK))


def register(entry: GameEntry) -> None:
    """Add a game to the casino's catalogue (before the config that seats it is read)."""
    GAMES.register(entry)


def unregister(entry: GameEntry) -> None:
    GAMES.unregister(entry)


def find_game(name: str) -> GameEntry | None:
    """The entry a player or operator means by `name` (key, word, title or alias)."""
    name = name.lower()
    for entry in GAMES:
        if name in (entry.key, entry.word, entry.title.lower(), *entry.aliases):
            return entry
    return None


def table_keys() -> dict[str, TableKeys]:
    """Each `game:` value and the keys its tables read (entries may share one)."""
    return {entry.game: entry.keys for entry in GAMES}


def entry_for(config: TableConfig[GameOptions]) -> GameEntry:
    """The entry that plays a configured table (its game and, if any, variant)."""
    for entry in GAMES:
        if entry.game == config.game and entry.variant in (None, config.options.variant):
            return entry
    raise LookupError(f"no game plays {config.game!r} (variant {config.options.variant!r})")


def draw_kinds() -> tuple[DrawKind, ...]:
    """Every kind of draw a table can make: `casino verify --draw <name>`."""
    kinds = {k.name: k for k in SHARED}
    for entry in GAMES:
        kinds.setdefault(entry.draws.name, entry.draws)
    return tuple(kinds.values())

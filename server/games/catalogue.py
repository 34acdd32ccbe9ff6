"""Every game the casino can seat, in one tuple.

The table factory, config validation, the game words and `help`, and the
login banner read this and nothing else, so adding a game is one package
(server/games/<game>/ with its entry) and one line here.
"""
from __future__ import annotations

from server.config.model import TableConfig
from server.games.alley.entry import ALLEY
from server.games.craps.entry import BANK_CRAPS
from server.games.pig.entry import PIG
from server.games.roulette.entry import ROULETTE
from server.games.seam import GameEntry, TableKeys
from server.games.simplified.entry import SIMPLIFIED

GAMES: tuple[GameEntry, ...] = (BANK_CRAPS, SIMPLIFIED, ALLEY, PIG, ROULETTE)


def find_game(name: str) -> GameEntry | None:
    """The entry a player or operator means by `name` (key, word, title or alias)."""
    name = name.lower()
    for entry in GAMES:
        if name in (entry.key, entry.word, entry.title.lower(), *entry.aliases):
            return entry
    return None


def table_keys() -> dict[str, TableKeys]:
    """Each `game:` value and the keys its tables read (entries may share one)."""
    return {entry.keys.game: entry.keys for entry in GAMES}


def entry_for(config: TableConfig) -> GameEntry:
    """The entry that plays a configured table (its game and, if any, variant)."""
    variant = getattr(config.options, "variant", None)
    for entry in GAMES:
        if entry.game == config.game and entry.variant in (None, variant):
            return entry
    raise LookupError(f"no game plays {config.game!r} (variant {variant!r})")

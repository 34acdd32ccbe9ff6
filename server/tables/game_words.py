"""The words each game adds, with their help, gathered for the command registry.

Game words are registered once as commands that route to the player's table;
`help <game>` shows the game's own list.
"""
from __future__ import annotations

from server.games.craps.parse import KINDS_HELP
from server.tables.bank.table import COMMANDS as BANK
from server.tables.simplified import COMMANDS as SIMPLIFIED

_TABLE_WORDS = [
    "play <game> - sit down at this room's table.",
    "watch <game> - watch without playing.",
    "table / table rules - the table and its state / the rules in plain words.",
    "seed <text> - as the shooter, set the client seed; fair [new] - check the dice.",
    "leave - get up (once your bets are decided).",
]

GAME_HELP: dict[str, list[str]] = {
    "craps": ["Bank craps (room 6185):", *(f"  {h}" for h in BANK.values()),
              f"  Bet kinds: {KINDS_HELP}.",
              "Simplified craps (the solo table):", *(f"  {h}" for h in SIMPLIFIED.values()),
              "At any table:", *(f"  {h}" for h in _TABLE_WORDS)],
}

# word -> help text for the registry (a word several games share lists each meaning)
GAME_WORDS: dict[str, str] = {}
for _game, _commands in (("bank craps", BANK), ("simplified craps", SIMPLIFIED)):
    for _word, _help in _commands.items():
        GAME_WORDS[_word] = (GAME_WORDS[_word] + "\n" if _word in GAME_WORDS else "") + f"{_help}  ({_game})"

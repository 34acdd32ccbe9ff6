"""The words each game adds, with their help, gathered for the command registry.

Game words are registered once as commands that route to the player's table;
`help <game>` shows the game's own list. To add a game: import its COMMANDS
(word -> help line) and add one row to GAMES.
"""
from __future__ import annotations

from server.games.craps.parse import KINDS_HELP
from server.tables.alley.table import COMMANDS as ALLEY
from server.tables.bank.table import COMMANDS as BANK
from server.tables.pig import COMMANDS as PIG
from server.tables.simplified import COMMANDS as SIMPLIFIED

TABLE_WORDS = [
    "play <game> - sit down at this room's table.",
    "watch <game> - watch without playing.",
    "table / table rules - the table and its state / the rules in plain words.",
    "seed <text> - as the shooter, set the client seed; fair [new] - check the dice.",
    "leave - get up (at craps once your live bets are decided; at Pig and alley craps at once).",
]

# (help topic, heading, the game's command words with their help, extra lines)
GAMES: list[tuple[str, str, dict[str, str], list[str]]] = [
    ("craps", "Bank craps (room 6185):", BANK, [f"Bet kinds: {KINDS_HELP}."]),
    ("craps", "Simplified craps (the solo table):", SIMPLIFIED, []),
    ("alley", "Alley craps (the back alley, down from the lobby):", ALLEY,
     ["Players bet against each other; 'table rules' has the rules in plain words."]),
    ("pig", "Pig (the parlour, west of the lobby):", PIG,
     ["A 1 loses your round score; double 1s lose your whole score too. 'table rules' has the rest."]),
]

GAME_HELP: dict[str, list[str]] = {}
for _topic, _heading, _commands, _extra in GAMES:
    GAME_HELP.setdefault(_topic, []).extend(
        [_heading, *(f"  {h}" for h in _commands.values()), *(f"  {x}" for x in _extra)])
for _lines in GAME_HELP.values():
    _lines.extend(["At any table:", *(f"  {h}" for h in TABLE_WORDS)])

# word -> help text for the registry (a word several games share lists each meaning)
GAME_WORDS: dict[str, str] = {}
for _topic, _heading, _commands, _extra in GAMES:
    for _word, _help in _commands.items():
        label = _heading.split(" (")[0].rstrip(":").lower()
        GAME_WORDS[_word] = (GAME_WORDS[_word] + "\n" if _word in GAME_WORDS else "") + f"{_help}  ({label})"

"""Player words -> simplified craps actions (COMMANDS.md "Simplified craps").

The table room's command layer can hand a line here; the amount stays text so
the engine gives the reasons (cents, minimum, maximum, wallet).
"""
from __future__ import annotations

from server.games.simplified.events import Action, Bet, Collect, Odds, Press, Ride, Roll
from server.games.simplified.rules import Side

SIDES = {"pass": Side.PASS, "dontpass": Side.DONT, "dp": Side.DONT}
_BARE = {"roll": Roll, "press": Press, "ride": Ride, "collect": Collect}
USAGE = {
    "bet": "Usage: bet pass <amount> or bet dontpass <amount>.",
    "odds": "Usage: odds <amount>.",
}


def parse_action(line: str) -> Action | str:
    """The action a line asks for, or a one-line reason (usage) when it is wrong."""
    words = line.lower().split()
    if not words:
        return "Type a command: bet, roll, press, odds, ride or collect."
    verb, rest = words[0], words[1:]
    if verb in _BARE:
        if rest:
            return f"'{verb}' takes nothing after it."
        return _BARE[verb]()
    if verb == "bet":
        if len(rest) != 2 or rest[0] not in SIDES:
            return USAGE["bet"]
        return Bet(SIDES[rest[0]], rest[1])
    if verb == "odds":
        if len(rest) != 1:
            return USAGE["odds"]
        return Odds(rest[0])
    return f"Simplified craps has no '{verb[:20]}': bet, roll, press, odds, ride, collect."

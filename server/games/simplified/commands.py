"""Simplified craps' words, each declared once (docs/play-simplified-craps.md "Commands").

ACTIONS is the one table of the game's words: the dealer's dispatch, `help`,
the answer to a word the game does not have and the opening words all read
it. Each row's parser turns the words after the verb into the engine's typed
command (events.Command); the amount stays text so the engine gives the
reasons (cents, minimum, maximum, wallet). Every row's handler is its parser
bound to the same play: the dealer hands the command to its engine.

The dealer is reached through the `Plays` protocol, so this module does not
import the dealer (which imports this table).
"""
from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Callable, Protocol, Sequence

from server.games.actions import Action, Actions, Move, Refusal
from server.games.seam import Event
from server.games.simplified.events import Bet, Collect, Command, Odds, Press, Ride, Roll
from server.games.simplified.rules import Side

SIDES: Mapping[str, Side] = MappingProxyType({"pass": Side.PASS, "dontpass": Side.DONT, "dp": Side.DONT})
USAGE: Mapping[str, str] = MappingProxyType({
    "bet": "Usage: bet pass <amount> or bet dontpass <amount>.",
    "odds": "Usage: odds <amount>.",
})


class Plays(Protocol):
    """What the actions' handlers need of the dealer: play one parsed command."""

    def play(self, move: Move, command: Command) -> list[Event]: ...


def _playing(parse: Callable[[Sequence[str]], Command]) -> Callable[[Plays, Move], list[Event]]:
    """A word's handler: the dealer plays the command `parse` makes of its words."""
    def run(dealer: Plays, move: Move) -> list[Event]:
        return dealer.play(move, parse(move.args))
    return run


# --- parsers: the words after the verb -> the engine's command -------------------
def _bet(words: Sequence[str]) -> Bet:
    rest = [w.lower() for w in words]
    if len(rest) != 2 or rest[0] not in SIDES:
        raise Refusal(USAGE["bet"])
    return Bet(SIDES[rest[0]], rest[1])


def _odds(words: Sequence[str]) -> Odds:
    if len(words) != 1:
        raise Refusal(USAGE["odds"])
    return Odds(words[0].lower())


def _bare(verb: str, command: Callable[[], Command]) -> Callable[[Sequence[str]], Command]:
    """A word that takes nothing after it."""
    def parse(words: Sequence[str]) -> Command:
        if words:
            raise Refusal(f"'{verb}' takes nothing after it.")
        return command()
    return parse


# Each word's parser, by word: the handlers below and `parse_action` read them.
PARSERS: Mapping[str, Callable[[Sequence[str]], Command]] = MappingProxyType({
    "bet": _bet, "roll": _bare("roll", Roll), "press": _bare("press", Press), "odds": _odds,
    "ride": _bare("ride", Ride), "collect": _bare("collect", Collect),
})

ACTIONS = Actions[Plays]("Simplified craps", (
    Action("bet", "bet pass|dontpass <amount>", "start a game on the pass or don't pass line.",
           _playing(PARSERS["bet"]), opens=True),
    Action("roll", "roll", "roll the dice.", _playing(PARSERS["roll"])),
    Action("press", "press", "double your flat bet, right after the point is set.",
           _playing(PARSERS["press"]), opens=True),
    Action("odds", "odds <amount>", "take (or lay) true odds behind your bet once a point is set.",
           _playing(PARSERS["odds"]), opens=True),
    Action("ride", "ride", "after a win, let the stake and winnings ride as the next bet.",
           _playing(PARSERS["ride"]), opens=True),
    Action("collect", "collect", "after a win, pick up your chips (they are already in your wallet).",
           _playing(PARSERS["collect"])),
))


def _listed(words: Sequence[str]) -> str:
    return ", ".join(words[:-1]) + " or " + words[-1] if len(words) > 1 else "".join(words)


def parse_action(line: str) -> Command | str:
    """The command a whole line asks for, or a one-line reason (usage) when it is wrong."""
    words = line.lower().split()
    if not words:
        return f"Type a command: {_listed(ACTIONS.words)}."
    action = ACTIONS.find(words[0])
    if action is None:
        return ACTIONS.unknown(words[0])
    try:
        return PARSERS[action.word](words[1:])
    except Refusal as why:
        return str(why)

"""A game's words, each declared once: the word, its aliases, its usage, its
help, the phases in which it may be typed, whether it opens a wager or a
game, its parser and its handler, in one table per game.

Everything that speaks of a game's words reads that table: the dealer's
dispatch (`Dealer.act`), `help <word>` and the game's help page, the answer
to a word the game does not have, the refusal of an opening word at a
closing table, and GMCP's word list. So a word is added, renamed or
explained in one row, as Evennia's commands carry their own help and h11
keeps which events each state allows in one table.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, Iterator, TypeVar

from server.games.events import Event
from server.render.width import glue

D = TypeVar("D", contravariant=True)
"""The game's own dealer type, whose methods handle its words. A table of
any game is an `Actions[Never]`: every part of it can be read, and only its
own dealer (`Actions[Self]` in the base Dealer) can run it."""


class Refusal(Exception):
    """A parser's or handler's reason, in the player's words: told as one line."""


@dataclass(frozen=True)
class Move:
    """One typed game word, as the dealer's handler receives it: who typed
    it, the words that followed it as typed (the handler parses them, and a
    parser's Refusal is answered as one line), and their wallet when they
    typed it."""

    player: str
    word: str
    args: tuple[str, ...]
    wallet: int


@dataclass(frozen=True)
class Action(Generic[D]):
    """One game word.

    `run(dealer, move)` is the game's handler for it, a method of the
    game's own dealer type; it parses `move.args` (raising Refusal on bad
    words). With `needs` a bare word is answered with its usage. `phases` are the dealer's `phase()` values in which the
    word is taken (empty: any), `not_now` the answer in any other; `opens`
    marks a word that opens a wager or a game, which the table refuses at a
    closing table and to a player on the way out or sitting out. `remind`
    puts the word in the "Commands:" line under the game's table view, as
    `brief` if it has one (a narrow screen keeps it on the line), else as usage.
    """

    word: str
    usage: str
    help: str
    run: Callable[[D, Move], list[Event]]
    aliases: tuple[str, ...] = ()
    needs: bool = False
    phases: tuple[str, ...] = ()
    not_now: str = ""
    opens: bool = False
    remind: bool = True
    brief: str = ""                 # its form in the "Commands:" line, where shorter than usage

    @property
    def help_line(self) -> str:
        """`bet <kind> <amount> - place a wager ...`: usage and help, as `help` lists it."""
        return f"{self.usage} - {self.help}"


@dataclass(frozen=True)
class Actions(Generic[D]):
    """A game's table of words, in the order its help lists them."""

    game: str                       # the game's name in a sentence's start: "Bank craps"
    rows: tuple[Action[D], ...]

    def __iter__(self) -> Iterator[Action[D]]:
        return iter(self.rows)

    def find(self, word: str) -> Action[D] | None:
        word = word.lower()
        for action in self.rows:
            if word == action.word or word in action.aliases:
                return action
        return None

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(a.word for a in self.rows)

    @property
    def opening(self) -> tuple[str, ...]:
        return tuple(a.word for a in self.rows if a.opens)

    def unknown(self, word: str) -> str:
        """The answer to a word this game does not have, naming those it has."""
        return f"{self.game} has no '{word[:20]}': {', '.join(self.words)}."

    def reminder(self, *table_words: str) -> str:
        """The "Commands:" line under a table view, made from this table (the
        words marked `remind`, by their usage) and the table's own words after
        them ("leave", "help craps"): each command glued to its arguments and
        its bar, so a narrow screen never breaks one in two."""
        words = [a.brief or a.usage for a in self.rows if a.remind] + list(table_words)
        return "Commands: " + " ".join(glue(*w.split(), "|") for w in words[:-1]) + " " + glue(*words[-1].split())

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
from typing import Callable, Iterator, Sequence


class Refusal(Exception):
    """A parser's or handler's reason, in the player's words: told as one line."""


@dataclass(frozen=True)
class Move:
    """One typed game word, as the dealer's handler receives it: who typed
    it, what followed the word (already parsed by the action's parser), and
    their wallet when they typed it."""

    player: str
    word: str
    args: object
    wallet: int


def words_after(words: Sequence[str]) -> tuple[str, ...]:
    """The default parser: the words after the verb, as they were typed."""
    return tuple(words)


@dataclass(frozen=True)
class Action:
    """One game word.

    `run(dealer, move)` is the game's handler for it, a function of the
    game's own dealer type (hence `...`: the table is plain data read by
    code that never calls it, and the game's base Dealer calls it with
    itself). `parse` turns the words after the verb into `move.args`, or
    raises Refusal; with `needs` a bare word is answered with its usage.
    `phases` are the dealer's `phase_key()` values in which the word is
    taken (empty: any), `not_now` the answer in any other; `opens` marks a
    word that opens a wager or a game, which the host refuses at a closing
    table and to a player on the way out or sitting out.
    """

    word: str
    usage: str
    help: str
    run: Callable[..., list[object]]
    parse: Callable[[Sequence[str]], object] = words_after
    aliases: tuple[str, ...] = ()
    needs: bool = False
    phases: tuple[str, ...] = ()
    not_now: str = ""
    opens: bool = False

    @property
    def help_line(self) -> str:
        """`bet <kind> <amount> - place a wager ...`: usage and help, as `help` lists it."""
        return f"{self.usage} - {self.help}"


@dataclass(frozen=True)
class Actions:
    """A game's table of words, in the order its help lists them."""

    game: str                       # the game's name in a sentence's start: "Bank craps"
    rows: tuple[Action, ...]

    def __iter__(self) -> Iterator[Action]:
        return iter(self.rows)

    def find(self, word: str) -> Action | None:
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

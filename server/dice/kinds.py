"""What a table draws, described once: two dice, a wheel, one die, cards.

A DrawKind says how many outcomes one fair draw has (the draw is an integer
in [0, outcomes), server.dice.derive), how that integer reads as the values
players see (two dice are one draw(36) split in two, so the published
vectors keep working), how those values are said in plain text and how they
are drawn as art. `fair`, `casino verify`, the renderers and GMCP all read
it, so a game with a new kind of draw brings its DrawKind in its package and
nothing else learns its name.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from server.dice.derive import DICE_OUTCOMES, WHEEL_POCKETS, split_dice
from server.render.dice import dice_art
from server.render.prefs import Prefs

Faces = tuple[int, ...]


@dataclass(frozen=True)
class DrawKind:
    name: str                                   # the source as players call it: "dice", "wheel"
    one: str                                    # one draw: "roll", "spin", "deal"
    outcomes: int                               # a draw is an integer in [0, outcomes)
    faces: Callable[[int], Faces]               # that integer as the values players see
    say: Callable[[Faces], str]                 # the values in plain text: "3 4 (total 7)"
    art: Callable[[Faces, Prefs], list[str]]    # the values drawn for one viewer
    count: int = 1                              # values per draw
    low: int = 0                                # the smallest value
    high: int = 0                               # the largest value
    # A kind whose draws are whole shuffles (a blackjack shoe: draws of every size
    # from 2 up): how `casino verify --draw <name>` rebuilds one, as lines, from
    # (server seed, client seed, first nonce, decks); None for one value a draw.
    rebuild: Callable[[str, str, int, int], list[str]] | None = None

    def line(self, nonce: int, value: int) -> str:
        """One draw as `fair` and `casino verify` print it."""
        return f"nonce {nonce}: {self.say(self.faces(value))}"

    def data(self) -> dict[str, object]:
        """The description as GMCP carries it (Casino.Table's `draw`)."""
        return {"name": self.name, "one": self.one, "count": self.count,
                "low": self.low, "high": self.high, "outcomes": self.outcomes}


def _say_dice(faces: Faces) -> str:
    return f"{faces[0]} {faces[1]} (total {sum(faces)})"


def _pocket_art(faces: Faces, prefs: Prefs) -> list[str]:
    return [f"  ( {faces[0]} )"]


DICE = DrawKind("dice", "roll", DICE_OUTCOMES, split_dice, _say_dice, dice_art, count=2, low=1, high=6)
WHEEL = DrawKind("wheel", "spin", WHEEL_POCKETS, lambda v: (v,), lambda f: f"pocket {f[0]}",
                 _pocket_art, count=1, low=0, high=36)
DIE = DrawKind("die", "roll", 6, lambda v: (v + 1,), lambda f: f"{f[0]}", dice_art, count=1, low=1, high=6)
SHARED: tuple[DrawKind, ...] = (DICE, WHEEL, DIE)


def plain(n: int) -> DrawKind:
    """A draw of a size no kind describes (verify --draw N): the bare integer."""
    return DrawKind(str(n), "draw", n, lambda v: (v,), lambda f: f"{f[0]} (of 0-{n - 1})",
                    lambda f, p: [f"  {f[0]}"], count=1, low=0, high=n - 1)

"""What the Pig view may read of its table: a frozen copy the dealer builds per render.

The dealer owns the state (server.games.pig.dealer); the view
(server.games.pig.view) turns a fact plus one of these into lines and data.
Neither imports the other: both import this module. Everything here is the
same for every viewer, which keeps seam.Dealer's rule for `render` true (a
watcher is told from another only by their prefs and their name).
"""
from __future__ import annotations

from dataclasses import dataclass

from server.games.pig.events import GameOver
from server.games.pig.options import PigOptions


@dataclass(frozen=True)
class GameSnapshot:
    """The table's latest game (in play, or over or stopped: `playing` says)."""

    number: int                             # the table's game counter: "Game 3"
    playing: bool
    options: PigOptions                     # the options it plays by (a reload waits for the next game)
    vs_computer: bool
    players: tuple[str, ...]                # turn order, those still in it
    computer: str | None                    # the computer's name in a game against it
    scores: tuple[tuple[str, int], ...]     # everyone who started, leavers too, in turn order
    current: str | None                     # on turn while playing
    round_score: int
    rounds: int
    pot: int


@dataclass(frozen=True)
class PigSnapshot:
    """One Pig table as its view sees it."""

    table_id: str
    max_players: int
    options: PigOptions                     # the table's options: the next game's
    seated: tuple[str, ...]                 # in seat order
    ready: frozenset[str]                   # who plays in the next game
    game: GameSnapshot | None               # the latest game; None before the first
    last: GameOver | None                   # how the last game ended
    commands: str = ""                      # the "Commands:" line in play, made from the actions table

    @property
    def playing(self) -> GameSnapshot | None:
        """The game in play, or None."""
        return self.game if self.game is not None and self.game.playing else None

    def in_game(self, player: str) -> bool:
        """Whether a human `player` plays in the game in play."""
        game = self.playing
        return game is not None and player in game.players and player != game.computer

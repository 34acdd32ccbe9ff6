"""What the alley craps view reads besides a fact: a frozen snapshot of the table.

The dealer builds one per render call (`AlleyDealer.snapshot`) and hands it to
the view (server.games.alley.view), which never sees the dealer: so the view
and the dealer do not import each other, and everything the view reads is
here, the same for every viewer (seam.Dealer's rule for watchers). Plain
immutable values and tuples, a handful of them, so it stays cheap to build.
"""
from __future__ import annotations

from dataclasses import dataclass

from server.dice.source import Dice
from server.games.alley import events as ev
from server.games.alley.options import AlleyOptions
from server.games.alley.state import AlleyView


@dataclass(frozen=True)
class AlleySnapshot:
    """The table as the view sees it at one moment."""

    table_id: str
    max_players: int
    options: AlleyOptions                   # frozen: the table's windows, buy-in and unit
    commands: str                           # the "Commands:" line, made from the actions table
    tick_hz: int
    seats: tuple[str, ...]                  # everyone seated, in seat order
    playing: tuple[str, ...]                # seated players in the running game
    waiting: tuple[str, ...]                # seated players who play in the next game
    games: int                              # games started at this table
    game: AlleyView | None                  # the running game's state; None between games
    last_result: ev.GameOver | ev.GameClosed | None
    last_dice: Dice | None

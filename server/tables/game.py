"""The seam between the table host and one game.

A GameTable is pure: it holds the rules engine, the seating and timing policy
of its game, and its renderer; every method returns events (facts and money
intents) and never awaits. The host calls it one input at a time.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from server.config.model import TableConfig
from server.net.client import Prefs


@dataclass(frozen=True)
class Viewer:
    """Someone who sees a table's facts: their key, display preferences, role."""

    key: str
    prefs: Prefs
    seated: bool
    session: Any = None


@dataclass(frozen=True)
class Note:
    """A plain line for some players (`to`), or everyone at the table (None)."""

    to: tuple[str, ...] | None
    text: str


@dataclass(frozen=True)
class HandResult:
    """The end of a hand or game, for the operator's log (not shown to players)."""

    fields: tuple[tuple[str, object], ...]


@dataclass(frozen=True)
class WalletReport:
    """Tell `player` their wallet balance, once the money before it is durable."""

    player: str


class GameTable(Protocol):
    config: TableConfig
    word: str                       # the game word: `play <word>`, `help <word>`
    commands: dict[str, str]        # game command word -> its help text
    dice: Any                       # the table's FairDice

    def seated(self) -> list[str]: ...
    def sit(self, player: str, wallet: int) -> list[Any]: ...
    def leave(self, player: str) -> list[Any]: ...
    def disconnect(self, player: str) -> list[Any]: ...
    def act(self, player: str, words: list[str], wallet: int) -> list[Any]: ...
    def advance(self, ticks: int) -> list[Any]: ...
    def hold_refused(self, key: str, reason: str) -> list[Any]: ...
    def close(self, why: str) -> list[Any]: ...
    def players_of(self, intent: Any) -> tuple[str, ...]: ...
    def render(self, event: Any, viewer: Viewer) -> list[str]: ...
    def view(self, viewer: Viewer) -> list[str]: ...
    def rules(self) -> list[str]: ...
    def phase(self) -> str: ...
    def shooter(self) -> str | None: ...
    # Optional: reconfigure(config) -> bool (take new settings live);
    # between_hands() -> bool (a removed table may close now).


def render_note(event: Any, viewer: Viewer) -> list[str] | None:
    """Notes render the same at every table: None when `event` is not a Note."""
    if not isinstance(event, Note):
        return None
    if event.to is None or viewer.key in event.to:
        return [event.text]
    return []

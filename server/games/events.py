"""The events every game shares with the table, whatever the game.

A dealer answers each input with a list of events: its own facts (the frozen
dataclasses of its events.py), money intents (server.games.intents), and the
plain lines and requests below, which the table understands at every table.
They live apart from the seam so that the actions table (server.games.actions),
which the seam reads, can name them too.
"""
from __future__ import annotations

from dataclasses import dataclass

from server.games.intents import MoneyIntent


class GameFact:
    """The base of every game's facts (the frozen dataclasses of its
    events.py): what happened at the table, for people, which only its own
    game's view renders. A marker with no fields, so that Event below is a
    closed union the table can check, while each game keeps its own facts."""

    __slots__ = ()


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


@dataclass(frozen=True)
class Notice:
    """Tell `player` `text` now if they are connected, else at their next login.

    For news that finds a player gone: bets that rode on after they left or
    dropped, settled to the wallet. The table keeps it durably (the ledger's
    notices, which login reads) when nobody is there to hear it; it follows
    the money intents it speaks of, so it never tells of chips not yet written.
    """

    player: str
    text: str


@dataclass(frozen=True)
class SeatRequest:
    """A game word asks the table to unseat its player: "leave" or "sitout"."""

    player: str
    how: str


@dataclass(frozen=True)
class Ask:
    """Ask `player` something at their prompt (simplified craps offers a dice
    seed): their prompt becomes `prompt`, and their next line, unless it is a
    command, goes to the table as `word` followed by its words (a bare Enter
    sends `word` alone)."""

    player: str
    prompt: str
    word: str


@dataclass(frozen=True)
class RoundPlayed:
    """A round that moved no chips was played to its end by these players (a
    game of Pig against the computer, or one with no stake): `stats` counts
    it as a round, as the ledger counts every round that closed a stake. A
    round that did move chips is never also told this way: the ledger's
    settlement is its count."""

    players: tuple[str, ...]


HostRequest = SeatRequest | Ask | Notice | WalletReport | HandResult | RoundPlayed
"""What a game asks of the table besides moving money."""

Event = GameFact | Note | MoneyIntent | HostRequest
"""What a dealer answers with: a fact for people (a game's GameFact, or a
plain Note), a money intent (server.games.intents) or a request to the table."""

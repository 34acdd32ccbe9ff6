"""The words a shard answers on the bus: each the far half of a command.

A command that reaches past its shard (`tell` to a player on another, `who`
of the whole casino, an operator's `kick`, `grant`, `announce`, `close`,
`reload`, `restart`) asks the shard that can do it; that shard answers with
the word registered here under the same name. The far half sits beside the
command it serves (server/commands), as a command's help does, so a word
reads whole in one place; server/casino/crossing.py carries them.

Two kinds, by address: a shard's words (`casino.shard.<name>`: who, announce,
reload, restart, close) and a player's (`casino.player.<key>`, answered by
whichever shard hosts that player now: tell, kick, grant, taken).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Awaitable, Callable, Generic, Never, TypeVar

from server.bus.bus import Message
from server.net.session import LoggedIn

App = TypeVar("App", covariant=True)


@dataclass(frozen=True)
class Heard(Generic[App]):
    """One word heard from the bus: the casino as the word's module sees it (as a
    command's Context), the word's fields, and for a player's word, the player."""

    app: App
    message: Message
    session: LoggedIn | None = None

    def text(self, name: str, limit: int = 2000) -> str:
        """A field as text (what another shard sent is checked as any input is)."""
        value = self.message.get(name, "")
        return value[:limit] if isinstance(value, str) else ""

    def number(self, name: str, default: int = 0) -> int:
        value = self.message.get(name, default)
        return value if isinstance(value, int) and not isinstance(value, bool) else default


Word = Callable[["Heard[Never]"], Awaitable["Message | None"]]
W = TypeVar("W", bound=Word)


@dataclass
class Words:
    shard: dict[str, Word] = field(default_factory=dict)
    player: dict[str, Word] = field(default_factory=dict)

    def to_shard(self, name: str) -> Callable[[W], W]:
        """Decorator: the answer to `name` sent to this shard."""
        def register(word: W) -> W:
            self.shard[name] = word
            return word
        return register

    def to_player(self, name: str) -> Callable[[W], W]:
        """Decorator: the answer to `name` sent to a player this shard hosts."""
        def register(word: W) -> W:
            self.player[name] = word
            return word
        return register


WORDS = Words()
"""Every word the shards answer: each command module adds its own on import."""

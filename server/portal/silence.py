"""Players told when their game process stops answering (issue 42).

A game process that is paused (SIGSTOP, a machine swapping) or stuck (a loop
that never yields) reads nothing and writes nothing, and its players type
into a casino that says nothing back. The portal cannot mend that (the
process is alive: it is not a crash to replace), but it can say so: it asks
every serving game process each second (`ping`; any message counts as an
answer), and once one has said nothing for `limits.game_silence` seconds,
each player on its shard reads one line. Counted in the portal's clock
ticks, like every other wait of the casino.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from server.portal.game_process import GameProcess

NOT_ANSWERING = "The casino is not answering just now; your connection is kept."


class Watched(Protocol):
    """A shard as the watch sees it (server.portal.shard_games.ShardGames)."""

    def serving(self) -> GameProcess | None: ...
    def tell(self, text: str) -> None: ...


class Silence:
    """Every serving game process pinged each `ping_every` ticks; one quiet for
    `limit` ticks has its players told, once until it speaks again."""

    def __init__(self, shards: Callable[[], Iterable[Watched]], ping_every: int, limit: int) -> None:
        self.shards = shards
        self.ping_every = ping_every
        self.limit = limit
        self._since_ping = 0

    def advance(self, ticks: int) -> None:
        self._since_ping += ticks
        ping = self._since_ping >= self.ping_every
        if ping:
            self._since_ping = 0
        for shard in self.shards():
            game = shard.serving()
            if game is None:
                continue
            game.quiet += ticks
            if game.quiet >= self.limit and not game.told_quiet:
                game.told_quiet = True
                shard.tell(NOT_ANSWERING)
            if ping and not game.full():       # one that has not read what it was sent needs no more
                game.send({"t": "ping"})

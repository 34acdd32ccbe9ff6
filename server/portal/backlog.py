"""Backpressure on the link: what the portal holds for a game process that does not read.

A browser's lines cross the portal's link (telnet's never do: their sockets
are handed over). A game process that is paused (SIGSTOP, a machine
swapping) or slower than its browsers type reads nothing, and what the
portal writes to it piles up in the link's transport, in the portal's
memory, at the pace of every browser's byte budget together (issue 42:
52 -> 214 MB in a 30 s pause under a flood). So once the link holds
protocol.HOLD_BYTES or HOLD_MESSAGES unread (`GameProcess.full`), no more
input goes on it: each browser connection's lines wait in the portal, in its
own wait of clients.BUFFERED_LINES (the one a restart uses), and a line past
that is refused, its player told so in one line (BUSY), never silently. A
connection that opens meanwhile is given to the game process once the link
drains. Each tick of the portal's clock, a shard whose link has drained is
sent what waited, in the order typed, for as long as the link has room.

So the portal holds at most HOLD_BYTES on the link and BUFFERED_LINES lines
of at most `max_line` a connection, whatever its browsers send and however
long the game process does not read.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Protocol

from server.net.lines import TooLong
from server.net.session import Session
from server.portal.clients import Clients
from server.portal.game_process import GameProcess

BUSY = "The casino is busy; that line was not sent."


def busy(refused: int) -> str:
    """What a player reads when `refused` of their lines found no room."""
    return BUSY if refused == 1 else f"The casino is busy; {refused} lines were not sent."


class Serving(Protocol):
    """A shard as the backlog sees it (server.portal.shard_games.ShardGames)."""

    def serving(self) -> GameProcess | None: ...


class Backlog:
    """The shards with browser connections or lines held back while their game process
    serves but does not read; released, each tick, once its link has room."""

    def __init__(self, clients: Clients, shards: Callable[[], Mapping[str, Serving]]) -> None:
        self.clients = clients
        self.shards = shards
        self.held: set[str] = set()

    def holds(self, cid: int, game: GameProcess) -> bool:
        """Whether a line of `cid` must wait rather than go to `game` now: the link is
        full, or lines of it (or its `open`) already wait, and go first."""
        return cid not in self.clients.known or cid in self.clients.waiting or game.full()

    def park(self, cid: int, session: Session, lines: list[str | TooLong], shard: str | None) -> None:
        """`lines` wait for the game process of `shard` (None: none serves now; its next
        start takes them); what finds no room is refused, and the player told."""
        refused = self.clients.wait(cid, lines)
        if refused:
            session.relay(f"\r\n*** {busy(refused)} ***\r\n", prompt=True)
        if shard is not None:
            self.held.add(shard)

    def opening(self, shard: str) -> None:
        """A connection's `open` waits for the link of `shard` to drain."""
        self.held.add(shard)

    def advance(self, ticks: int) -> None:
        for name in list(self.held):
            game = self.shards()[name].serving()
            if game is None:                   # its next start hands over all of it
                self.held.discard(name)
            elif self._release(name, game):
                self.held.discard(name)

    def _release(self, shard: str, game: GameProcess) -> bool:
        """Send `game` what waited for it while its link has room; True once all has gone."""
        clients = self.clients
        for cid, session in clients.unknown(shard):
            if game.full():
                return False
            game.send(clients.opened(cid, session))
        for cid in [cid for cid in clients.waiting
                    if clients.shard.get(cid) == shard and cid not in clients.moving]:
            if game.full():
                return False
            lines = clients.waiting.pop(cid)
            if (typing := clients.sessions.get(cid)) is not None and lines:
                game.send(clients.lines_in(cid, typing, lines))
        return True

"""A portal beside others: each shard's game process, dialed rather than started.

With `server.portals` above one, the supervisor starts the game processes
(server/portal/supervisor.py) and each portal dials every shard's Unix socket
(server/portal/dialed.py). To the portal a dialed shard is what a started one
is (server/portal/shard_games.py): the same `hello` hands it this portal's
connections on that shard, the same messages come back. What differs is the
end of a game process: a restart or a crash is the supervisor's to mend, so
this portal keeps its connections ("One moment."), keeps what was typed, and
dials again until the next game process listens; a stop for good stops it too.
"""
from __future__ import annotations

import asyncio
import logging

from server.portal.game_process import GameProcess
from server.portal.last_good import Dirs
from server.portal.shard_games import PortalSide, ShardGames

log = logging.getLogger("casino.portal")

DIAL_AGAIN = 0.02     # seconds between dials while a shard's next game process starts


class DialedShard(ShardGames):
    """Shard `name`'s game process now, dialed on the Unix socket `path`."""

    def __init__(self, portal: PortalSide, name: str, path: str) -> None:
        super().__init__(portal, name, [])
        self.path = path
        self.released = False        # this portal ended a live link: the game process said the goodbye

    async def _spawn(self, dirs: Dirs | None) -> GameProcess:
        """Dial until a game process answers (OSError only once the portal is closing)."""
        while True:
            try:
                return await GameProcess.dial(self.path)
            except OSError:
                if self.portal.closing:
                    raise
            await asyncio.sleep(DIAL_AGAIN)

    def start_ahead(self) -> None:
        """The supervisor starts the next game process, not this portal."""

    async def start(self, why: str | None = None, dirs: Dirs | None = None) -> bool:
        """Dial and hand over this portal's connections on the shard, again until one
        serves them (False only when the portal closes first)."""
        while not self.portal.closing:
            try:
                if await super().start(why):
                    return True
            except OSError:
                return False
            await asyncio.sleep(DIAL_AGAIN)
        return False

    async def _ended(self, game: GameProcess, code: int) -> None:
        if self._for_good(game, code):
            return
        self._carry_over(game, code)
        why = "The casino restarted after a failure." if game.crashed else None
        await self.start(why)

    async def stop(self, why: str) -> None:
        """This portal stops: the link ends, and the game process ends this portal's
        connections with their last line (server.portal.game, release)."""
        game = self.serving()
        if game is None:
            return
        self.released = True
        game.end()

    def said_goodbye(self) -> bool:
        return self.released or super().said_goodbye()

"""The words that cross shards: one shard's side of the bus.

A shard answers on two kinds of subject (server/bus/words.py): its own,
`casino.shard.<name>`, and one for each player it hosts, `casino.player.<key>`,
made when the player arrives (a login, a walk in from another shard) and
dropped when they go. So a `tell` is one message to the shard that has the
player, found by the broker and not by a directory of ours that could be
stale: nobody listening there (NATS's "no responders") means nobody of that
name is connected. In the moment of a walk between shards a player has no
subject, and is told of as not connected; nothing is queued for them.

Why a player's subject and not a roster of every player on every shard: the
broker already knows who listens, a roster would be one more thing to keep
true through restarts of shards and of the broker, and a word then costs one
message whatever the number of shards. `who`, which wants everyone, asks each
shard for its own and merges the answers.

Subjects follow the players in order, by one task: an arrival and a departure
of the same key in quick succession end with what `online` says last.
"""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Awaitable, Callable, Protocol, cast

from server.accounts.names import name_key, name_problem
from server.bus.bus import Bus, BusUnavailable, Message, Served
from server.bus.words import Heard, Word, Words

if TYPE_CHECKING:
    from server.world.roster import Online

log = logging.getLogger("casino.bus")

PLAYER = "casino.player."
SHARD = "casino.shard."
REACHABLE_WAIT = 2.0       # seconds an arrival waits for its subject before it goes on without


class CrossingApp(Protocol):
    @property
    def online(self) -> Online: ...


class Crossing:
    """This shard's words on the bus at `url`: answered (`words`), and asked of others."""

    def __init__(self, app: CrossingApp, url: str, shard: str, shards: list[str], words: Words) -> None:
        self.app, self.shard, self.words = app, shard, words
        self.shards = shards                     # every shard's name, this one's among them
        self.bus = Bus(url, f"casino-{shard}")
        self._players: dict[str, Served] = {}    # the player subjects made here, by key
        self._changed: asyncio.Queue[str] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self._waiting: dict[str, list[asyncio.Future[None]]] = {}

    @property
    def others(self) -> list[str]:
        return [name for name in self.shards if name != self.shard]

    async def start(self) -> None:
        await self.bus.start()
        await self.bus.serve(SHARD + self.shard, self._shard_word)
        self.app.online.on_change = self._changed.put_nowait
        for key in self.app.online:
            self._changed.put_nowait(key)
        self._worker = asyncio.create_task(self._follow(), name="bus-players")

    async def close(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
        await self.bus.close()

    # --- answering -----------------------------------------------------------
    async def _shard_word(self, message: Message) -> Message | None:
        word = self.words.shard.get(str(message.get("w")))
        return None if word is None else await _heard(word)(Heard(self.app, message))

    async def _player_word(self, key: str, message: Message) -> Message | None:
        session = self.app.online.get(key)
        word = self.words.player.get(str(message.get("w")))
        if session is None or word is None:
            return None              # gone meanwhile: the shard that has them now answers
        return await _heard(word)(Heard(self.app, message, session))

    async def _follow(self) -> None:
        """Make and drop the player subjects as `online` changes, in order."""
        while True:
            key = await self._changed.get()
            here, served = key in self.app.online, self._players.get(key)
            try:
                if here and served is None:
                    async def word(message: Message, key: str = key) -> Message | None:
                        return await self._player_word(key, message)
                    self._players[key] = await self.bus.serve(PLAYER + key, word, confirm=False)
                elif not here and served is not None:
                    del self._players[key]
                    await served.stop()
            except Exception:  # noqa: BLE001 - one player's subject must not stop the others'
                log.exception("bus player subject failed key=%s", key)
            finally:
                self._changed.task_done()
                for waiter in self._waiting.pop(key, ()):
                    if not waiter.done():
                        waiter.set_result(None)

    async def reachable(self, key: str) -> None:
        """Until a player who just arrived has their subject (a login waits on it
        before it shows the room: whoever sees them there can `tell` them)."""
        if key in self._players or key not in self.app.online:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(key, []).append(waiter)
        try:
            await asyncio.wait_for(waiter, REACHABLE_WAIT)
        except asyncio.TimeoutError:
            log.warning("bus player subject slow key=%s", key)

    async def settled(self) -> None:
        """Until every arrival and departure so far has its subject made or dropped."""
        await self._changed.join()

    # --- asking ----------------------------------------------------------------
    async def to_player(self, key: str, word: str, fields: Message, timeout: float = 1.0) -> Message:
        """Ask whichever shard hosts `key` now; BusUnavailable("nobody answers ...")
        when nobody does (not connected anywhere)."""
        return await self.bus.ask(PLAYER + key, {"w": word, **fields}, timeout)

    async def ask_player(self, name: str, word: str, fields: Message,
                         timeout: float = 1.0) -> Message | BusUnavailable:
        """`to_player` by a name as typed: the answer, or why none (`nobody`: no such
        player connected anywhere, a name no account could have among them)."""
        if name_problem(name) is not None:
            return BusUnavailable("no such name", nobody=True)
        try:
            return await self.to_player(name_key(name), word, fields, timeout)
        except BusUnavailable as why:
            return why

    async def to_shard(self, shard: str, word: str, fields: Message, timeout: float = 1.0) -> Message:
        return await self.bus.ask(SHARD + shard, {"w": word, **fields}, timeout)

    async def to_others(self, word: str, fields: Message,
                        timeout: float = 1.0) -> dict[str, Message | BusUnavailable]:
        """Ask every other shard at once: each one's answer, or why it gave none."""
        async def one(shard: str) -> Message | BusUnavailable:
            try:
                return await self.to_shard(shard, word, fields, timeout)
            except BusUnavailable as why:
                return why
        others = self.others
        answers = await asyncio.gather(*(one(shard) for shard in others))
        return dict(zip(others, answers))


def _heard(word: Word) -> Callable[[Heard[CrossingApp]], Awaitable[Message | None]]:
    """A word as this shard calls it: the words keep alike (server.bus.words.Word),
    each takes its own part of the casino, and the app here is the whole casino
    (server.app.Casino), as a command's dispatch hands it (server.commands.dispatch)."""
    return cast(Callable[[Heard[CrossingApp]], Awaitable["Message | None"]], word)

"""The words that cross shards (`who`, `tell`, the operator's), on a NATS broker.

Why a broker and not sockets between shards: every shard reaches every other
through one address the operator runs (NATS, Debian's `nats-server`), a shard
that starts or restarts needs no list of the others, and request/reply with a
timeout is the broker's own. What travels here is at most once: a word lost
in a broker's restart is told to its sender as one line ("the bus is down"),
never retried behind the player's back. No chip travels on the bus; money is
PostgreSQL's alone (docs/ledger.md, "Shards").

The broker may be down when a shard starts or at any time after: `start`
never waits for it and never fails (a task keeps trying to connect), every
word asked while it is away gets `BusUnavailable` at once, and the
subscriptions a shard made come back with the connection (nats-py makes
them again on a reconnect; those made before the first connect are made at
it). Tables never wait on the bus.

Messages are JSON objects, compact, one per NATS message.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable

import nats
import nats.errors
from nats.aio.client import Client
from nats.aio.msg import Msg
from nats.aio.subscription import Subscription

log = logging.getLogger("casino.bus")

Message = dict[str, object]                       # a word's JSON object (its fields are the word's)
Handler = Callable[[Message], Awaitable["Message | None"]]   # an answer, or None for none

ANSWER_TIMEOUT = 1.0        # seconds a word waits for its answer before it is told so
RETRY = 0.5                 # seconds between tries to reach a broker that is away
FLUSH_TIMEOUT = 2           # seconds a new subscription waits for the broker to confirm it


class BusUnavailable(Exception):
    """A word that could not cross: the one line the player is told. `nobody`: the
    broker was reached and nobody listens there (for a player's subject: that
    player is connected nowhere)."""

    def __init__(self, reason: str, nobody: bool = False) -> None:
        super().__init__(reason)
        self.nobody = nobody


class Bus:
    """One shard's (or portal's) connection to the broker at `url`, named `name` for
    the broker's own monitoring."""

    def __init__(self, url: str, name: str) -> None:
        self.url = url
        self.name = name
        self.nc: Client | None = None
        self._served: list[Served] = []
        self._connecting: asyncio.Task[None] | None = None
        self.up = asyncio.Event()              # set while connected, and `down` while not
        self.down = asyncio.Event()            # (once it was): what tests and a status wait on

    async def start(self) -> None:
        """Begin connecting; returns at once, whether or not the broker is there."""
        self._connecting = asyncio.create_task(self._connect(), name=f"bus-connect-{self.name}")

    async def _connect(self) -> None:
        while True:
            try:
                nc = await nats.connect(
                    servers=[self.url], name=self.name, connect_timeout=2, allow_reconnect=True,
                    max_reconnect_attempts=-1, reconnect_time_wait=RETRY, pending_size=0,
                    error_cb=self._error, disconnected_cb=self._down, reconnected_cb=self._back)
                break
            except (nats.errors.NoServersError, OSError, asyncio.TimeoutError) as exc:
                log.debug("bus not reached url=%s error=%r", self.url, exc)
                await asyncio.sleep(RETRY)
        self.nc = nc
        for served in list(self._served):
            await self._subscribe(served)
        log.info("bus connected url=%s name=%s", self.url, self.name)
        self.up.set()

    async def _error(self, exc: Exception) -> None:
        log.debug("bus error %r", exc)

    async def _down(self) -> None:
        self.up.clear()
        self.down.set()
        log.warning("bus disconnected url=%s", self.url)

    async def _back(self) -> None:
        self.down.clear()
        self.up.set()
        log.info("bus reconnected url=%s", self.url)

    def _client(self) -> Client:
        nc = self.nc
        if nc is None or not nc.is_connected:
            raise BusUnavailable("the casino's message bus is down; try again in a moment")
        return nc

    async def publish(self, subject: str, message: Message) -> None:
        """Send a word to whoever listens on `subject` (nobody is fine)."""
        try:
            await self._client().publish(subject, _encode(message))
        except (nats.errors.ConnectionClosedError, nats.errors.ConnectionReconnectingError,
                nats.errors.OutboundBufferLimitError):
            raise BusUnavailable("the casino's message bus is down; try again in a moment") from None

    async def ask(self, subject: str, message: Message, timeout: float = ANSWER_TIMEOUT) -> Message:
        """A word that wants its answer: the answer, or BusUnavailable saying why not."""
        try:
            reply = await self._client().request(subject, _encode(message), timeout=timeout)
        except nats.errors.NoRespondersError:
            raise BusUnavailable("nobody answers there right now", nobody=True) from None
        except nats.errors.TimeoutError:
            raise BusUnavailable(f"no answer within {timeout:g} s") from None
        except (nats.errors.ConnectionClosedError, nats.errors.ConnectionReconnectingError,
                nats.errors.OutboundBufferLimitError):
            raise BusUnavailable("the casino's message bus is down; try again in a moment") from None
        return _decode(reply.data)

    async def serve(self, subject: str, handler: Handler, confirm: bool = True) -> Served:
        """Answer the words sent to `subject` with `handler` (now, and after every
        reconnect) until the returned `Served` is stopped. `confirm`: return once the
        broker has the subscription (a round trip); else once it is sent, which is
        enough when whoever will send to it must first hear of it by another way
        (a player's subject is sent before their room is shown: the broker reads
        one connection in order, and the player's room takes longer to reach anyone)."""
        served = Served(self, subject, handler, confirm)
        self._served.append(served)
        if self.nc is not None:
            await self._subscribe(served)
        return served

    async def _subscribe(self, served: Served) -> None:
        assert self.nc is not None
        handler, subject = served.handler, served.subject

        async def on_message(msg: Msg) -> None:
            try:
                answer = await handler(_decode(msg.data))
            except Exception:  # noqa: BLE001 - one bad word must not end the subscription
                log.exception("bus handler failed subject=%s", subject)
                return
            if answer is not None and msg.reply:
                try:
                    await msg.respond(_encode(answer))
                except nats.errors.Error as exc:
                    log.debug("bus answer lost subject=%s error=%r", subject, exc)

        try:
            served.sub = await self.nc.subscribe(subject, cb=on_message)
        except nats.errors.Error as exc:      # closed: nothing more is served
            log.debug("bus subscription not made subject=%s error=%r", subject, exc)
            return
        if served not in self._served:        # stopped while it was being made
            await self._unsubscribe(served)
            return
        if not self.nc.is_connected or not served.confirm:
            return               # sent (or sent with the reconnect: nats-py makes every subscription again)
        try:                     # the broker has it when this returns: a word sent next finds it
            await self.nc.flush(timeout=FLUSH_TIMEOUT)
        except (nats.errors.Error, asyncio.TimeoutError) as exc:
            log.debug("bus subscription not confirmed subject=%s error=%r", subject, exc)

    async def _unsubscribe(self, served: Served) -> None:
        if served in self._served:
            self._served.remove(served)
        sub, served.sub = served.sub, None
        if sub is not None:
            try:
                await sub.unsubscribe()
            except nats.errors.Error as exc:
                log.debug("bus unsubscribe lost subject=%s error=%r", served.subject, exc)

    async def close(self) -> None:
        if self._connecting is not None and not self._connecting.done():
            self._connecting.cancel()
        if self.nc is not None and not self.nc.is_closed:
            try:
                await self.nc.close()
            except (nats.errors.Error, OSError, asyncio.TimeoutError) as exc:
                log.debug("bus closed with the broker away url=%s error=%r", self.url, exc)   # nothing to flush to
        self.up.clear()


class Served:
    """A subject this bus answers, until `stop`: a player's own subject lives as long
    as the player is on this shard."""

    def __init__(self, bus: Bus, subject: str, handler: Handler, confirm: bool = True) -> None:
        self.bus, self.subject, self.handler, self.confirm = bus, subject, handler, confirm
        self.sub: Subscription | None = None

    async def stop(self) -> None:
        await self.bus._unsubscribe(self)


def _encode(message: Message) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode()


def _decode(data: bytes) -> Message:
    try:
        value = json.loads(data)
    except (ValueError, UnicodeDecodeError):
        return {}
    return value if isinstance(value, dict) else {}

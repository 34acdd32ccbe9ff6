"""Every connection the casino serves, from admission to departure."""
from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Iterator, Protocol

import time

from server import logs
from server.metrics import COUNTS
from server.commands import login
from server.commands.dispatch import Commands, dispatch
from server.net.lines import TooLong
from server.net.session import Session, logged_in
from server.net.throttle import TokenBucket
from server.render.text import clean
from server.world.crier import Crier

from server.casino.deadlines import SessionClock

if TYPE_CHECKING:
    from server.casino.tables import Tables

log = logging.getLogger("casino")


class Departure:
    """An account's live session is leaving (its tables are applying the
    disconnect); logins of that account wait for `done`."""

    def __init__(self) -> None:
        self.done = asyncio.Event()
        self.waiting = 0


class SessionsApp(login.LoginApp, Commands, Protocol):
    """What the sessions use of the casino (server.app.Casino): the app that
    logging in and every command are handed, whether it is closing and why,
    and the crier that tells a room."""

    @property
    def closing(self) -> bool: ...
    @property
    def stop_reason(self) -> str: ...
    @property
    def crier(self) -> Crier: ...


class Sessions:
    """The sessions the casino serves (iterating gives each one), and their
    life: admission (deadlines and a command rate), input (within the rate,
    one line at a time), and departure (out of the room, then every table's
    rule for a dropped player, then out of the online map).

    A login of an account whose last session is still leaving waits for it
    (`leaving`), so an account never has two live sessions and no ghost
    stays behind; `presence` is notified whenever someone logs in or out."""

    def __init__(self, app: SessionsApp, tables: Tables) -> None:
        self.app = app
        self.tables = tables
        self._live: set[Session] = set()
        self.leaving: dict[str, Departure] = {}   # accounts whose last session is being closed
        self.in_flight = 0                   # lines being handled right now
        self.presence = asyncio.Condition()  # notified when someone logs in or out
        self.clock = SessionClock(app.manager, self._live)

    def __iter__(self) -> Iterator[Session]:
        return iter(self._live)

    def __len__(self) -> int:
        return len(self._live)

    # --- admission ---------------------------------------------------------
    def admit(self, session: Session) -> bool:
        """A session joins the casino (its deadlines, its command rate); False, and it is
        told why and closed, while the casino is stopping."""
        if self.app.closing:
            session.close(f"*** {self.app.stop_reason} ***")
            return False
        self._live.add(session)
        self.clock.start(session)
        session.bucket = TokenBucket(self.app.config.settings.limits.commands_per_second,
                                     asyncio.get_running_loop().time())
        return True

    async def on_connect(self, session: Session, *, again: bool = False) -> None:
        """A new connection: greeted with the banner. `again`: one the portal kept
        through a restart while it was logging in (its half-done login is gone)."""
        if not self.admit(session):
            return
        logs.event(log, "connect", ip=session.ip)
        if again:
            session.prompt_text = "Name: "
            session.tell("Please log in again.")
        else:
            login.greet(self.app, session)

    async def resume(self, session: Session, name: str, room: str | None, why: str | None,
                     via: str | None = None) -> None:
        """A connection the portal kept through a restart of this process: logged in
        again, in the room it was in, with what recovery has to tell (its refunds).
        `via`: one that walked in from another shard that way (server/casino/handoff.py)."""
        if not self.admit(session):
            return
        try:
            account = await self.app.accounts.get(name)
        except self.app.accounts.unavailable as err:   # a handoff or restart while the database is away
            logs.event(log, "resume_failed", name=name, ip=session.ip, error=type(err).__name__)
            session.close(f"*** {login.NO_DATABASE} ***")
            return
        if account is None:                   # gone from the database meanwhile: log in anew
            login.greet(self.app, session)
            return
        with session.reply():
            await login.enter(self.app, session, account, room=room, via=via,
                              again=f"{why + ' ' if why else ''}You are logged in again.")

    # --- input -------------------------------------------------------------
    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None:
        """Lines read from one client: those within its command rate are
        handled in order; the rest are dropped, with one notice until the
        client has kept to the rate for a second."""
        self.clock.heard(session)
        if not lines or session.closed:
            return
        bucket = session.bucket
        assert bucket is not None, "given at admission, before any input"
        if session.flood_noticed and bucket.full(now):
            session.flood_noticed = False
        taken = bucket.take_many(len(lines), now)
        notice = None
        if taken < len(lines):
            COUNTS.refusals["commands_per_second"] += len(lines) - taken
        if taken < len(lines) and not session.flood_noticed:
            session.flood_noticed = True
            logs.event(log, "input_dropped", ip=session.ip, name=session.key or "-",
                       lines=len(lines) - taken)
            notice = (f"Slow down: at most {bucket.rate} commands a second. "
                      "Lines beyond that are ignored until you slow down.")
            if not taken:
                with session.reply():
                    session.tell(notice)
        # a line in (when the loop learned it had come): casino_reply_seconds runs to its prompt out
        heard_at, session.arrived = session.arrived or time.perf_counter(), 0.0
        for i, line in enumerate(lines[:taken]):
            if session.closed or self.app.closing:
                return
            await self.on_line(session, line, now, notice)
            if not session.closed and session.moving is None:
                COUNTS.reply.observe(time.perf_counter() - heard_at)
            notice = None
            if session.moving is not None:     # walked into another shard: the rest is for it
                session.moving.rest.extend(lines[i + 1:taken])
                return

    async def on_line(self, session: Session, line: str | TooLong, now: float,
                      notice: str | None = None) -> None:
        session.heard()
        self.in_flight += 1
        try:
            with session.reply():
                if notice:
                    session.tell(notice)
                if session.more(line):       # Enter or q at the more prompt of a paged reply
                    return
                await self._handle_line(session, line, now)
        finally:
            self.in_flight -= 1

    async def _handle_line(self, session: Session, line: str | TooLong, now: float) -> None:
        if isinstance(line, TooLong):
            COUNTS.refusals["max_line"] += 1
            limit = self.app.config.settings.limits.max_line
            session.tell(f"That line was too long (over {limit} characters) and was ignored.")
            return
        try:
            if not logged_in(session):
                COUNTS.commands["(login)", "ok"] += 1
                await login.handle(self.app, session, line, now)
            else:
                line = clean(line).strip()
                question, session.question = session.question, None
                if question is not None:          # a table asked (a seed): the line may answer it
                    session.prompt_text = "> "
                    if await question(line):
                        return
                await dispatch(self.app, session, line)
        except Exception as err:
            # once per connection per kind (logs.once): a line that breaks
            # something, repeated, never writes a traceback per message
            logs.once(session.complaints, log, "line_error", type(err).__name__, traceback=True,
                      name=session.key or "-", ip=session.ip)
            session.tell("Something went wrong on our side; please try again.")

    # --- departure ---------------------------------------------------------
    def forget(self, session: Session) -> None:
        """Out of the sessions served here and their deadlines: at a disconnect, and
        alone (no departure) when it walked into another shard (server/casino/handoff.py)."""
        self._live.discard(session)
        self.clock.forget(session)

    async def on_disconnect(self, session: Session) -> None:
        """A connection ended. If it was its account's live session, the player
        leaves: out of the room at once, then every table applies its rule for
        a dropped player, then out of the online map. A login of the same
        account meanwhile waits for this to finish (login.enter)."""
        self.forget(session)
        if not logged_in(session):
            return
        key, online = session.key, self.app.online
        if online.get(key) is not session:
            return                          # taken over: the newer session keeps the seat
        departure = self.leaving[key] = Departure()
        try:
            self.app.world.remove(session)
            if session.room:
                self.announce(session.room, f"{session.name} leaves the casino.")
            await self.tables.gone(session)
        finally:
            if online.get(key) is session:
                del online[key]
            del self.leaving[key]
            departure.done.set()
        logs.event(log, "logout", name=key, ip=session.ip)
        async with self.presence:
            self.presence.notify_all()

    async def say_goodbye(self, reason: str, restarting: bool, wait: float) -> None:
        """The casino stops: commands already running finish (up to `wait`
        seconds), then everyone is told why; a restart keeps each connection
        in the portal, a stop closes it. The goodbyes get two seconds to
        reach the clients."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while self.in_flight and loop.time() < deadline:
            await asyncio.sleep(0.01)
        sessions = list(self._live)
        for session in sessions:
            if restarting:
                session.hear(f"*** {reason} One moment. ***")
            else:
                session.close(f"*** {reason} Goodbye. ***", why="shutdown")
        deadline = loop.time() + 2.0
        while any(s.unsent() for s in sessions) and loop.time() < deadline:
            await asyncio.sleep(0.01)

    # --- rooms ---------------------------------------------------------------
    def announce(self, room: str, text: str, exclude: Session | None = None) -> None:
        """An arrival or a departure: told to the room unless it is crowded,
        where one person coming or going is no news to thousands."""
        if not self.app.world.crowded(room):
            self.broadcast_room(room, text, exclude)

    def broadcast_room(self, room: str, text: str, exclude: Session | None = None) -> None:
        world = self.app.world
        self.app.crier.cry(room, text, [other for other in world.occupants(room) if other is not exclude])

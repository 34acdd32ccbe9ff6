"""The casino process: config, ledger, accounts, world, sessions and the clock.

This is the composition root. It owns no rules: commands live in
server.commands, games in server.games; here they are wired together and the
edges (telnet, SQLite) are opened and closed in order.
"""
from __future__ import annotations

from collections import Counter

import asyncio
import functools
import logging
import secrets
import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol

from server import logs
from server.accounts.passwords import Passwords
from server.accounts.store import SERVER, AccountStore
from server.db.url import Database
from server.net.host import addresses
from server.commands import login
from server.commands.dispatch import dispatch
from server.commands.registry import Registry
from server.config.model import CasinoConfig
from server.heap import Heap
from server.net.lines import TooLong
from server.net.session import Session, logged_in
from server.net.throttle import ConnectionCounter, CreationLimit, LoginThrottle, TokenBucket
from server.render.text import clean, sentence
from server.tables.delivery import Viewing
from server.tables.manager import Manager
from server.accounts.table_time import TableTimeStore
from server.world.crier import Crier
from server.world.rooms import World
from server.world.roster import Memo, Online

if TYPE_CHECKING:
    from server.ledger import Ledger
    from server.tables.host import TableHost

log = logging.getLogger("casino")

COMMANDS_FINISH_WAIT = 10.0      # seconds a clean stop waits for commands already running
RESTARTING = "The casino is restarting."   # what every player reads at a restart, whatever the reason


class PortalLink(Protocol):
    """The game process's link to its portal (server.portal.game.GameLink), as the casino uses it."""

    def send(self, message: dict[str, Any]) -> None: ...


class SessionClock:
    """Login deadlines (from connecting: input does not extend them) and idle
    timeouts (from the last input), counted in manager ticks.

    Each session waits in the bucket of the tick its deadline falls on, and
    moves only when its bucket comes due and input has pushed its deadline
    later, so a tick costs the sessions due in it rather than a step for
    everyone online (the scan of 5,000 sessions, ten times a second, was 4% of
    a full house's server), and input costs a store of the tick."""

    def __init__(self, app: "Casino") -> None:
        self.app = app
        self._due: dict[int, set[Session]] = {}
        self.configure()

    def configure(self) -> None:
        limits = self.app.config.settings.limits
        self.login_ticks = self.app.manager.seconds(limits.login_timeout)
        self.idle_ticks = self.app.manager.seconds(limits.idle_timeout)
        for session in self.app.sessions:      # a reload's new limits apply to everyone now
            self.place(session)

    def start(self, session: Session) -> None:
        session.connected_tick = session.input_tick = self.app.manager.ticks
        self.place(session)

    def heard(self, session: Session) -> None:
        """Input from the session: its idle timeout starts again. It stays in
        the bucket it is in, which falls earlier: found there, it moves to its
        new deadline then (advance), once an idle timeout rather than once a line."""
        session.input_tick = self.app.manager.ticks

    def _deadline(self, session: Session) -> int:
        if session.account is None:
            return session.connected_tick + self.login_ticks
        return session.input_tick + self.idle_ticks

    def place(self, session: Session) -> None:
        """Put the session in the bucket of its deadline (after a login, say)."""
        due = self._deadline(session)
        if due == session.due_tick:
            return
        self.forget(session)
        session.due_tick = due
        self._due.setdefault(due, set()).add(session)

    def forget(self, session: Session) -> None:
        if session.due_tick is None:
            return                          # in no bucket
        bucket = self._due.get(session.due_tick)
        if bucket is not None:
            bucket.discard(session)
            if not bucket:
                del self._due[session.due_tick]
        session.due_tick = None

    def advance(self, ticks: int) -> None:
        now = self.app.manager.ticks
        if ticks <= len(self._due):
            due = [t for t in range(now - ticks + 1, now + 1) if t in self._due]
        else:
            due = sorted(t for t in self._due if t <= now)
        for tick in due:
            for session in self._due.pop(tick):
                session.due_tick = None
                if session.closed:
                    continue
                try:
                    self._expire(session, now)
                except Exception:
                    # never one session's trouble stops the others' deadlines
                    log.exception("event=deadline_error ip=%s", session.ip)
                    session.abort()

    def _expire(self, session: Session, now: int) -> None:
        if self._deadline(session) > now:
            self.place(session)
        elif session.account is None:
            session.close("You took too long to log in. Goodbye.")
        else:
            session.close("You have been idle too long. Goodbye.")


class Departure:
    """An account's live session is leaving (its tables are applying the
    disconnect); logins of that account wait for `done`."""

    def __init__(self) -> None:
        self.done = asyncio.Event()
        self.waiting = 0


class ShutdownCountdown:
    """An operator's `shutdown N`: announcements on the way down, then stop."""

    ANNOUNCE_AT = (600, 300, 120, 60, 30, 10, 5, 4, 3, 2, 1)

    def __init__(self, app: "Casino", seconds: int, reason: str) -> None:
        self.app, self.reason = app, sentence(reason)
        self.left = app.manager.seconds(seconds)
        self._announce(seconds)

    def _announce(self, seconds: int) -> None:
        for session in list(self.app.online.values()):
            session.tell(f"*** The casino closes in {seconds} second{'s' if seconds != 1 else ''}: {self.reason} ***")

    def advance(self, ticks: int) -> None:
        before = self.left
        self.left = max(0, self.left - ticks)
        hz = self.app.manager.tick_hz
        crossed = [m for m in self.ANNOUNCE_AT if self.left <= m * hz < before]
        if crossed and self.left > 0:
            self._announce(-(-self.left // hz))
        if self.left == 0:
            self.app.manager.unsubscribe(self)
            self.app.request_stop(self.reason)


class CannotListen(Exception):
    """A port the casino cannot listen on, said in one line for `casino serve`:
    "port 4000 is in use: another program listens on 127.0.0.1:4000 ..."."""

    def __init__(self, host: str, port: int, option: str, error: OSError) -> None:
        import errno
        self.port = port
        web = option == "--web-port"
        what = "the browser page's port" if web else "the telnet port"
        choose = f"choose another with {option} (make run: {'WEB_PORT' if web else 'PORT'}=)"
        if error.errno == errno.EADDRINUSE:
            line = (f"port {port} is in use: another program (a casino already running?) "
                    f"listens on {host}:{port}, {what}; {choose}")
        else:
            reason = error.strerror or str(error)
            line = f"cannot listen on {host}:{port}, {what}: {reason}; {choose}"
        super().__init__(line)


class Casino:
    def __init__(self, config: CasinoConfig, database: str | Path | Database, *, seed: int | None = None,
                 config_dir: str | Path = "config", rooms_dir: str | Path = "rooms",
                 registry: Registry | None = None) -> None:
        from server.commands import REGISTRY   # imports every command module
        self.config = config
        # where chips and accounts live: an SQLite file or a PostgreSQL database
        self.database = database if isinstance(database, Database) else Database.parse(database)
        self.seed = seed
        self.config_dir = Path(config_dir)
        self.rooms_dir = Path(rooms_dir)
        self.registry = registry or REGISTRY
        self.manager = Manager(config.settings.tick_hz)
        self.world = World(config.rooms)
        self.crier = Crier()            # room-wide lines, a slice at a time
        self.world.on_enter = self.room_info
        self.sessions: set[Session] = set()
        self.online = Online()               # key -> live session, with a name-ordered roster
        self.who_pages = Memo()              # `who`'s pages, while nobody comes, goes or moves
        self.leaving: dict[str, Departure] = {}   # accounts whose last session is being closed
        self.in_flight = 0                   # lines being handled right now
        limits = config.settings.limits
        self.connections = ConnectionCounter(limits.connections_per_ip, limits.max_connections,
                                             limits.max_login_connections, limits.login_connections_per_ip)
        self.login_failures = LoginThrottle(limits.failed_logins_per_minute, limits.login_delay_max)
        self.creations = CreationLimit(limits.accounts_per_ip_per_hour)
        self.passwords = Passwords.of(config.settings)     # what logins and sign-ups hash with
        self.operators = {name.lower() for name in config.settings.operators}
        self._ledger: Ledger | None = None          # opened by start()
        self._accounts: AccountStore | None = None  # opened by start()
        self._table_time: TableTimeStore | None = None   # opened by start()
        self._telnet: Any = None
        self._web: Any = None                # server.net.web.WebServer when serving the page
        self.host = config.settings.host     # where start() listens
        self._clock_task: asyncio.Task[None] | None = None
        self.stopped = asyncio.Event()
        self.closing = False
        self.stop_requested = asyncio.Event()
        self.stop_reason = "The casino is closing."
        self.grants = 0                      # operator grants this run (their ledger keys)
        # A `relief` claim in progress per player (server.commands.relief): held
        # only while a claim runs, so the map holds nobody who is not claiming.
        self.relief_claims: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        # Wall time in epoch seconds, for waits counted in hours (relief) that
        # outlive a run; tests replace it to move a day on without sleeping.
        self.wall_clock: Callable[[], float] = time.time
        # Prefixes every table's ledger keys: keys never repeat across restarts.
        self.run_id = f"{int(time.time()):x}{secrets.token_hex(3)}"
        self.started_at = time.time()        # MSSP's UPTIME
        self.tables: dict[str, TableHost] = {}     # table id -> its host
        self.hosts_opened: Counter[str] = Counter()   # hosts opened per table id this run (their keys differ)
        self.presence = asyncio.Condition()  # notified when someone logs in or out
        self.closed_rooms: set[str] = set()  # closed by an operator until the next reload
        self.session_clock = SessionClock(self)
        self.manager.subscribe(self.session_clock)
        self.portal: PortalLink | None = None   # set when a portal holds the connections (server/portal)
        self.restarting = False              # stopping to be replaced: the portal keeps every connection

    # --- lifecycle ------------------------------------------------------
    async def start(self, host: str = "127.0.0.1", port: int = 0, *, web_port: int | None = None,
                    run_clock: bool = True, listen: bool = True) -> None:
        """Listen for telnet on host:port and, when `web_port` is given, serve
        the browser page on host:web_port (0 for either: any free port).
        `listen=False`: no listener at all, the connections come from a portal
        (server/portal/game.py sets `portal` first)."""
        from server.ledger import Ledger
        from server.net.telnet import start_telnet
        if self.database.path is not None:
            self.database.path.parent.mkdir(parents=True, exist_ok=True)
        self._ledger = await Ledger.open(self.database)
        for item in getattr(self._ledger, "recovered", []) or []:
            logs.event(log, "recovery", detail=item)
        self._accounts = AccountStore(self.database, self.operators)
        self._table_time = TableTimeStore(self.database)
        await self.refuse_squatted_operators(self.operators)
        self.open_tables()
        if listen:
            if web_port is not None:         # first: once telnet answers, so does the page
                from server.net.web import start_web
                await self._listen(start_web, host, web_port, "--web-port")
            await self._listen(start_telnet, host, port, "--port")
            self.host = host
        if run_clock:
            # The real server (tests drive the clock themselves and keep their
            # heap as it is): full collections kept off the replies (server.heap).
            heap = Heap(self.manager.tick_hz, lambda: len(self.online))
            heap.refreeze()
            self.manager.subscribe(heap)
            self._clock_task = asyncio.create_task(self.manager.run())
        if listen:
            logs.event(log, "listening", host=host, port=self.port, web_port=self.web_port or "off",
                       seed=self.seed if self.seed is not None else "none")
        else:
            logs.event(log, "game_ready", seed=self.seed if self.seed is not None else "none")

    async def _listen(self, opener: Any, host: str, port: int, option: str) -> None:
        """Open one listener (telnet or the browser page); a port that cannot
        be had closes what start() opened and raises CannotListen, one line."""
        try:
            server = await opener(self, host, port)
        except OSError as e:
            await self.stop("The casino could not start.")
            raise CannotListen(host, port, option, e) from e
        if option == "--web-port":
            self._web = server
        else:
            self._telnet = server

    @property
    def clock(self) -> Manager:
        """The one clock, as the network edges see it (their deadlines count its ticks)."""
        return self.manager

    @property
    def ledger(self) -> Ledger:
        """The chip ledger (open from start() on)."""
        if self._ledger is None:
            raise RuntimeError("the casino has not started: no ledger is open")
        return self._ledger

    @property
    def table_time(self) -> TableTimeStore:
        """Time at the tables, beside the ledger (open from start() on)."""
        if self._table_time is None:
            raise RuntimeError("the casino has not started: no table-time store is open")
        return self._table_time

    @property
    def accounts(self) -> AccountStore:
        """The account store (open from start() on)."""
        if self._accounts is None:
            raise RuntimeError("the casino has not started: no account store is open")
        return self._accounts

    @property
    def web_port(self) -> int:
        """The browser page's port (0 when not served)."""
        return self._web.port if self._web else 0

    @property
    def addresses(self) -> str:
        """Where players connect, for the operator: telnet and (when served) web."""
        return addresses(self.host, self.port, self.web_port)

    @property
    def port(self) -> int:
        sockets = self._telnet.sockets if self._telnet else None
        return sockets[0].getsockname()[1] if sockets else 0

    def open_tables(self) -> list[str]:
        """Open a host for every configured table that has none; returns their ids."""
        from server.tables.host import TableHost
        opened = []
        for table_id, table in self.config.tables.items():
            if table_id in self.tables:
                continue
            host = TableHost(self, table, generation=self.hosts_opened[table_id])
            self.hosts_opened[table_id] += 1
            self.tables[table_id] = host
            self.manager.subscribe(host)
            opened.append(table_id)
            logs.event(log, "table_opened", table=table_id, game=table.game)
        for room in self.config.rooms.values():     # a second table of one game in a room: its id
            words: set[str] = set()
            for here in (self.tables[t] for t in room.tables if t in self.tables):
                here.core.call(here.entry.word if here.entry.word not in words else here.id)
                words.add(here.entry.word)
        return opened

    async def status(self, session: Viewing) -> dict[str, Any]:
        """A player's chips as data (GMCP Char.Status): wallet and what each table holds."""
        bal = await self.ledger.balance(session.key)
        return {"name": session.name, "wallet": bal.wallet, "held": sum(bal.held.values()),
                "held_at": dict(bal.held)}

    def room_info(self, session: Session, room_id: str) -> None:
        """GMCP Room.Info on arrival: the room as data, its tables by game."""
        from server.games.catalogue import entry_for
        from server.net import mud
        room = self.world.rooms.get(room_id)
        if room is None or mud.gmcp_of(session) is None:
            return
        tables = [{"id": t, "game": entry_for(self.config.tables[t]).key,
                   "word": entry_for(self.config.tables[t]).word}
                  for t in room.tables if t in self.config.tables]
        mud.send(session, "Room.Info", {"id": room.id, "name": room.name,
                                        "exits": dict(room.exits), "tables": tables})

    def seat_of(self, key: str) -> TableHost | None:
        """The table host where this player (by key) sits, or None: the hosts
        are the one answer to who sits where."""
        for host in self.tables.values():
            if host.sits(key):
                return host
        return None

    def forget_table(self, host: TableHost) -> None:
        """A closed table leaves the casino (its own worker stops after this job)."""
        if self.tables.get(host.id) is host:
            del self.tables[host.id]
        self.manager.unsubscribe(host)
        logs.event(log, "table_closed", table=host.id)
        asyncio.get_running_loop().call_soon(host.stop)

    def apply_settings(self) -> None:
        """Settings that take effect without a restart (after `reload`)."""
        settings = self.config.settings
        self.operators = {name.lower() for name in settings.operators}
        limits = settings.limits
        self.connections.limit = limits.connections_per_ip
        self.connections.total_limit = limits.max_connections
        self.connections.anonymous_limit = limits.max_login_connections
        self.connections.anonymous_per_ip = limits.login_connections_per_ip
        self.login_failures.free = limits.failed_logins_per_minute
        self.login_failures.max_wait = limits.login_delay_max
        self.creations.limit = limits.accounts_per_ip_per_hour
        self.passwords.configure(settings)
        self.session_clock.configure()

    async def reload(self) -> tuple[bool, list[str]]:
        from server.reload import reload
        applied, lines = await reload(self)
        if applied and self.portal is not None:     # its caps and limits are the portal's to apply
            self.portal.send({"t": "reloaded"})
        return applied, lines

    async def close_room(self, room_id: str, reason: str) -> list[str]:
        """Refund every stake at the room's tables, send everyone out, keep it
        closed until the next reload."""
        room = self.world.rooms[room_id]
        done = []
        for table_id in room.tables:
            host = self.tables.get(table_id)
            if host is not None:
                await host.close(reason)
                self.forget_table(host)
                done.append(table_id)
        self.closed_rooms.add(room_id)
        start = self.config.settings.start_room
        for session in self.world.occupants(room_id):
            session.tell(f"{reason} You are shown out.")
            self.world.place(session, start if start != room_id else next(iter(self.world.rooms)))
        return done

    def request_stop(self, reason: str) -> None:
        """Ask the serving loop to stop (signals, an operator's shutdown)."""
        self.stop_reason = sentence(reason)
        self.stop_requested.set()

    def request_restart(self, reason: str = "") -> str | None:
        """Stop to be replaced by a new game process with the code now on disk; every
        connection stays open in the portal. Returns why not, when there is no portal."""
        if self.portal is None:
            return ("This casino runs in one process (casino serve --one-process): a restart "
                    "would disconnect everyone. Use shutdown, or serve it with a portal.")
        if not self.closing:
            self.restarting = True
            # every player reads that the casino is restarting, whatever reason was given
            said = sentence(reason)
            self.request_stop(said if said.startswith(RESTARTING) else f"{RESTARTING} {said}".strip())
        return None

    def schedule_shutdown(self, seconds: int, reason: str) -> None:
        if seconds <= 0:
            self.request_stop(reason)
        else:
            self.manager.subscribe(ShutdownCountdown(self, seconds, reason))

    async def stop(self, reason: str = "The casino is closing.") -> None:
        """Stop accepting, tell everyone, settle tables, close cleanly.

        telnetlib3's Server.close() also closes every client transport, so the
        goodbyes are written and drained first and the listener closed last;
        `closing` turns away anyone who connects in between.
        """
        if self.closing:
            return
        self.closing = True                  # no more input is handled from here on
        reason = sentence(reason)
        logs.event(log, "shutdown", reason=reason)
        if self._clock_task:
            self._clock_task.cancel()
        # Every table stops taking inputs at once; each then runs what was
        # already queued and last its closing job, which refunds every stake.
        closing = [(host, host.begin_close(f"{reason} Every live stake at this table is refunded."))
                   for host in list(self.tables.values())]
        for host, job in closing:
            try:
                await job
            except Exception:
                log.exception("event=table_close_error table=%s", host.id)
            logs.event(log, "table_closed", table=host.id)
        # Commands already running finish (a wager among them now finds its
        # table closed) before the ledger they may still read is closed.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + COMMANDS_FINISH_WAIT
        while self.in_flight and loop.time() < deadline:
            await asyncio.sleep(0.01)
        sessions = list(self.sessions)
        for session in sessions:
            if self.restarting:              # the portal keeps the connection for the next process
                session.hear(f"*** {reason} One moment. ***")
            else:
                session.close(f"*** {reason} Goodbye. ***")
        # Give the goodbyes up to two seconds to reach the clients.
        deadline = loop.time() + 2.0
        while any(s.unsent() for s in sessions) and loop.time() < deadline:
            await asyncio.sleep(0.01)
        if self._telnet:
            self._telnet.close()
        if self._web:
            await self._web.close()
        if self._ledger:
            await self._ledger.close()
        if self._accounts:
            self._accounts.close()
        if self._table_time:
            self._table_time.close()
        self.passwords.close()
        self.stopped.set()

    # --- sessions -------------------------------------------------------
    def is_operator(self, session: Session | Viewing) -> bool:
        """Named under `operators:` and made on the server (`casino account
        create`): a player who registered the name first never gains the rights."""
        if session.key is None or session.key not in self.operators:
            return False
        account = getattr(session, "account", None)
        return account is not None and account.origin == SERVER

    async def refuse_squatted_operators(self, names: Iterable[str]) -> list[str]:
        """One line (logged, and for the operator's screen) for each of `names`
        whose account a player made: it gets no operator rights."""
        lines = []
        for name in sorted(names):
            account = await self.accounts.get(name)
            if account is not None and account.origin != SERVER:
                logs.event(log, "operator_refused", name=name, why="made by a player")
                lines.append(f"Operator {name} refused: a player made the account {account.name}; "
                             "operator accounts are made with `casino account create`.")
        return lines

    def _admit(self, session: Session) -> bool:
        """A session joins the casino (its deadlines, its command rate); False, and it is
        told why and closed, while the casino is stopping."""
        if self.closing:
            session.close(f"*** {self.stop_reason} ***")
            return False
        self.sessions.add(session)
        self.session_clock.start(session)
        session.bucket = TokenBucket(self.config.settings.limits.commands_per_second,
                                     asyncio.get_running_loop().time())
        return True

    async def on_connect(self, session: Session, *, again: bool = False) -> None:
        """A new connection: greeted with the banner. `again`: one the portal kept
        through a restart while it was logging in (its half-done login is gone)."""
        if not self._admit(session):
            return
        logs.event(log, "connect", ip=session.ip)
        if again:
            session.prompt_text = "Name: "
            session.tell("Please log in again.")
        else:
            login.greet(self, session)

    async def resume(self, session: Session, name: str, room: str | None, why: str | None) -> None:
        """A connection the portal kept through a restart of this process: logged in
        again, in the room it was in, with what recovery has to tell (its refunds)."""
        if not self._admit(session):
            return
        account = await self.accounts.get(name)
        if account is None:                   # gone from the database meanwhile: log in anew
            login.greet(self, session)
            return
        logs.event(log, "resume", name=account.key, ip=session.ip)
        with session.reply():
            await login.enter(self, session, account, room=room,
                              again=f"{why + ' ' if why else ''}You are logged in again.")

    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None:
        """Lines read from one client: those within its command rate are
        handled in order; the rest are dropped, with one notice until the
        client has kept to the rate for a second."""
        self.session_clock.heard(session)
        if not lines or session.closed:
            return
        bucket = session.bucket
        if session.flood_noticed and bucket.full(now):
            session.flood_noticed = False
        taken = bucket.take_many(len(lines), now)
        notice = None
        if taken < len(lines) and not session.flood_noticed:
            session.flood_noticed = True
            logs.event(log, "input_dropped", ip=session.ip, name=session.key or "-",
                       lines=len(lines) - taken)
            notice = (f"Slow down: at most {bucket.rate} commands a second. "
                      "Lines beyond that are ignored until you slow down.")
            if not taken:
                with session.reply():
                    session.tell(notice)
        for line in lines[:taken]:
            if session.closed or self.closing:
                return
            await self.on_line(session, line, now, notice)
            notice = None

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
            limit = self.config.settings.limits.max_line
            session.tell(f"That line was too long (over {limit} characters) and was ignored.")
            return
        try:
            if not logged_in(session):
                await login.handle(self, session, line, now)
            else:
                line = clean(line).strip()
                question, session.question = session.question, None
                if question is not None:          # a table asked (a seed): the line may answer it
                    session.prompt_text = "> "
                    if await question(line):
                        return
                await dispatch(self, session, line)
        except Exception as err:
            # once per connection per kind (logs.once): a line that breaks
            # something, repeated, never writes a traceback per message
            logs.once(session.complaints, log, "line_error", type(err).__name__, traceback=True,
                      name=session.key or "-", ip=session.ip)
            session.tell("Something went wrong on our side; please try again.")

    async def on_disconnect(self, session: Session) -> None:
        """A connection ended. If it was its account's live session, the player
        leaves: out of the room at once, then every table applies its rule for
        a dropped player, then out of the online map. A login of the same
        account meanwhile waits for this to finish (login.enter), so an
        account never has two live sessions and no ghost stays behind."""
        self.sessions.discard(session)
        self.session_clock.forget(session)
        if not logged_in(session):
            return
        key = session.key
        if self.online.get(key) is not session:
            return                          # taken over: the newer session keeps the seat
        departure = self.leaving[key] = Departure()
        try:
            self.world.remove(session)
            if session.room:
                self.announce(session.room, f"{session.name} leaves the casino.")
            # Queued at every table now, in one go: anything the player's next
            # session does at a table comes after its own table's `gone`.
            jobs = [host.submit(functools.partial(host.gone, session))
                    for host in list(self.tables.values()) if not (host.closing or host.closed)]
            for job in jobs:
                try:
                    await job
                except Exception:
                    log.exception("event=gone_error name=%s", key)
        finally:
            if self.online.get(key) is session:
                del self.online[key]
            del self.leaving[key]
            departure.done.set()
        logs.event(log, "logout", name=key, ip=session.ip)
        async with self.presence:
            self.presence.notify_all()

    def announce(self, room: str, text: str, exclude: Session | None = None) -> None:
        """An arrival or a departure: told to the room unless it is crowded,
        where one person coming or going is no news to thousands."""
        if not self.world.crowded(room):
            self.broadcast_room(room, text, exclude)

    def broadcast_room(self, room: str, text: str, exclude: Session | None = None) -> None:
        self.crier.cry(room, text, [other for other in self.world.occupants(room) if other is not exclude])

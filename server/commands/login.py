"""Before logging in: create, connect, or a name then a password with echo off.

Passwords are checked with Argon2id off the event loop, a bounded number at
once; failures are throttled per address and per (address, name) with a wait
that doubles, never per name alone (so nobody can lock an owner out from
elsewhere); sign-ups are limited per address; a password never reaches a log
line. One session per account: logging in again takes over the older
connection and says so.
"""
from __future__ import annotations

import asyncio
import logging
import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Mapping, Protocol

from server import logs
from server.metrics import COUNTS
from server.commands import stats
from server.commands.general import RoomApp, describe_room
from server.net import mud
from server.net.session import LoggedIn, Moving, Session, logged_in
from server.net.lifecycle import logged_in as count_login
from server.net.throttle import ConnectionCounter, CreationLimit, LoginThrottle
from server.accounts.names import name_key, name_problem, new_name_problem
from server.accounts.create import create_account
from server.accounts.passwords import HashBusy, Passwords, password_problem
from server.accounts.store import Account, AccountStore, NameTaken
from server.bus.bus import BusUnavailable, Message
from server.bus.words import WORDS, Heard
from server.ledger import Ledger
from server.ledger.errors import LedgerUnavailable
from server.render.text import clean
from server.world.rooms import arrival_from

if TYPE_CHECKING:
    from server.casino.crossing import Crossing
    from server.casino.hosting import Hosting

log = logging.getLogger("casino.accounts")

NO_DATABASE = "The casino cannot reach its database just now. Connect again in a moment."


class Departing(Protocol):
    """An account's previous session on its way out (server.casino.sessions.Departure)."""

    done: asyncio.Event                 # set once it has left
    waiting: int                        # logins waiting for it


class SessionDeadlines(Protocol):
    """The casino's login and idle timeouts (server.casino.deadlines.SessionClock)."""

    def place(self, session: Session) -> None: ...


class LoginApp(RoomApp, stats.StatsApp, Protocol):
    """What logging in uses of the casino (server.app.Casino): the accounts
    and the ledger, the throttles, who is online or still leaving, and the
    world a player enters (what describing a room uses too)."""

    @property
    def accounts(self) -> AccountStore: ...
    @property
    def ledger(self) -> Ledger: ...
    @property
    def passwords(self) -> Passwords: ...          # what logins and sign-ups hash with
    @property
    def operators(self) -> set[str]: ...           # names nobody may sign up as
    @property
    def creations(self) -> CreationLimit: ...      # sign-ups per address
    @property
    def login_failures(self) -> LoginThrottle: ...
    @property
    def connections(self) -> ConnectionCounter: ...
    @property
    def leaving(self) -> Mapping[str, Departing]: ...
    @property
    def closed_rooms(self) -> set[str]: ...          # a kept connection's room may have closed
    @property
    def session_clock(self) -> SessionDeadlines: ...
    @property
    def hosting(self) -> Hosting: ...            # a shard claims the wallet of whoever enters it
    @property
    def crossing(self) -> Crossing | None: ...   # the other shards (a second login there is closed)
    @property
    def presence(self) -> asyncio.Condition: ...   # notified whenever someone logs in or out
    @property
    def sessions(self) -> Forgetting: ...

    def announce(self, room: str, text: str, exclude: Session | None = None) -> None: ...
    async def status(self, session: LoggedIn) -> dict[str, object]: ...

def _games_line() -> str:
    """The games on offer, from the catalogue."""
    from server.games.catalogue import GAMES
    return ", ".join(entry.title for entry in GAMES)


def banner() -> list[str]:
    """The first screen: the games on offer (from the catalogue) and how to log in.

    It leaves before the client's width is known, so the games are broken
    into lines of the same indent that fit 80 columns however many there are."""
    games = textwrap.wrap(f"{_games_line()}.", 76, break_long_words=False)
    return [
        "",
        "  Welcome to the Casino!  Played for chips:",
        *(f"  {line}" for line in games),
        "",
        "  connect <name> <password>   log in",
        "  create <name> <password>    make a new account",
        "  Or just type your name: you will be asked for a password.",
        "",
    ]


@dataclass(frozen=True)
class AwaitPassword:
    name: str


@dataclass(frozen=True)
class ChoosePassword:
    name: str


@dataclass(frozen=True)
class ConfirmPassword:
    name: str
    password: str


def greet(app: LoginApp, session: Session) -> None:
    session.prompt_text = "Name: "
    session.tell(*banner())


def _ask(session: Session, prompt: str, *, secret: bool) -> None:
    session.prompt_text = prompt
    session.echo(not secret)


async def handle(app: LoginApp, session: Session, raw: str, now: float) -> None:
    stage = session.stage
    if isinstance(stage, (AwaitPassword, ChoosePassword, ConfirmPassword)):
        session.stage = None
        session.echo(True)
        session.prompt_text = "Name: "
        password = raw.strip()
        if isinstance(stage, AwaitPassword):
            await _connect(app, session, stage.name, password, now)
        elif isinstance(stage, ChoosePassword):
            problem = password_problem(password)
            if problem:
                session.tell(problem, "Type your name to try again.")
                return
            session.stage = ConfirmPassword(stage.name, password)
            _ask(session, "Type the password again: ", secret=True)
            session.tell()
        else:
            if password != stage.password:
                session.tell("The passwords did not match. Type your name to try again.")
                return
            await _create(app, session, stage.name, password, now)
        return

    line = clean(raw).strip()
    word, _, rest = line.partition(" ")
    word = word.lower()
    args = rest.split()
    if not line:
        session.tell()
    elif word == "create":
        if len(args) != 2:
            session.tell("Usage: create <name> <password>")
            return
        await _create(app, session, args[0], args[1], now, typed=True)
    elif word == "connect":
        if len(args) != 2:
            session.tell("Usage: connect <name> <password>   (or type just your name)")
            return
        await _connect(app, session, args[0], args[1], now)
    elif word in ("quit", "exit"):
        session.close("Goodbye.", why="quit")
    elif word in ("help", "?"):
        from server.commands.account import CONNECT_HELP, CREATE_HELP
        topic = {"create": CREATE_HELP, "connect": CONNECT_HELP}.get(args[0].lower() if args else "")
        session.tell(*(topic.splitlines() if topic else banner()))
    elif not args:
        await _name_only(app, session, line, now)
    else:
        session.tell("Log in first: connect <name> <password>, or create <name> <password>.")


def _no_signups(app: LoginApp, session: Session, now: float) -> bool:
    """Tell and return True if this address may not make an account now."""
    wait = app.creations.blocked_for(session.ip, now)
    if wait > 0:
        logs.event(log, "signup_throttled", ip=session.ip)
        COUNTS.refusals["accounts_per_ip_per_hour"] += 1
        session.tell(f"Too many new accounts from your address; try again in {int(wait) // 60 + 1} minutes.")
    return wait > 0


def _busy(session: Session) -> None:
    logs.event(log, "hash_busy", ip=session.ip)
    COUNTS.refusals["hash_busy"] += 1
    session.tell("The casino is busy checking passwords; try again in a moment.")


async def _name_only(app: LoginApp, session: Session, name: str, now: float) -> None:
    problem = name_problem(name)
    if problem:
        session.tell(problem)
        return
    if await app.accounts.get(name):
        session.stage = AwaitPassword(name)
        _ask(session, "Password: ", secret=True)
    elif name_key(name) in app.operators:
        session.tell(f"The name {name} is reserved. Pick another.")
        return
    elif _no_signups(app, session, now):
        return
    else:
        session.stage = ChoosePassword(name)
        session.tell(f"There is no account called {name} yet. Choose a password to create it "
                     "(or press Enter twice to start over).")
        _ask(session, "New password: ", secret=True)
    session.tell()


async def _create(app: LoginApp, session: Session, name: str, password: str, now: float,
                  typed: bool = False) -> None:
    """A new account; `typed`: the password came on the `create` line, in plain sight."""
    problem = new_name_problem(name) or password_problem(password)
    if problem:
        session.tell(problem)
        return
    if name_key(name) in app.operators:
        # Operator accounts are made on the server (`casino account create`), so
        # nobody gains operator rights by being first to type `create admin`.
        session.tell(f"The name {name} is reserved. Pick another.")
        return
    if await app.accounts.get(name):
        session.tell(f"The name {name} is taken. Pick another, or connect if it is yours.")
        return
    if _no_signups(app, session, now):
        return
    app.creations.made(session.ip, now)     # taken now: sign-ups racing from one address count
    chips = app.config.settings.starting_chips
    try:
        account = await create_account(app.accounts, app.ledger, app.passwords, name, password, chips, session.ip)
    except NameTaken:
        app.creations.cancel(session.ip, now)
        session.tell(f"The name {name} is taken. Pick another, or connect if it is yours.")
        return
    except HashBusy:
        app.creations.cancel(session.ip, now)
        _busy(session)
        return
    logs.event(log, "account_created", name=account.key, ip=session.ip, chips=chips)
    session.tell(f"Welcome, {account.name}! Your account is ready with {chips} chips.")
    if typed:      # said once, when the account is made
        session.tell("Your password showed on the screen as you typed it. Next time type just your "
                     "name: the password is then asked for with echo off.")
    await enter(app, session, account)


async def _connect(app: LoginApp, session: Session, name: str, password: str, now: float) -> None:
    key = name_key(name)
    wait = max(app.login_failures.blocked_for(f"ip:{session.ip}", now),
               app.login_failures.blocked_for(f"ip:{session.ip}:name:{key}", now))
    if wait > 0:
        logs.event(log, "login_throttled", name=key[:20], ip=session.ip)
        COUNTS.refusals["failed_logins"] += 1
        session.tell(f"Too many failed logins. Try again in {int(wait) + 1} seconds.")
        return
    account = await app.accounts.get(name) if not name_problem(name) else None
    try:
        right = account is not None and await app.passwords.verify(account.pwhash, password, session.ip)
    except HashBusy:
        _busy(session)
        return
    if account is None or not right:
        app.login_failures.fail(f"ip:{session.ip}", now)
        app.login_failures.fail(f"ip:{session.ip}:name:{key}", now)
        logs.event(log, "login_failed", name=key[:20], ip=session.ip)
        session.tell("Wrong name or password.")
        return
    app.login_failures.clear(f"ip:{session.ip}:name:{key}")
    if app.passwords.needs_rehash(account.pwhash):
        try:        # made with older parameters: re-made with today's, once
            await app.accounts.set_hash(account.name, await app.passwords.hash(password, session.ip))
            logs.event(log, "password_rehashed", name=key)
        except HashBusy:
            pass    # next time
    await enter(app, session, account)


SCREEN_READER_SAID = "Screen reader mode is on; 'set screenreader off' for the drawn tables."
TO_CHIPS = "@chips"   # a login's `via` when it is sent to the shard where its chips are in play
TO_ROOM = "@room"     # ... to the shard of the room its account's earlier connection was in
SENT = {TO_CHIPS: "Your chips are still in play at a table here, so you log in here.",
        TO_ROOM: "You took over your earlier connection."}    # what each reads there


class Forgetting(Protocol):
    """The sessions served here (server.casino.sessions.Sessions): one sent on is forgotten."""

    def forget(self, session: Session) -> None: ...


def room_of_chips(app: LoginApp, held: Mapping[str, int]) -> str | None:
    """The room of a table of another shard where the player has chips held, or None.

    One writer per wallet: that table's shard settles those chips into the wallet,
    so it must still own the wallet when it does. A login on another shard
    therefore does not claim the wallet, but sends the player there (a roulette
    bet rides after a disconnect: docs/play-roulette.md), where they log in."""
    for table in sorted(held):
        room = next((r.id for r in app.world.rooms.values() if table in r.tables), None)
        if room is not None and not app.hosting.hosts(room):
            return room
    return None


def send_on(app: LoginApp, session: Session, account: Account, room: str, why: str) -> None:
    """Hand a connection that just gave its password to the shard hosting `room`
    (as a walk is handed, server/casino/handoff.py), to log in there; `why` is one
    of SENT."""
    count_login(app.connections, session)
    session.account = account
    app.sessions.forget(session)
    session.moving = Moving(app.hosting.where[room], room, why)
    logs.event(log, "login_sent", name=account.key, shard=app.hosting.where[room], room=room, why=why)


LEAVE_WAIT = 30.0     # seconds a login waits for the account's previous session to finish leaving
TAKEN_WAIT = 5.0      # of those, when it is on another shard (its tables apply the disconnect there)


async def claim_wallet(app: LoginApp, session: Session, key: str) -> bool:
    """This shard takes the player's wallet (from now on it alone writes it). A claim
    that fails on the ledger's dropped connection (the database restarted) is made
    once more: the ledger's next batch reconnects first, and a claim made twice only
    moves the epoch on twice, this shard the owner. While the database stays away the
    player is told so and the connection closes (False): no session without its wallet."""
    for attempt in (1, 2):
        try:
            await app.ledger.claim([key])
            return True
        except LedgerUnavailable as err:
            if attempt == 2:
                logs.event(log, "claim_failed", name=key, ip=session.ip, error=type(err).__name__)
                session.close(f"*** {NO_DATABASE} ***")
    return False


async def take_from_elsewhere(crossing: Crossing, key: str) -> str | None:
    """Close the account's session on another shard, if it has one, before this
    shard claims the wallet (so that shard's tables settle the disconnect while
    they still own it): the room it was in, or None. The bus down: the claim
    fences that shard off the wallet anyway (its session plays on unable to
    bet until it walks or quits; docs/architecture.md, "The words that cross")."""
    try:
        answer = await crossing.to_player(key, "taken", {}, timeout=TAKEN_WAIT)
    except BusUnavailable:
        return None
    room = answer.get("room")
    return room if isinstance(room, str) and room else None


@WORDS.to_player("taken")
async def taken_here(heard: Heard[LoginApp]) -> Message:
    """The far half of a second login on another shard: this session closes, as a
    takeover here closes the older one, and the answer waits for its departure."""
    session, app = heard.session, heard.app
    assert session is not None
    room = session.room or ""
    session.close("Your account was connected from elsewhere; this connection is closed.", why="takeover")
    async with app.presence:
        try:
            await asyncio.wait_for(app.presence.wait_for(
                lambda: app.online.get(session.key) is not session and session.key not in app.leaving),
                TAKEN_WAIT - 1)
        except asyncio.TimeoutError:
            pass
    return {"room": room}


async def enter(app: LoginApp, session: Session, account: Account, *,
                room: str | None = None, again: str | None = None, via: str | None = None) -> None:
    """Put a logged-in person into the world, taking over an older session.

    If the account's previous session is still leaving (its tables applying
    the disconnect), wait for that first; from then on nothing awaits until
    this session is the account's one live session. `room` and `again`: a
    connection the portal kept through a restart comes back to the room it
    was in (if that is still open), told `again` instead of arriving. `via`:
    it walked in from a room another shard hosts, that way (a handoff,
    server/casino/handoff.py): it reads the room and nothing else, and the room
    sees it arrive. On a shard, the wallet is claimed first: from then on only
    this shard writes it (docs/ledger.md, "Shards")."""
    while (departure := app.leaving.get(account.key)) is not None:
        departure.waiting += 1
        try:
            await asyncio.wait_for(departure.done.wait(), LEAVE_WAIT)
        except asyncio.TimeoutError:
            session.tell("Your previous connection is still being closed; try again in a moment.")
            return
        finally:
            departure.waiting -= 1
    if session.gone:
        return                  # hung up while checking the password: never enters
    if app.hosting.shard is not None:
        there = None
        if app.crossing is not None and via is None and again is None and account.key not in app.online:
            there = await take_from_elsewhere(app.crossing, account.key)
            if there is not None and room is None and app.hosting.hosts(there):
                room, there = there, None
        if via is None and again is None:
            chips_room = room_of_chips(app, await app.ledger.open_holds(account.key))
            if session.gone:
                return
            if chips_room is not None:
                send_on(app, session, account, chips_room, TO_CHIPS)
                return
            if there is not None and there in app.world.rooms and there not in app.closed_rooms:
                send_on(app, session, account, there, TO_ROOM)     # back where the other connection was
                return
        if not await claim_wallet(app, session, account.key) or session.gone:
            return
    old = app.online.get(account.key)
    if room is None or room not in app.world.rooms or room in app.closed_rooms:
        room = app.config.settings.start_room
    if old is not None and old is not session:
        room = old.room or room
        app.online.remove(account.key)
        app.world.remove(old)
        old.close("Your account was connected from elsewhere; this connection is closed.", why="takeover")
    count_login(app.connections, session)     # no longer counted as not logged in
    session.account = account
    if not logged_in(session):
        return                  # never: its account was just set (this narrows its type)
    app.session_clock.place(session)       # from now on it times out when idle
    session.prompt_text = "> "
    app.online[account.key] = session
    if app.crossing is not None:
        await app.crossing.reachable(account.key)      # a `tell` from another shard finds them
        if app.online.get(account.key) is not session:
            return                                     # gone meanwhile
    app.world.place(session, room)
    logs.event(log, "login", name=account.key, ip=session.ip, takeover=old is not None,
               again=again is not None and via is None, via=via or "-")
    sent = SENT.get(via or "")
    if via is not None and sent is None:
        app.announce(room, f"{account.name} arrives from {arrival_from(via)}.", exclude=session)
    elif again is not None and sent is None:
        session.tell(again)
    elif old is not None:
        session.tell("You took over your earlier connection.")
    else:
        app.announce(room, f"{account.name} arrives.", exclude=session)
    if sent is not None:
        session.tell(sent)
    if via is None or sent is not None:      # a walk from another shard: its login took them, and it reads the room only
        for notice in await app.ledger.take_notices(account.key):
            session.tell(f"Notice: {notice}")
        bal = await app.ledger.balance(account.key)
        session.tell(f"You have {bal.wallet} chips. Type 'help' for commands.", "")
        if session.prefs.screenreader:
            session.tell(SCREEN_READER_SAID)
    mud.send(session, "Char.Status", await app.status(session))
    await stats.login_gmcp(app, session)
    session.tell(*describe_room(app, session))

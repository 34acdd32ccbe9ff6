"""The table host: the game-agnostic part of every table, with its I/O.

A host owns one table's inputs and feeds them to its pure core
(server.tables.core: the game's dealer, the Seating and the usher) one at a
time, in order - a player's command, elapsed ticks, a ledger result - so a
wager is live only once its hold is durable and a roll never overtakes a
wager the player already saw accepted. Its cashier (server.tables.money)
writes the game's money intents to the ledger and retries what failed; its
delivery (server.tables.delivery) renders every fact for each viewer and
tells each person one block per input.

Commands talk to a table through its verbs (play, leave, watch, unwatch,
act, set_seed, fair, view, rules; the casino's `call`) and read it through a
few questions (seats, watching, roles, chips_at_stake, forfeits_on_drop,
plays_for_chips); they never reach into its dealer, seating or core
(tests/test_layers.py).
"""
from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable, Mapping, Protocol

from server import logs
from server.accounts.names import name_key
from server.config.model import GameOptions, TableConfig
from server.dice.fair import FairDice
from server.dice.view import fair_lines
from server.games.intents import Forfeit, Hold, Refund, Settle
from server.games.seam import Ask, AnyDealer, Event, GameEntry, HandResult, Note, Notice, Viewer, WalletReport
from server.games.seating import Seat, Seating
from server.ledger import Balance, LedgerError
from server.tables.core import TableCore
from server.tables.delivery import Delivery, Viewing
from server.tables.manager import Manager
from server.tables.money import Cashier, PendingIntent, TableLedger

log = logging.getLogger("casino.tables")

RETRY_SECONDS = 2          # how often a settlement the ledger could not write is retried
# Players have no `casino` command of their own: `fair` says where the verifier is.
VERIFIER = ("'casino verify' is the casino command of this open-source server: install the server "
            "on your own computer and run it there (docs/fairness.md shows how). Or open the browser "
            "page's 'verify' link: it checks a seed in your browser, asking the server nothing.")


class TableClosed(Exception):
    """The table has closed (or is closing) and takes no more inputs."""


class HostLedger(TableLedger, Protocol):
    """What a table host reads and writes of the ledger (server.ledger.Ledger):
    the cashier's writes, a wallet to play with, a notice for one who is gone."""

    async def balance(self, player: str) -> Balance: ...
    async def notify(self, player: str, text: str) -> None: ...


class TimeKeeper(Protocol):
    """Where a seat's time goes when it ends (server.accounts.table_time.TableTimeStore)."""

    async def add(self, player: str, table: str, millis: int) -> None: ...


class CommandFinder(Protocol):
    """Whether a line answering a table's question is a command instead
    (server.commands.registry.Registry)."""

    def find(self, word: str, operator: bool) -> object | None: ...


class TableApp(Protocol):
    """What a table host uses of the casino (server.app.Casino)."""

    @property
    def manager(self) -> Manager: ...          # the clock: tick_hz, seconds()

    @property
    def seed(self) -> int | None: ...          # --seed: deterministic dice

    @property
    def run_id(self) -> str: ...               # prefixes the table's ledger keys

    @property
    def ledger(self) -> HostLedger: ...

    @property
    def online(self) -> Mapping[str, Viewing]: ...   # account key -> connected session

    @property
    def registry(self) -> CommandFinder: ...

    async def status(self, session: Viewing) -> dict[str, object]: ...   # GMCP Char.Status

    @property
    def table_time(self) -> TimeKeeper: ...    # time at the tables (server.accounts.table_time)

    def is_operator(self, session: Viewing) -> bool: ...

    def forget_table(self, host: TableHost) -> None: ...   # a retired table has closed


class TableHost:
    def __init__(self, app: TableApp, config: TableConfig[GameOptions], generation: int = 0) -> None:
        """`generation`: hosts this run opened before for the same table id (a
        table removed by `reload` and added back); its dealers count their keys
        from 1 again, so the generation keeps their keys from the old host's."""
        self.app = app
        self.id = config.id
        self.core = TableCore(config, app.manager.tick_hz, FairDice(config.id, seed=app.seed))
        self.cashier = Cashier(app.ledger, config.id, f"{app.run_id}.g{generation}" if generation else app.run_id)
        self.delivery = Delivery(config.id, app.online, lambda session: app.status(session))
        self.retiring = False                     # removed from the config: closes when idle
        self.next_config: TableConfig[GameOptions] | None = None   # a changed config waiting for the table to idle
        self._retry_ticks = 0
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | None]] = asyncio.Queue()
        self._worker = asyncio.get_running_loop().create_task(self._work())
        self.closing = False                      # close() called: nothing more is queued
        self._closing_job: asyncio.Future[Any] | None = None
        self.closed = False
        self._since: dict[str, int] = {}          # account key -> the manager tick its seat was taken

    # --- what the table is (read by tests and the operator's `tables`) ---------
    @property
    def entry(self) -> GameEntry:
        return self.core.entry

    @property
    def dealer(self) -> AnyDealer:
        return self.core.dealer

    @property
    def seating(self) -> Seating:
        return self.core.seating

    @property
    def dice(self) -> FairDice:
        """The table's fair draws (the commitment players were shown)."""
        return self.core.dice                        # type: ignore[return-value]

    @dice.setter
    def dice(self, dice: FairDice) -> None:
        self.core.dice = dice

    @property
    def stakes(self) -> dict[str, tuple[str, int]]:
        return self.cashier.stakes

    @property
    def pending(self) -> list[PendingIntent]:
        return self.cashier.pending

    @property
    def word(self) -> str:
        """What players type to sit here: `play <word>`, `watch <word>`."""
        return self.core.usher.word

    def call(self, word: str) -> None:
        """The word players sit down with here (`play classic_craps` where
        another table in the room already answers to the game's word)."""
        self.core.call(word)

    def install(self, config: TableConfig[GameOptions]) -> None:
        """A new dealer for a changed config, at the same seats with the same
        dice. A new dealer counts its keys from 1 again: the cashier's new
        install number keeps them from meeting the old dealer's in the ledger."""
        self.core.install(config)
        self.cashier.installs += 1

    # --- questions commands ask ---------------------------------------------
    def seats(self) -> tuple[Seat, ...]:
        """Who sits here, in seat order (copies: commands only read them)."""
        return tuple(Seat(s.player, s.key, s.sitting_out, s.leaving, s.ready) for s in self.core.seating.seats)

    @property
    def config(self) -> TableConfig[GameOptions]:
        """The settings the table plays by now."""
        return self.core.dealer.config

    def sits(self, key: str) -> bool:
        """Whether the account `key` has a seat here (asked of every table per table word)."""
        return self.core.seating.seat_by_key(key) is not None

    def seated_keys(self) -> set[str]:
        return {s.key for s in self.core.seating.seats}

    def is_seated(self, session: Viewing) -> bool:
        return self.core.seating.seat_by_key(session.key) is not None

    def watching(self) -> dict[str, str]:
        """Who watches: account key -> display name."""
        return dict(self.core.seating.watchers)

    def roles(self) -> dict[str, str]:
        return self.core.dealer.roles()

    def phase(self) -> str:
        return self.core.dealer.phase()

    def chips_at_stake(self, player: str) -> int:
        """Chips `player` has in live bets here."""
        return self.cashier.chips_at_stake(player)

    def forfeits_on_drop(self) -> bool:
        """Whether a dropped connection loses live bets here (the game's dealer
        says: roulette's ride on), so `quit` warns only where it would."""
        return self.core.dealer.forfeits_on_drop

    def plays_for_chips(self) -> bool:
        """Whether the game here plays ledger chips (not a practice bankroll)."""
        return self.core.dealer.plays_for_chips()

    # --- ordered inputs ---------------------------------------------------
    async def _work(self) -> None:
        while True:
            job, fut = await self._queue.get()
            try:
                result = await job()
                await self.apply(self.core.finish_leaves())
                if (self.retiring or self.next_config is not None) and not self.closed:
                    await self.settle_config()
                touched, self.cashier.touched = self.cashier.touched, set()
                await self.delivery.status_updates(touched)
                self.delivery.deliver(self.core, self.state)
                if fut is not None and not fut.done():
                    fut.set_result(result)
            except Exception as err:
                log.exception("event=table_error table=%s", self.id)
                self.delivery.deliver(self.core, self.state)
                if fut is not None and not fut.done():
                    fut.set_exception(err)
            finally:
                self._queue.task_done()
            if self.closed:
                # The closing job refunded everything: nothing queued behind it
                # may run (a wager after the refund would stay held).
                self._refuse_queued()
                return

    def _refuse_queued(self) -> None:
        while not self._queue.empty():
            _, fut = self._queue.get_nowait()
            if fut is not None and not fut.done():
                fut.set_exception(TableClosed(self.id))
            self._queue.task_done()

    def state(self) -> dict[str, object]:
        """The table as data: what GMCP `Casino.Table` carries."""
        dealer = self.core.dealer
        return {"table": self.id, "game": self.entry.key, "phase": dealer.phase(),
                "draw": self.entry.draws.data(), "words": list(self.entry.words), "roles": dealer.roles(),
                "seated": [{"name": s.player, "sitting_out": s.sitting_out, "leaving": bool(s.leaving)}
                           for s in self.core.seating.seats],
                "watchers": len(self.core.seating.watchers),
                **dealer.table_data()}

    def submit(self, job: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
        """Queue `job` now, after everything queued before it; its future
        gives the result. A closing table refuses with TableClosed."""
        if self.closing or self.closed:
            raise TableClosed(self.id)
        return self._enqueue(job)

    def _enqueue(self, job: Callable[[], Awaitable[Any]]) -> asyncio.Future[Any]:
        fut: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.put_nowait((job, fut))
        return fut

    async def run(self, job: Callable[[], Awaitable[Any]]) -> Any:
        """Run `job` on this table's queue, after everything queued before it."""
        return await self.submit(job)

    async def idle(self) -> None:
        """Wait until every queued input has been handled (tests use this)."""
        await self._queue.join()

    def advance(self, ticks: int) -> None:
        """Manager ticks: queued like any other input."""
        if not (self.closing or self.closed):
            self._queue.put_nowait((lambda: self._advance(ticks), None))

    async def _advance(self, ticks: int) -> None:
        await self.apply(self.core.advance(ticks))
        if self.cashier.pending:
            self._retry_ticks += ticks
            if self._retry_ticks >= self.app.manager.seconds(RETRY_SECONDS):
                self._retry_ticks = 0
                await self._retry_pending()

    # --- the verbs commands use ---------------------------------------------
    def viewer(self, session: Viewing) -> Viewer:
        return Viewer(session.name, session.prefs, seated=self.is_seated(session))

    async def play(self, session: Viewing, wallet: int) -> None:
        """`play <game>`: sit down (or come back, or stay after all)."""
        await self.run(lambda: self.sit(session, wallet))

    async def sit(self, session: Viewing, wallet: int) -> None:
        await self.apply(self.core.sit(session.name, session.key, wallet))

    def watch(self, session: Viewing) -> str:
        if not self.core.watch(session.key, session.name):
            return "You are playing at this table already."
        return f"You watch {self.id}. You will see the play; 'leave' to stop watching."

    def unwatch(self, session: Viewing) -> bool:
        return self.core.unwatch(session.key)

    async def leave_table(self, session: Viewing) -> None:
        await self.run(lambda: self.leave(session.name))

    async def leave(self, player: str, how: str = "leave") -> None:
        await self.apply(self.core.leave(player, how))

    async def gone(self, session: Viewing) -> None:
        self.core.unwatch(session.key)
        seat = self.core.seating.seat_by_key(session.key)
        if seat is not None:
            await self.apply(self.core.gone(seat.player))

    async def act(self, session: Viewing, words: list[str], wallet: int) -> None:
        """A game word typed by a seated player, in the table's order."""
        await self.run(lambda: self.apply(self.core.act(session.name, words, wallet, self.retiring)))

    def set_seed(self, session: Viewing, text: str) -> str:
        """The client seed mixed into the next draws, if this player may choose it."""
        who = self.core.dealer.seeder()
        if who != session.name:
            return (f"Only {who} may set the client seed now (the shooter, or the first seated)." if who
                    else "Nobody may set the client seed now.")
        own = self.core.dealer.own_draws()
        if own is not None:
            return own.take_seed(text)
        problem = self.dice.set_client_seed(text)
        return problem or (f"Client seed set to '{self.dice.client_seed}'. The next draw of the "
                           f"{self.entry.draws.name} uses nonce {self.dice.nonce}.")

    async def fair(self, rotate: bool = False) -> list[str]:
        """`fair`: the draws' commitment and revealed seeds; `rotate` first
        retires the server seed (in the table's order, between draws)."""
        own = self.core.dealer.own_draws()
        if own is not None:
            return own.fair_lines()
        if not rotate:
            return [*fair_lines(self.dice, self.entry.draws), VERIFIER]

        async def rotated() -> list[str]:
            self.dice.rotate()
            return ["The server seed was retired and revealed; a new one is committed.",
                    *fair_lines(self.dice, self.entry.draws), VERIFIER]
        lines: list[str] = await self.run(rotated)
        return lines

    def view(self, session: Viewing) -> list[str]:
        return self.core.dealer.view(self.viewer(session))

    def rules(self) -> list[str]:
        return self.core.dealer.rules()

    def refusal(self, session: Viewing, word: str) -> str | None:
        return self.core.refusal(session.name, word, self.retiring)

    def _answer(self, session: Viewing, word: str) -> Callable[[str], Awaitable[bool]]:
        """The handler for a player's answer to an Ask: a command typed at the
        question runs as a command; anything else (a bare Enter too) goes to
        the table as `word` and its words, while the player is still seated."""
        async def answer(line: str) -> bool:
            first = line.split()[0] if line else ""
            if first and self.app.registry.find(first, self.app.is_operator(session)) is not None:
                return False
            if self.closed or not self.is_seated(session):
                return False
            chips = (await self.app.ledger.balance(session.key)).wallet
            await self.run(lambda: self.apply(self.core.act(session.name, [word, *line.split()], chips)))
            return True
        return answer

    # --- money and facts ----------------------------------------------------
    async def apply(self, events: list[Event]) -> None:
        """Apply money intents in order, then show every fact to its viewers.

        The viewers are looked up once for a run of facts (a roll is a couple
        of hundred): the seats changed before the run began (the core carries
        out a SeatRequest where the dealer made it), never during it."""
        queue = list(events)
        audience = None
        while queue:
            event = queue.pop(0)
            if isinstance(event, (Hold, Settle, Refund, Forfeit)):
                queue[:0] = await self.cashier.pay(event, self.core.hold_refused, self.core.seating.names)
            elif isinstance(event, Ask):
                session = self.delivery.session_of(event.player)
                if session is not None:
                    session.ask(event.prompt, self._answer(session, event.word))
            elif isinstance(event, HandResult):
                logs.event(log, "hand_result", table=self.id, **dict(event.fields))
            elif isinstance(event, Notice):
                await self._notice(event)
            elif isinstance(event, WalletReport):
                session = self.delivery.session_of(event.player)
                if session is not None:
                    balance = await self.app.ledger.balance(session.key)
                    self.delivery.tell(session, f"Wallet: {balance.wallet} chips.")
            else:
                if audience is None:
                    audience = self.delivery.audience(self.core)
                self.delivery.show(self.core, event, audience)
        await self._clock_seats()

    # --- time at the table --------------------------------------------------
    def seated_ticks(self, key: str) -> int | None:
        """Ticks the account `key` has sat here in its current visit, or None (`stats`)."""
        start = self._since.get(key)
        return None if start is None else self.app.manager.ticks - start

    async def _clock_seats(self, everyone: bool = False) -> None:
        """Start the clock of a seat just taken; add the time of each seat that
        ended (`everyone`: the table is closing) to the table-time store. Run
        after every input, so every way out of a seat (leave, a waited leave,
        a drop, a closing) is counted without each path having to say so."""
        seats = self.core.seating.seats
        if not everyone and len(seats) == len(self._since) and all(s.key in self._since for s in seats):
            return                                         # nobody came or went: the usual case
        manager = self.app.manager
        now = manager.ticks
        here = set() if everyone else {s.key for s in seats}
        for key in here - self._since.keys():
            self._since[key] = now
        for key in [k for k in self._since if k not in here]:
            millis = (now - self._since.pop(key)) * 1000 // manager.tick_hz
            try:
                await self.app.table_time.add(key, self.id, millis)
            except Exception as err:      # noqa: BLE001 - time is not money: play goes on, the loss is logged
                logs.event(log, "table_time_lost", table=self.id, player=key, millis=millis, why=err)

    async def _notice(self, notice: Notice) -> None:
        """Tell a connected player now; keep it for the next login of one who is gone."""
        session = self.delivery.session_of(notice.player)
        if session is not None and not session.gone:        # a drop being handled is gone already
            self.delivery.tell(session, f"Notice: {notice.text}")
            return
        try:
            await self.app.ledger.notify(name_key(notice.player), notice.text)
        except LedgerError as err:
            logs.event(log, "notice_lost", table=self.id, player=notice.player, why=err)

    async def _retry_pending(self) -> None:
        for players in await self.cashier.retry():
            for player in players:
                self.delivery.tell_player(player, "The pending settlement has now been recorded.")

    # --- configuration changes ----------------------------------------------
    @property
    def at_rest(self) -> bool:
        """No stake is live and no settlement is waiting: safe to change or close."""
        return self.cashier.at_rest

    def tell_table(self, text: str) -> None:
        self.delivery.tell_table(self.core, text)

    async def reconfigure(self, config: TableConfig[GameOptions]) -> str:
        """A changed table config from `reload`: live where the game can take it
        (new limits for new wagers), otherwise once the table is idle."""
        async def change() -> str:
            if self.core.dealer.reconfigure(config):
                self.tell_table("The operator changed this table's settings; they apply to new wagers now.")
                return "applied now"
            self.next_config = config
            await self.settle_config()
            if self.next_config is None:
                return "applied now (the table was idle)"
            self.tell_table("The operator changed this table's settings; they apply once no bets are live.")
            return "applies when the table is idle"
        result: str = await self.run(change)
        return result

    async def retire(self) -> None:
        """The table was removed from the config: no new games or wagers, then
        close (refunding anything left) once its live stakes are decided."""
        async def go() -> None:
            self.retiring = True
            self.tell_table("This table has been removed: it closes after the current hand, refunding what is left. No new bets.")
            await self.settle_config()
        await self.run(go)

    def _hand_over(self) -> bool:
        """Between hands, as the game defines them (a game in progress at Pig,
        a pass in play at alley craps, a point at bank craps), or, for a game
        that does not say, nothing at stake."""
        if self.cashier.pending:
            return False
        return self.core.dealer.between_hands(self.at_rest)

    async def settle_config(self) -> None:
        """Apply a waiting change if the table is idle now, or close a removed
        table once its current hand is over (refunding what is left)."""
        if self.retiring:
            if not self._hand_over():
                return
            await self.apply(self.core.close("This table is now closed."))
            await self._clock_seats(everyone=True)
            self.closed = True
            self.app.forget_table(self)
            return
        if self.next_config is not None and self.at_rest:
            config, self.next_config = self.next_config, None
            self.install(config)
            for player in self.core.seating.names():
                await self.apply([e for e in self.core.dealer.seated(player, False)
                                  if isinstance(e, Note) and e.to])
            self.tell_table("This table's new settings are in effect.")

    # --- lifecycle ----------------------------------------------------------
    def begin_close(self, why: str) -> asyncio.Future[Any]:
        """Shutdown or room closing: from now on the table takes no new
        inputs; what was queued before runs first (its wagers are refunded
        too), then the closing job, the last the table ever runs, refunds
        every outstanding stake. Returns that job's future."""
        if self._closing_job is None:
            if self.closed:
                self._closing_job = asyncio.get_running_loop().create_future()
                self._closing_job.set_result(None)
                return self._closing_job
            self.closing = True

            async def closing() -> None:
                try:
                    await self.apply(self.core.close(why))
                    await self._retry_pending()
                    await self._clock_seats(everyone=True)
                finally:
                    self.closed = True
            self._closing_job = self._enqueue(closing)
        return self._closing_job

    async def close(self, why: str) -> None:
        await self.begin_close(why)

    def stop(self) -> None:
        """Stop the worker of a table that has closed itself."""
        self._worker.cancel()

"""The table: the game-agnostic part of every table, with its I/O.

A table owns one table's inputs and feeds them to its pure core
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
from typing import Awaitable, Callable, Mapping, Protocol, TypeVar

from server.config.model import GameOptions, TableConfig
from server.dice.fair import FairDice
from server.games.seam import AnyDealer, Event, GameEntry, Viewer
from server.games.seating import Seat, Seating
from server.tables.core import TableCore
from server.tables.delivery import Delivery, Viewing
from server.tables.manager import Manager
from server.tables import changes, fairness
from server.tables.applier import Applier, HostLedger
from server.tables.changes import Changes
from server.tables.money import Cashier, PendingIntent
from server.tables.queue import TableClosed as TableClosed
from server.tables.queue import TableQueue
from server.tables.seat_clock import SeatClock, TimeKeeper

log = logging.getLogger("casino.tables")
T = TypeVar("T")

RETRY_SECONDS = 2          # how often a settlement the ledger could not write is retried


class CommandFinder(Protocol):
    """Whether a line answering a table's question is a command instead
    (server.commands.registry.Registry)."""

    def find(self, word: str, operator: bool) -> object | None: ...


class TableApp(Protocol):
    """What a table uses of the casino (server.app.Casino)."""

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

    def forget_table(self, table: Table) -> None: ...   # a retired table has closed


class Table:
    def __init__(self, app: TableApp, config: TableConfig[GameOptions], generation: int = 0) -> None:
        """`generation`: tables this run opened before for the same table id (a
        table removed by `reload` and added back); its dealers count their keys
        from 1 again, so the generation keeps their keys from the old table's."""
        self.app = app
        self.id = config.id
        self.core = TableCore(config, app.manager.tick_hz, FairDice(config.id, seed=app.seed))
        self.cashier = Cashier(app.ledger, config.id, f"{app.run_id}.g{generation}" if generation else app.run_id,
                               config.game)
        self.delivery = Delivery(config.id, app.online, lambda session: app.status(session))
        self.changes = Changes()                  # what reload asked, waiting for the table (changes.py)
        self.queue = TableQueue(config.id)
        self._worker = asyncio.get_running_loop().create_task(self.queue.serve(self._after_input, self._deliver))
        self.seat_clock = SeatClock(config.id, app.manager, app.table_time)
        self.applier = Applier(config.id, self.core, self.cashier, self.delivery, app.ledger, self.seat_clock,
                               self._answer)

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

    # --- ordered inputs (server.tables.queue) ---------------------------------
    @property
    def closing(self) -> bool:
        return self.queue.closing

    @property
    def closed(self) -> bool:
        return self.queue.closed

    async def _after_input(self) -> None:
        """What follows every input: leaves that waited, a waiting config change, delivery."""
        await self.apply(self.core.finish_leaves())
        if self.changes.waiting and not self.closed:
            await self.changes.settle(self)
        touched, self.cashier.touched = self.cashier.touched, set()
        await self.delivery.status_updates(touched)
        self._deliver()

    def _deliver(self) -> None:
        self.delivery.deliver(self.core, self.state)

    def state(self) -> dict[str, object]:
        """The table as data: what GMCP `Casino.Table` carries."""
        return table_state(self.id, self.entry, self.core)

    def submit(self, job: Callable[[], Awaitable[object]]) -> asyncio.Future[object]:
        """Queue `job` now, after everything queued before it; its future
        gives the result. A closing table refuses with TableClosed."""
        return self.queue.submit(job)

    async def run(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run `job` on this table's queue, after everything queued before it."""
        return await self.queue.run(job)

    async def idle(self) -> None:
        """Wait until every queued input has been handled (tests use this)."""
        await self.queue.idle()

    def advance(self, ticks: int) -> None:
        """Manager ticks: queued like any other input."""
        self.queue.tick(lambda: self._advance(ticks))

    async def _advance(self, ticks: int) -> None:
        await self.apply(self.core.advance(ticks))
        await self.applier.tick(ticks, self.app.manager.seconds(RETRY_SECONDS))

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

    async def act(self, session: Viewing, words: list[str], wallet: Callable[[], Awaitable[int]]) -> None:
        """A game word typed by a seated player, in the table's order. It takes
        its place in the queue as it is typed, and reads the player's wallet
        when its turn comes: what happens at the table after the word was typed
        (a tick's last call) is told after its reply, never before."""
        async def word() -> None:
            await self.apply(self.core.act(session.name, words, await wallet(), self.changes.retiring))
        await self.run(word)

    def set_seed(self, session: Viewing, text: str) -> str:
        """`seed <text>` (server.tables.fairness)."""
        return fairness.set_seed(self.core.dealer, self.dice, self.entry, session.name, text)

    async def fair(self, rotate: bool = False) -> list[str]:
        """`fair`: the draws' commitment and revealed seeds; `rotate` first
        retires the server seed (in the table's order, between draws)."""
        own = fairness.fair_text(self.core.dealer, self.dice, self.entry)
        if own is not None or not rotate:
            return own if own is not None else fairness.fair_draws(self.dice, self.entry)

        async def rotated() -> list[str]:
            self.dice.rotate()
            return [fairness.ROTATED, *fairness.fair_draws(self.dice, self.entry)]
        return await self.run(rotated)

    def view(self, session: Viewing) -> list[str]:
        return self.core.dealer.view(self.viewer(session))

    def rules(self) -> list[str]:
        return self.core.dealer.rules()

    def refusal(self, session: Viewing, word: str) -> str | None:
        return self.core.refusal(session.name, word, self.changes.retiring)

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

    # --- money and facts (server.tables.applier) --------------------------------
    async def apply(self, events: list[Event]) -> None:
        await self.applier.apply(events)

    # --- time at the table (server.tables.seat_clock) ------------------------------
    def seated_ticks(self, key: str) -> int | None:
        """Ticks the account `key` has sat here in its current visit, or None (`stats`)."""
        return self.seat_clock.seated_ticks(key)

    async def _clock_seats(self, everyone: bool = False) -> None:
        await self.seat_clock.clock(self.core.seating.seats, everyone)

    # --- configuration changes (server.tables.changes) ---------------------------
    @property
    def retiring(self) -> bool:
        """Removed from the config: closes once the hand in play is over."""
        return self.changes.retiring

    @property
    def next_config(self) -> TableConfig[GameOptions] | None:
        """A changed config waiting for the table to be idle."""
        return self.changes.next_config

    @property
    def at_rest(self) -> bool:
        """No stake is live and no settlement is waiting: safe to change or close."""
        return self.cashier.at_rest

    def tell_table(self, text: str) -> None:
        self.delivery.tell_table(self.core, text)

    async def reconfigure(self, config: TableConfig[GameOptions]) -> str:
        """A changed table config from `reload`, in the table's order."""
        return await self.run(lambda: self.changes.reconfigure(self, config))

    async def retire(self) -> None:
        """The table was removed from the config (`reload`)."""
        await self.run(lambda: self.changes.retire(self))

    async def close_now(self) -> None:
        """A removed table's hand is over: refund what is left and close."""
        await self.apply(self.core.close(changes.CLOSED))
        await self._clock_seats(everyone=True)
        self.queue.closed = True
        self.app.forget_table(self)

    # --- lifecycle ----------------------------------------------------------
    def begin_close(self, why: str) -> asyncio.Future[object]:
        """Shutdown or room closing: from now on the table takes no new
        inputs; what was queued before runs first (its wagers are refunded
        too), then the closing job, the last the table ever runs, refunds
        every outstanding stake. Returns that job's future."""
        async def closing() -> None:
            await self.apply(self.core.close(why))
            await self.applier.retry_pending()
            await self._clock_seats(everyone=True)
        return self.queue.close_with(closing)

    async def close(self, why: str) -> None:
        await self.begin_close(why)

    def stop(self) -> None:
        """Stop the worker of a table that has closed itself."""
        self._worker.cancel()


def table_state(table_id: str, entry: GameEntry, core: TableCore) -> dict[str, object]:
    """A table as data: what GMCP `Casino.Table` carries (docs/gmcp.md)."""
    dealer = core.dealer
    return {"table": table_id, "game": entry.key, "phase": dealer.phase(),
            "draw": entry.draws.data(), "words": list(entry.words), "roles": dealer.roles(),
            "seated": [{"name": s.player, "sitting_out": s.sitting_out, "leaving": bool(s.leaving)}
                       for s in core.seating.seats],
            "watchers": len(core.seating.watchers),
            **dealer.table_data()}

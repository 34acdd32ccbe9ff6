"""The table host: the game-agnostic part of every table.

A host owns one table's inputs and feeds them to its game one at a time, in
order - a player's command, elapsed ticks, a ledger result - so a wager is live
only once its hold is durable and a roll never overtakes a wager the player
already saw accepted. It applies the game's money intents to the ledger, tells
the game when the ledger refused a hold, and hands every fact to each viewer
(seated players and spectators) through the game's renderer.

The host owns the people: one Seating (who sits, in what order, who sits
out, who leaves once their bets are decided, who watches) and the table's
fair dice. The game side is a Dealer (server.games.seam), built from the
game's catalogue entry: pure rules plus the round and timing policy of that
game, reading the Seating. Intent keys from the game are prefixed with the
process's run id, so keys never repeat across restarts.

What one input makes people see leaves as one block: lines for each session
are gathered while the input is handled (its ledger writes await in between)
and told together when it is done, so a roll and its settlement reach every
viewer under one prompt, whoever or whatever rolled.

A fact is rendered for each seated player, but only once for each group of
watchers with the same display preferences (and alone for a watcher it
names): what a fact says to a watcher depends on nothing else (the rule in
server.games.seam.Dealer), so a crowd of watchers costs a few renders, not
one each.
"""
from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any, Awaitable, Callable

from server import logs
from server.net import mud
from server.accounts.names import name_key
from server.config.model import TableConfig
from server.dice.fair import FairDice
from server.games.catalogue import entry_for
from server.games.intents import Forfeit, Hold, Refund, Settle
from server.games.seam import (Ask, Dealer, HandResult, Note, Notice, SeatRequest, Viewer, WalletReport,
                               names_in)
from server.games.seating import Seating
from server.render.prefs import Prefs
from server.tables.usher import Usher

log = logging.getLogger("casino.tables")

RETRY_SECONDS = 2          # how often a settlement the ledger could not write is retried


@dataclass
class PendingIntent:
    intent: Any
    players: tuple[str, ...]


@dataclass
class Audience:
    """Who sees a run of facts, as the host renders for them: each seated
    player alone, the watchers a group per Prefs (seam.Dealer says why that
    is enough), and the watchers by the name_key of the name renderers
    compare (Viewer.key), to single out one a fact names."""

    everyone: list[Viewer]
    seated: list[Viewer]
    groups: list[list[Viewer]]
    watchers: dict[str, Viewer]


class TableClosed(Exception):
    """The table has closed (or is closing) and takes no more inputs."""


class TableHost:
    def __init__(self, app: Any, config: TableConfig) -> None:
        self.app = app
        self.id = config.id
        self.seating = Seating()
        self.dice = FairDice(config.id, seed=app.seed)
        self.installs = -1                        # dealers installed before this one
        self.install(config)
        self.pending: list[PendingIntent] = []    # writes the ledger failed; retried
        self.stakes: dict[str, tuple[str, int]] = {}  # open holds, by game key: (player, chips)
        self.retiring = False                     # removed from the config: closes when idle
        self.next_config: Any = None              # a changed config waiting for the table to idle
        self._retry_ticks = 0
        self._data: list[tuple[Any, str, Any]] = []       # GMCP to send after this input's text
        self._touched: set[str] = set()                    # players whose chips this input moved
        self._outbox: dict[int, tuple[Any, list[str]]] = {}   # id(session) -> lines, this input's
        self._queue: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | None]] = asyncio.Queue()
        self._worker = asyncio.get_running_loop().create_task(self._work())
        self.closing = False                      # close() called: nothing more is queued
        self._closing_job: asyncio.Future[Any] | None = None
        self.closed = False

    def install(self, config: TableConfig) -> None:
        """A dealer for `config`, at the same seats with the same dice (the
        commitment players were shown stays): at opening and when a changed
        config is applied to an idle table."""
        self.entry = entry_for(config)
        self.dealer: Dealer = self.entry.make(config, self.app.manager.tick_hz, self.dice, self.seating)
        self.usher = Usher(self.seating, self.dealer, self.entry.word)
        # A new dealer counts its keys from 1 again: a new prefix keeps them
        # from meeting the old dealer's in the ledger (where a repeated key is
        # a retry that moves nothing). Installs happen only at rest.
        self.installs += 1

    # --- ordered inputs ---------------------------------------------------
    async def _work(self) -> None:
        while True:
            job, fut = await self._queue.get()
            try:
                result = await job()
                await self.apply(self.usher.finish_leaves())
                if (self.retiring or self.next_config is not None) and not self.closed:
                    await self.settle_config()
                await self._status_updates()
                self._deliver()
                if fut is not None and not fut.done():
                    fut.set_result(result)
            except Exception as err:
                log.exception("event=table_error table=%s", self.id)
                self._deliver()
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

    def _tell(self, session: Any, *lines: str) -> None:
        """Lines for one person, sent with the rest of this input's output."""
        entry = self._outbox.get(id(session))
        if entry is None:
            self._outbox[id(session)] = (session, list(lines))
        else:
            entry[1].extend(lines)

    def _deliver(self) -> None:
        """This input is done: each person gets its lines as one block, then
        (for clients that agreed to GMCP) the same facts as data and the
        table's state if it changed; data after text, as it was caused."""
        outbox, self._outbox = self._outbox, {}
        for session, lines in outbox.values():
            session.tell(*lines)
        self._table_state()
        data, self._data = self._data, []
        loop = asyncio.get_running_loop()
        for session, package, payload in data:
            loop.call_soon(mud.send, session, package, payload)

    # --- data for client scripts (GMCP, docs/gmcp.md) ------------------------
    def state(self) -> dict[str, Any]:
        """The table as data: what `Casino.Table` carries."""
        return {"table": self.id, "game": self.entry.key, "phase": self.dealer.phase(),
                "draw": self.entry.draws.data(), "roles": self.dealer.roles(),
                "seated": [{"name": s.player, "sitting_out": s.sitting_out, "leaving": bool(s.leaving)}
                           for s in self.seating.seats],
                "watchers": len(self.seating.watchers),
                **self.dealer.table_data()}

    def _table_state(self) -> None:
        state: dict[str, Any] | None = None
        for viewer in self.viewers():
            channel = mud.gmcp_of(viewer.session)
            if channel is None:
                continue
            state = state or self.state()
            if channel.last_table != state:
                channel.last_table = state
                self._data.append((viewer.session, "Casino.Table", state))

    def _gmcp_facts(self, event: Any, viewers: list[Viewer]) -> None:
        for package, payload, to in self.dealer.event_data(event):
            sessions = ([self.session_of(p) for p in to] if to is not None
                        else [v.session for v in viewers])
            data = {"table": self.id, **payload}      # one dict for all: it is only read
            for session in sessions:
                if mud.gmcp_of(session) is not None:
                    self._data.append((session, package, data))

    async def _status_updates(self) -> None:
        """Char.Status for each player whose chips this input moved."""
        touched, self._touched = self._touched, set()
        for player in touched:
            session = self.session_of(player)
            if mud.gmcp_of(session) is not None:
                self._data.append((session, "Char.Status", await self.app.status(session)))

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
        await self.apply(self.dealer.advance(ticks))
        if self.pending:
            self._retry_ticks += ticks
            if self._retry_ticks >= self.app.manager.seconds(RETRY_SECONDS):
                self._retry_ticks = 0
                await self._retry_pending()

    # --- people -------------------------------------------------------------
    def session_of(self, player: str) -> Any:
        """The connected session of a player the game names (by display name)."""
        return self.app.online.get(name_key(player))

    def is_seated(self, session: Any) -> bool:
        return self.seating.seat_by_key(session.key) is not None

    def viewers(self) -> list[Viewer]:
        seen: dict[str, Viewer] = {}
        for player in self.seating.names():
            session = self.session_of(player)
            if session is not None:
                seen[session.key] = Viewer(session.name, session.prefs, seated=True, session=session)
        for key in self.seating.watchers:
            session = self.app.online.get(key)
            if key not in seen and session is not None and not session.closed:
                seen[key] = Viewer(session.name, session.prefs, seated=False, session=session)
        return list(seen.values())

    def audience(self) -> Audience:
        """The viewers, sorted for rendering: see Audience."""
        everyone = self.viewers()
        seated: list[Viewer] = []
        groups: dict[Prefs, list[Viewer]] = {}
        watchers: dict[str, Viewer] = {}
        for viewer in everyone:
            if viewer.seated:
                seated.append(viewer)
            else:
                groups.setdefault(viewer.prefs, []).append(viewer)
                watchers[name_key(viewer.key)] = viewer
        return Audience(everyone, seated, list(groups.values()), watchers)

    def viewer(self, session: Any) -> Viewer:
        return Viewer(session.name, session.prefs, seated=self.is_seated(session), session=session)

    async def sit(self, session: Any, wallet: int) -> None:
        await self.apply(self.usher.sit(session.name, session.key, wallet))

    def watch(self, session: Any) -> str:
        if self.is_seated(session):
            return "You are playing at this table already."
        self.seating.watchers[session.key] = session.name
        return f"You watch {self.id}. You will see the play; 'leave' to stop watching."

    async def leave(self, player: str, how: str = "leave") -> None:
        await self.apply(self.usher.leave(player, how))

    async def gone(self, session: Any) -> None:
        self.seating.watchers.pop(session.key, None)
        seat = self.seating.seat_by_key(session.key)
        if seat is not None:
            await self.apply(self.usher.gone(seat.player))

    def _answer(self, session: Any, word: str) -> Callable[[str], Awaitable[bool]]:
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
            await self.run(lambda: self.apply(self.dealer.act(session.name, [word, *line.split()], chips)))
            return True
        return answer

    def refusal(self, session: Any, word: str) -> str | None:
        return self.usher.refusal(session.name, word, self.entry.opening_words, self.retiring)

    # --- money and facts ----------------------------------------------------
    def ledger_key(self, key: str) -> str:
        """The game's key made unique across restarts (the run id) and across
        dealers of this run (the install number, after a reload)."""
        if self.installs:
            return f"{self.app.run_id}.{self.installs}:{key}"
        return f"{self.app.run_id}:{key}"

    async def apply(self, events: list[Any]) -> None:
        """Apply money intents in order, then show every fact to its viewers.

        The viewers are looked up once for a run of facts (a roll is a couple
        of hundred), and again only after the seats may have changed."""
        queue = list(events)
        audience: Audience | None = None
        while queue:
            event = queue.pop(0)
            if isinstance(event, (Hold, Settle, Refund, Forfeit)):
                queue[:0] = await self._money(event)
            elif isinstance(event, SeatRequest):
                await self.leave(event.player, event.how)
                audience = None
            elif isinstance(event, Ask):
                session = self.session_of(event.player)
                if session is not None:
                    session.ask(event.prompt, self._answer(session, event.word))
            elif isinstance(event, HandResult):
                logs.event(log, "hand_result", table=self.id, **dict(event.fields))
            elif isinstance(event, Notice):
                await self._notice(event)
            elif isinstance(event, WalletReport):
                session = self.session_of(event.player)
                if session is not None:
                    balance = await self.app.ledger.balance(session.key)
                    self._tell(session, f"Wallet: {balance.wallet} chips.")
            else:
                if audience is None:
                    audience = self.audience()
                self._show(event, audience)

    async def _notice(self, notice: Notice) -> None:
        """Tell a connected player now; keep it for the next login of one who is gone."""
        session = self.session_of(notice.player)
        if session is not None and not session.closed:
            self._tell(session, f"Notice: {notice.text}")
            return
        from server.ledger import LedgerError
        try:
            await self.app.ledger.notify(name_key(notice.player), notice.text)
        except LedgerError as err:
            logs.event(log, "notice_lost", table=self.id, player=notice.player, why=err)

    async def _write(self, intent: Any) -> None:
        """One money intent to the ledger; returns only when durable."""
        ledger, k = self.app.ledger, self.ledger_key
        if isinstance(intent, Hold):
            await ledger.hold(k(intent.key), name_key(intent.player), self.id, intent.amount)
        elif isinstance(intent, Settle):
            await ledger.settle(k(intent.key), self.id, [k(s) for s in intent.stakes],
                                _sum_pays(intent.pays))
        elif isinstance(intent, Refund):
            await ledger.refund(k(intent.key), self.id, k(intent.stake))
        else:
            await ledger.forfeit(k(intent.key), self.id, k(intent.stake))

    async def _money(self, intent: Any) -> list[Any]:
        """Write an intent; a refused hold goes back to the game, a failed
        settlement is kept for retry and its players told "pending recovery"."""
        from server.ledger import LedgerError, Refused
        try:
            await self._write(intent)
        except Refused as err:
            if isinstance(intent, Hold):
                logs.event(log, "hold_refused", table=self.id, player=intent.player,
                           chips=intent.amount, why=err)
                return self.dealer.hold_refused(intent.key, hold_refusal(err))
            log.error("event=settlement_refused table=%s key=%s error=%s", self.id, intent.key, err)
            return []
        except LedgerError as err:
            if isinstance(intent, Hold):
                logs.event(log, "hold_failed", table=self.id, player=intent.player, why=err)
                return self.dealer.hold_refused(intent.key, "The cashier could not take that wager just now.")
            # Those it pays (a loser is listed with 0), else everyone seated.
            paid = tuple(p for p, _ in intent.pays) if isinstance(intent, Settle) else ()
            players = paid or tuple(self.seating.names())
            self.pending.append(PendingIntent(intent, players))
            logs.event(log, "settlement_pending", table=self.id, key=intent.key, why=err)
            return [Note(players, "Settlement pending recovery: the ledger could not record it yet. "
                                  "Your stake stays held until it is; nothing is paid twice.")]
        self._track(intent)
        if isinstance(intent, Settle):
            logs.event(log, "settlement", table=self.id, key=intent.key, stakes=len(intent.stakes),
                       paid=sum(a for _, a in intent.pays))
        return []

    def _track(self, intent: Any) -> None:
        """Keep the open stakes: what `tables` shows and what "idle" means;
        note whose chips moved (their Char.Status is resent)."""
        if isinstance(intent, Hold):
            self._touched.add(intent.player)
        elif isinstance(intent, Settle):
            self._touched.update(p for p, _ in intent.pays)
            self._touched.update(self.stakes[s][0] for s in intent.stakes if s in self.stakes)
        elif intent.stake in self.stakes:
            self._touched.add(self.stakes[intent.stake][0])
        if isinstance(intent, Hold):
            self.stakes[intent.key] = (intent.player, intent.amount)
        elif isinstance(intent, Settle):
            for stake in intent.stakes:
                self.stakes.pop(stake, None)
        else:
            self.stakes.pop(intent.stake, None)

    async def _retry_pending(self) -> None:
        from server.ledger import LedgerError
        still: list[PendingIntent] = []
        for item in self.pending:
            try:
                await self._write(item.intent)
            except LedgerError:
                still.append(item)
                continue
            self._track(item.intent)
            logs.event(log, "settlement_recovered", table=self.id, key=item.intent.key)
            for player in item.players:
                session = self.session_of(player)
                if session is not None:
                    self._tell(session, "The pending settlement has now been recorded.")
        self.pending = still

    def _show(self, event: Any, audience: Audience) -> None:
        if isinstance(event, Note) and event.to is not None:
            # Addressed lines reach their players seated or not (a refused `play`).
            for player in event.to:
                session = self.session_of(player)
                if session is not None:
                    self._tell(session, event.text)
            return
        for viewer in audience.seated:
            self._render(event, viewer, [viewer])
        if audience.watchers:
            named = {key for key in map(name_key, names_in(event)) if key in audience.watchers}
            for group in audience.groups:
                rest = [v for v in group if name_key(v.key) not in named] if named else group
                if rest:
                    self._render(event, rest[0], rest)
            for key in named:
                viewer = audience.watchers[key]
                self._render(event, viewer, [viewer])
        self._gmcp_facts(event, audience.everyone)

    def _render(self, event: Any, viewer: Viewer, told: list[Viewer]) -> None:
        """`event` as `viewer` sees it, told to each of `told` (who see it the same)."""
        lines = self.dealer.render(event, viewer)
        if lines:
            for other in told:
                self._tell(other.session, *lines)

    # --- configuration changes ----------------------------------------------
    @property
    def at_rest(self) -> bool:
        """No stake is live and no settlement is waiting: safe to change or close."""
        return not self.stakes and not self.pending

    def tell_table(self, text: str) -> None:
        for viewer in self.viewers():
            self._tell(viewer.session, text)

    async def reconfigure(self, config: Any) -> str:
        """A changed table config from `reload`: live where the game can take it
        (new limits for new wagers), otherwise once the table is idle."""
        async def change() -> str:
            if self.dealer.reconfigure(config):
                self.tell_table("The operator changed this table's settings; they apply to new wagers now.")
                return "applied now"
            self.next_config = config
            await self.settle_config()
            if self.next_config is None:
                return "applied now (the table was idle)"
            self.tell_table("The operator changed this table's settings; they apply once no bets are live.")
            return "applies when the table is idle"
        return await self.run(change)

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
        if self.pending:
            return False
        return self.dealer.between_hands(self.at_rest)

    async def settle_config(self) -> None:
        """Apply a waiting change if the table is idle now, or close a removed
        table once its current hand is over (refunding what is left)."""
        if self.retiring:
            if not self._hand_over():
                return
            await self.apply(self.dealer.close("This table is now closed."))
            self.closed = True
            self.app.forget_table(self)
            return
        if self.next_config is not None and self.at_rest:
            config, self.next_config = self.next_config, None
            self.install(config)
            for player in self.seating.names():
                await self.apply([e for e in self.dealer.seated(player, False) if isinstance(e, Note) and e.to])
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
                    await self.apply(self.dealer.close(why))
                    await self._retry_pending()
                finally:
                    self.closed = True
            self._closing_job = self._enqueue(closing)
        return self._closing_job

    async def close(self, why: str) -> None:
        await self.begin_close(why)

    def stop(self) -> None:
        """Stop the worker of a table that has closed itself."""
        self._worker.cancel()


def hold_refusal(err: Exception) -> str:
    """Why the ledger would not hold a stake, as a player reads it: no
    account names, keys or amounts the player did not type."""
    from server.ledger import InsufficientFunds
    if isinstance(err, InsufficientFunds):
        return f"your wallet has {err.balance} chips" if err.balance else "your wallet is empty"
    return "the cashier could not take it"


def _sum_pays(pays: tuple[tuple[str, int], ...]) -> dict[str, int]:
    """Pays by ledger key (games name players by display name)."""
    total: dict[str, int] = {}
    for player, amount in pays:
        key = name_key(player)
        total[key] = total.get(key, 0) + amount
    return total

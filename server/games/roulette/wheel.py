"""The roulette wheel as a pure state machine: commands and ticks in, events out.

    wheel = RouletteWheel(RouletteOptions(), draw, tick_hz=10, table_id="run7:roulette")
    wheel.bet("ann", "split 17 20 5")   # [Hold, BetAccepted] or [BetRefused]
    wheel.unbet("ann", "all")           # [Refund, BetRemoved, ...] until No more bets
    wheel.spin("ann", solo=True)        # alone at the wheel: No more bets at once
    wheel.advance(ticks, multiplayer)   # windows, last call, no more bets, ball drop
    wheel.hold_refused(key, reason)     # the ledger refused a Hold: the wager never was
    wheel.leave("ann"); wheel.disconnect("ann")   # bets ride on the next spin
    wheel.close("shutdown")             # every bet not yet spun is refunded

Nothing here awaits, reads a clock, does I/O or makes randomness: the pocket
is `draw(37)`, handed in (a fair source, or fixed pockets in tests). Money
intents come before the facts that need them written: Hold before
BetAccepted, Refund before BetRemoved, the spin's single Settle before the
per-player Settlements. Every intent key is f"{table_id}:{n}", unique per table.
If the ledger refuses a Hold, the table calls `hold_refused(key)` before any
other input and shows the BetCancelled it returns instead of the BetAccepted
that followed the Hold; no intent ever names a stake that was not held.

Rounds (docs/play-roulette.md "A round"): the wheel is idle until someone has a bet. With others at
the wheel (`multiplayer`), a bet opens a window of `bet_window` seconds with a
last call at `last_call` seconds left, then "No more bets", and the ball drops
`spin_seconds` later. Alone, a player is never forced: the window does not run
and `spin` closes betting at once. Bets of players who left ride: if only
such bets are on the layout, the window runs even with nobody seated, so
they are settled (to the wallet) instead of waiting forever.
"""
from __future__ import annotations

from collections import deque
from collections.abc import Callable

from server.games.intents import Hold, IntentKeys, Refund

from .bets import Bet, check, parse_noted, stake_problem
from .events import (
    BallDropped, BetAccepted, BetCancelled, BetRefused, BetRemoved, BetsRide, Event, SpinRefused,
    UnbetRefused, Wager, WheelClosed,
)
from .layout import POCKETS, call, colour
from .options import RouletteOptions
from .rounds import Phase, RoundClock
from .settlement import settle_spin
from .targets import pick

HISTORY = 20                  # pockets kept for the `table` view


class RouletteWheel:
    """One single-zero table's wheel and layout; see the module docstring."""

    call = staticmethod(call)

    def __init__(self, options: RouletteOptions, draw: Callable[[int], int], tick_hz: int,
                 table_id: str) -> None:
        problems = options.problems()
        if problems:
            raise ValueError("; ".join(problems))
        if type(tick_hz) is not int or tick_hz < 1:
            raise ValueError(f"tick_hz must be a whole number of ticks per second, got {tick_hz!r}")
        self.options, self.table_id, self._draw = options, table_id, draw
        self._clock = RoundClock(options, tick_hz)
        self._wagers: dict[str, Wager] = {}          # handle -> wager, in placement order
        self._away: set[str] = set()                 # left or disconnected, bets riding
        self._history: deque[int] = deque(maxlen=HISTORY)
        self._spins = 0
        self._key = IntentKeys(table_id)

    # -- views for the renderer and the table ---------------------------------
    @property
    def phase(self) -> Phase:
        return self._clock.phase

    @property
    def seconds_left(self) -> int | None:
        """Whole seconds until no more bets (BETTING) or the ball drops (SPINNING)."""
        return self._clock.seconds_left

    @property
    def history(self) -> tuple[int, ...]:
        """The last 20 pockets, newest first."""
        return tuple(self._history)

    @property
    def spins(self) -> int:
        """Spins completed; the next one is `spins + 1`."""
        return self._spins

    @property
    def wagers(self) -> tuple[Wager, ...]:
        """Every live wager, in placement order."""
        return tuple(self._wagers.values())

    @property
    def away(self) -> frozenset[str]:
        """Players who left with bets riding."""
        return frozenset(self._away)

    def bets_of(self, player: str) -> list[Wager]:
        """The player's live wagers in placement order; `unbet <n>` counts them from 1."""
        return [w for w in self._wagers.values() if w.player == player]

    # -- commands ------------------------------------------------------------
    def bet(self, player: str, words_or_bet: str | list[str] | Bet) -> list[Event]:
        """Place a bet from the words after `bet`, or a Bet: [Hold, BetAccepted] or [BetRefused]."""
        got = self._closed_problem("bets") or self._read(words_or_bet)
        if isinstance(got, str):
            return [BetRefused(player, got)]
        bet, note = got
        wager = Wager(self._key(), player, bet, bet.name)
        self._wagers[wager.handle] = wager
        self._away.discard(player)
        return [Hold(wager.handle, player, bet.amount), BetAccepted(wager, note)]

    def unbet(self, player: str, target: str | int) -> list[Event]:
        """Take bets down until no more bets: a number from `bets_of`, a bet's name, or all."""
        problem = self._closed_problem("removals")
        mine = self.bets_of(player)
        if problem is None and not mine:
            problem = "you have no bets on the layout"
        if problem is not None:
            return [UnbetRefused(player, problem)]
        chosen = pick(mine, target)
        if isinstance(chosen, str):
            return [UnbetRefused(player, chosen)]
        self._away.discard(player)
        events: list[Event] = []
        for w in chosen:
            del self._wagers[w.handle]
            events += [Refund(self._key(), w.handle), BetRemoved(w)]
        return events

    def _read(self, words_or_bet: str | list[str] | Bet) -> tuple[Bet, str | None] | str:
        """A bet this table takes (kind, pockets, limits) with its cents note, or why not."""
        if isinstance(words_or_bet, Bet):
            got: tuple[Bet, str | None] | str = check(words_or_bet) or (words_or_bet, None)
        else:
            got = parse_noted(words_or_bet)
        if isinstance(got, str):
            return got
        return stake_problem(got[0].amount, self.options.min_bet, self.options.max_bet) or got

    def hold_refused(self, key: str, reason: str = "the ledger refused the stake") -> list[Event]:
        """The table could not hold this stake: forget the wager (no money moved)."""
        wager = self._wagers.pop(key, None)
        if wager is None:
            return []
        if not self.bets_of(wager.player):
            self._away.discard(wager.player)
        return [BetCancelled(wager, reason)]

    def spin(self, player: str, solo: bool) -> list[Event]:
        """Alone at the wheel with a bet: no more bets now, the ball drops `spin_seconds` later."""
        problem = self._closed_problem("spin")
        if problem is None and not solo:
            problem = "others are at the wheel: it spins by itself when the betting window closes"
        if problem is None and not self.bets_of(player):
            problem = "place a bet first, then spin"
        if problem is not None:
            return [SpinRefused(player, problem)]
        self._away.discard(player)
        events = self._clock.no_more_bets(self._spins + 1)
        if self._clock.left == 0:
            self._drop(events)
        return events

    def leave(self, player: str) -> list[Event]:
        """The player got up: their bets ride on the next spin and are paid to the wallet."""
        return self._ride(player, disconnected=False)

    def disconnect(self, player: str) -> list[Event]:
        """The connection dropped: as leaving, nothing is forfeited."""
        return self._ride(player, disconnected=True)

    def rejoin(self, player: str) -> list[Event]:
        """The player is back at the wheel before their riding bets were spun."""
        self._away.discard(player)
        return []

    def close(self, why: str = "shutdown") -> list[Event]:
        """Shutdown or eviction: every bet not yet spun goes back; the wheel stops."""
        if self.phase is Phase.CLOSED:
            return []
        refunded = self.wagers
        events: list[Event] = [Refund(self._key(), w.handle) for w in refunded]
        self._wagers.clear()
        self._away.clear()
        self._clock.close()
        return events + [WheelClosed(why, refunded)]

    # -- time ----------------------------------------------------------------
    def advance(self, ticks: int, multiplayer: bool = False) -> list[Event]:
        """`ticks` passed. `multiplayer`: two or more active players are at the wheel."""
        if ticks < 0:
            raise ValueError("ticks cannot be negative")
        events: list[Event] = []
        clock, spin = self._clock, self._spins + 1
        while clock.phase is not Phase.CLOSED:
            running = bool(self._wagers) and self._forced(multiplayer)
            if clock.phase is Phase.IDLE:
                if not running:
                    break
                events += clock.open(spin)
                continue
            if clock.phase is Phase.BETTING and not running:
                clock.idle()                      # nobody to wait for, or solo now: never forced
                break
            ticks, said, ended = clock.run(ticks, spin)
            events += said
            if not ended:
                break
            if clock.phase is Phase.BETTING:
                events += clock.no_more_bets(spin)
            else:
                self._drop(events)
                spin = self._spins + 1
        return events

    # -- inside --------------------------------------------------------------
    def _closed_problem(self, what: str) -> str | None:
        if self.phase is Phase.CLOSED:
            return "the table is closed"
        if self.phase is Phase.SPINNING:
            return f"no more bets: no {what} until the ball drops" if what != "spin" \
                else "the ball is already spinning"
        return None

    def _forced(self, multiplayer: bool) -> bool:
        """Whether time drives the wheel: others are here, or only riding bets are down."""
        return multiplayer or all(w.player in self._away for w in self._wagers.values())

    def _ride(self, player: str, disconnected: bool) -> list[Event]:
        mine = self.bets_of(player)
        if not mine:
            return []
        self._away.add(player)
        return [BetsRide(player, tuple(mine), disconnected)]

    def _drop(self, events: list[Event]) -> None:
        """The ball drops: call the number, one Settle for the spin, one Settlement per player."""
        pocket = self._draw(len(POCKETS))
        if type(pocket) is not int or pocket not in POCKETS:
            raise ValueError(f"draw(37) returned {pocket!r}, not a pocket 0..36")
        self._spins += 1
        self._history.appendleft(pocket)
        events.append(BallDropped(self._spins, pocket, colour(pocket), call(pocket)))
        events += settle_spin(self.wagers, pocket, self._spins, self.options.la_partage,
                              self._key, self._away)
        self._wagers.clear()
        self._away.clear()
        self._clock.idle()

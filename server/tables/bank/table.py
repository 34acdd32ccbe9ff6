"""The bank craps table: the rules state plus seats, the shooter queue and pacing.

Seating policy (RULES.md "Bank craps", "Table timing"):
- seats form the shooter queue; arrivals join at the tail; a made point keeps
  the shooter; a seven-out sends them to the tail; sitting-out seats are skipped;
- a departing shooter's hand goes on with the next shooter, point and bonus
  progress intact (the rules state knows only "the hand");
- `leave`, `sitout` and a manual-mode `stop` wait for the player's last live bet:
  until then they stay seated (and shoot, if it is their turn) but bet no more;
- a disconnect forfeits live bets; shutdown refunds every stake;
- the dice rotate (reveal and re-commit) at the end of every shooter hand.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from server.config.model import TableConfig
from server.dice.fair import FairDice
from server.games.craps import events as ev
from server.games.craps.bets import Kind
from server.games.craps.limits import Limits
from server.games.craps.outcome import rulebook
from server.games.craps.table import CrapsTable
from server.games.intents import Settle
from server.tables.bank.pacing import Pacing, Signal
from server.tables.bank import render
from server.tables.game import HandResult, Note, Viewer

COMMANDS = {
    "bet": "bet <kind> [numbers] <amount> - place a wager, e.g. bet pass 10, bet place 6 12, bet hop 2 3 5. 'help craps' lists the kinds.",
    "bets": "bets - your wagers, numbered for unbet.",
    "unbet": "unbet <number|name|all> - take down a wager that is not a contract (pass, come and bonus bets stay).",
    "roll": "roll - as the shooter, roll the dice (once the betting window has closed).",
    "autoroll": "autoroll - as the shooter, roll every few seconds while you have live bets; 'stop' ends it.",
    "stop": "stop - end autoroll; without autoroll, leave the table once your bets are decided.",
    "sitout": "sitout - stop shooting and betting once your bets are decided; 'play craps' to come back.",
}


@dataclass
class Seat:
    player: str
    sitting_out: bool = False
    autoroll: bool = False
    leaving: str | None = None      # "leave" or "sitout" once the last live bet is decided


@dataclass(frozen=True)
class ShooterUp:
    player: str
    dealer: bool = False            # the dealer took the dice (nobody can shoot)


@dataclass(frozen=True)
class Throw:
    """Who threw the dice that the next Rolled shows."""

    shooter: str | None
    dealer: bool


@dataclass(frozen=True)
class WindowClosed:
    shooter: str
    seconds: int


@dataclass(frozen=True)
class LastCall:
    seconds: int


@dataclass(frozen=True)
class BetsSummary:
    """Show a player their numbered live wagers (as they stand when shown)."""

    player: str


@dataclass(frozen=True)
class RollSettlement:
    """One player's consolidated result of a roll."""

    player: str
    won: tuple[tuple[str, int], ...]       # (bet name, win over the stake)
    lost: tuple[tuple[str, int], ...]      # (bet name, stake lost)
    pushed: tuple[tuple[str, int], ...]    # (bet name, stake returned)
    commission: int

    @property
    def net(self) -> int:
        return sum(a for _, a in self.won) - sum(a for _, a in self.lost)


class BankCrapsTable:
    word = "craps"
    commands = COMMANDS

    def __init__(self, config: TableConfig, tick_hz: int, seed: int | None = None) -> None:
        self.config = config
        self.tick_hz = tick_hz
        self.state = CrapsTable(config)
        self.dice = FairDice(config.id, seed=seed)
        self.queue: list[Seat] = []
        t = config.options.timing
        self.pacing = Pacing(t.window * tick_hz, t.last_call * tick_hz, t.shooter * tick_hz,
                             t.autoroll * tick_hz)
        self._shooter: str | None = None
        self.last_dice: tuple[int, int] | None = None

    # --- who is who -------------------------------------------------------
    def seated(self) -> list[str]:
        return [s.player for s in self.queue]

    def _seat(self, player: str) -> Seat | None:
        return next((s for s in self.queue if s.player == player), None)

    def _active(self) -> list[Seat]:
        return [s for s in self.queue if not s.sitting_out]

    def shooter(self) -> str | None:
        active = self._active()
        return active[0].player if active else None

    def _multiplayer(self) -> bool:
        return len(self._active()) >= 2

    def _live(self, player: str | None = None) -> bool:
        if player is None:
            return bool(self.state.wagers)
        return any(w.player == player for w in self.state.wagers.values())

    def phase(self) -> str:
        point = self.state.point
        return f"point {point}" if point else "come-out"

    def _changed(self, before_active: int, before_shooter: str | None) -> list[Any]:
        """Pacing and announcements after seats change."""
        events: list[Any] = []
        now = len(self._active())
        if (before_active >= 2) != (now >= 2):     # went solo, or a second player sat down
            self.pacing.restart(multiplayer=now >= 2)
        shooter = self.shooter()
        if shooter != before_shooter and shooter is not None:
            events.append(ShooterUp(shooter))
        self._shooter = shooter
        return events

    # --- seating ------------------------------------------------------------
    def sit(self, player: str, wallet: int) -> list[Any]:
        before = (len(self._active()), self.shooter())
        seat = self._seat(player)
        if seat is not None:
            if seat.sitting_out:
                seat.sitting_out = False
                return [Note(None, f"{player} is back in the game."), *self._changed(*before)]
            if seat.leaving:
                seat.leaving = None
                return [Note((player,), "You stay at the table.")]
            return [Note((player,), "You are already at this table.")]
        if len(self.queue) >= self.config.max_players:
            return [Note((player,), f"The table is full ({self.config.max_players} players). Try 'watch craps'.")]
        self.queue.append(Seat(player))
        return [Note(None, f"{player} joins the table."),
                Note((player,), f"Welcome to {self.config.id}: bets from {self.config.min_bet} to "
                                f"{self.config.max_bet}. 'table' shows the layout, 'help craps' the bets."),
                *self._changed(*before)]

    def leave(self, player: str) -> list[Any]:
        return self._request_leave(player, "leave")

    def _request_leave(self, player: str, how: str) -> list[Any]:
        seat = self._seat(player)
        if seat is None:
            return [Note((player,), "You are not seated here.")]
        if self._live(player):
            seat.leaving = how
            return [Note((player,), f"You will {'leave' if how == 'leave' else 'sit out'} once your "
                                    "live bets are decided; no new bets meanwhile.")]
        return self._depart(seat, how)

    def _depart(self, seat: Seat, how: str) -> list[Any]:
        before = (len(self._active()), self.shooter())
        seat.leaving = None
        seat.autoroll = False
        if how == "sitout":
            seat.sitting_out = True
            events: list[Any] = [Note(None, f"{seat.player} sits out.")]
        else:
            self.queue.remove(seat)
            events = [Note(None, f"{seat.player} leaves the table.")]
        return events + self._changed(*before)

    def disconnect(self, player: str) -> list[Any]:
        seat = self._seat(player)
        if seat is None:
            return []
        before = (len(self._active()), self.shooter())
        self.queue.remove(seat)
        events = self.state.forfeit(player)
        return [*events, Note(None, f"{player} has gone; their live bets are forfeit."),
                *self._changed(*before)]

    # --- commands -----------------------------------------------------------
    def act(self, player: str, words: list[str], wallet: int) -> list[Any]:
        seat = self._seat(player)
        if seat is None:
            return [Note((player,), "Sit down first: play craps.")]
        verb, rest = words[0], words[1:]
        if verb == "bet":
            return self._bet(seat, rest)
        if verb == "bets":
            return [BetsSummary(player)]
        if verb == "unbet":
            if not rest:
                return [Note((player,), "Usage: unbet <number|name|all>")]
            events = self.state.unbet(player, " ".join(rest))
            return events + [BetsSummary(player)]
        if verb == "roll":
            return self._roll_command(seat)
        if verb == "autoroll":
            if self.shooter() != player:
                return [Note((player,), "Only the shooter can autoroll.")]
            if not self._live(player):
                return [Note((player,), "Autoroll runs while you have live bets: bet first.")]
            seat.autoroll = True
            return [Note((player,), f"Autoroll on: the dice roll every {self.config.options.timing.autoroll} "
                                    "seconds while you have live bets. 'stop' ends it.")]
        if verb == "stop":
            if seat.autoroll:
                seat.autoroll = False
                return [Note((player,), "Autoroll off. You keep your seat and your bets.")]
            return self._request_leave(player, "leave")
        if verb == "sitout":
            return self._request_leave(player, "sitout")
        return [Note((player,), f"Bank craps has no '{verb}'.")]

    def _bet(self, seat: Seat, words: list[str]) -> list[Any]:
        if seat.leaving:
            return [Note((seat.player,), "You are on your way out: no new bets ('play craps' to stay).")]
        if seat.sitting_out:
            return [Note((seat.player,), "You are sitting out: 'play craps' to come back in.")]
        if not words:
            return [Note((seat.player,), "Usage: bet <kind> [numbers] <amount>, e.g. bet pass 10")]
        events = self.state.bet(seat.player, words)
        if not any(isinstance(e, ev.BetAccepted) for e in events):
            return events
        # The hold first: the bet is shown as accepted only once it is durable.
        holds = [e for e in events if not isinstance(e, ev.BetAccepted)]
        return holds + [e for e in events if isinstance(e, ev.BetAccepted)] + [BetsSummary(seat.player)]

    def _roll_command(self, seat: Seat) -> list[Any]:
        if self.shooter() != seat.player:
            who = self.shooter()
            return [Note((seat.player,), f"{who} is the shooter." if who else "Nobody can shoot now.")]
        if not self._live():
            return [Note((seat.player,), "Nobody has a bet down: bet first, then roll.")]
        if self._multiplayer():
            problem = self.pacing.roll_problem(self.tick_hz)
            if problem:
                return [Note((seat.player,), problem)]
        return self._roll(dealer=False)

    # --- rolling ------------------------------------------------------------
    def _roll(self, dealer: bool) -> list[Any]:
        shooter = self.shooter()
        dice = self.dice.roll()
        self.last_dice = dice
        events: list[Any] = [Throw(shooter, dealer)]
        before_view = self.state.view
        outcome = self.state.roll(dice)
        events += outcome
        events += self._settlements(outcome)
        if any(isinstance(e, ev.SevenOut) for e in outcome):
            events.append(HandResult((("shooter", shooter or "dealer"), ("rolls", before_view.rolls + 1),
                                      ("points_made", bin(before_view.fire).count("1")))))
            self.dice.rotate()
            seat = self._seat(shooter) if shooter else None
            if seat is not None and len(self.queue) > 1:
                self.queue.remove(seat)
                self.queue.append(seat)
        # Players whose last bet was just decided: finish their leave, stop autoroll.
        before = (len(self._active()), shooter)
        for seat in list(self.queue):
            if self._live(seat.player):
                continue
            if seat.autoroll:
                seat.autoroll = False
                events.append(Note((seat.player,), "Your bets are done: autoroll stops."))
            if seat.leaving:
                events += self._depart(seat, seat.leaving)
        self.pacing.restart(multiplayer=self._multiplayer())
        shooter_now = self.shooter()
        if shooter_now != before[1] and shooter_now is not None and not any(
                isinstance(e, ShooterUp) and e.player == shooter_now for e in events):
            events.append(ShooterUp(shooter_now))
        self._shooter = shooter_now
        return events

    def _settlements(self, outcome: list[Any]) -> list[Any]:
        won: dict[str, list] = defaultdict(list)
        lost: dict[str, list] = defaultdict(list)
        pushed: dict[str, list] = defaultdict(list)
        commission: dict[str, int] = defaultdict(int)
        players: list[str] = []
        for e in outcome:
            if isinstance(e, (ev.BetWon, ev.BetLost, ev.BetPushed)):
                p = e.wager.player
                if p not in players:
                    players.append(p)
                if isinstance(e, ev.BetWon):
                    won[p].append((e.wager.name, e.amount))
                    commission[p] += e.commission
                elif isinstance(e, ev.BetLost):
                    lost[p].append((e.wager.name, e.wager.bet.amount))
                else:
                    pushed[p].append((e.wager.name, e.wager.bet.amount))
        out: list[Any] = []
        for p in players:
            out.append(RollSettlement(p, tuple(won[p]), tuple(lost[p]), tuple(pushed[p]), commission[p]))
        for p in self.seated():
            if p in players or self._live(p):
                out.append(BetsSummary(p))
        return out

    # --- time -----------------------------------------------------------------
    def advance(self, ticks: int) -> list[Any]:
        events: list[Any] = []
        for _ in range(ticks):
            shooter = self.shooter()
            if shooter is None:
                break
            seat = self._seat(shooter)
            auto = bool(seat and seat.autoroll and self._live(shooter))
            if len(self._active()) < 2 and not auto:
                break                                  # solo: nothing is ever forced
            for signal in self.pacing.tick(self._live(), auto):
                if signal is Signal.LAST_CALL:
                    events.append(LastCall(self.pacing.seconds_left(self.tick_hz)))
                elif signal is Signal.WINDOW_CLOSED:
                    events.append(WindowClosed(shooter, self.config.options.timing.shooter))
                elif signal in (Signal.DEALER_ROLL, Signal.AUTOROLL):
                    events += self._roll(dealer=signal is Signal.DEALER_ROLL)
                    break
        return events

    # --- reload ----------------------------------------------------------------
    def between_hands(self) -> bool:
        """The come-out with no roll pending: a removed table may close here,
        refunding what is left (odds, place bets, established come bets)."""
        return self.state.point == 0


    def reconfigure(self, config: TableConfig) -> bool:
        """Take new settings live when that is fair to every live wager: limits
        and odds apply to the next wager, timing to the next window; a new
        field payout waits until no field bet is live."""
        old = self.config.options
        new = config.options
        if config.game != "craps" or new.variant != old.variant:
            return False
        if new.field_12 != old.field_12 and any(w.bet.kind is Kind.FIELD for w in self.state.wagers.values()):
            return False
        self.config = config
        self.state.limits = Limits.of(config)
        self.state.book = rulebook(new.field_12)
        t, hz = new.timing, self.tick_hz
        self.pacing.window, self.pacing.last_call = t.window * hz, t.last_call * hz
        self.pacing.shooter, self.pacing.autoroll = t.shooter * hz, t.autoroll * hz
        return True

    # --- the host's other inputs -------------------------------------------
    def hold_refused(self, key: str, reason: str) -> list[Any]:
        w = self.state.wagers.get(key)
        events = self.state.cancel(key)
        if w is not None:
            events.insert(0, Note((w.player,), f"Wager refused: {reason}"))
        return events

    def close(self, why: str) -> list[Any]:
        return [Note(None, why), *self.state.refund_all()]

    def players_of(self, intent: Any) -> tuple[str, ...]:
        if isinstance(intent, Settle):
            return tuple(p for p, _ in intent.pays) or tuple(self.seated())
        return tuple(self.seated())

    # --- what people see ------------------------------------------------------
    def render(self, event: Any, viewer: Viewer) -> list[str]:
        return render.event_lines(self, event, viewer)

    def view(self, viewer: Viewer) -> list[str]:
        return render.table_view(self, viewer)

    def rules(self) -> list[str]:
        return render.rules_text(self)

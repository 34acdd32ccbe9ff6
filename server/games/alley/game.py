"""The alley craps table as a pure state machine (spec 000, docs/play-alley-craps.md).

The seam with the table, in the manner of h11: commands and elapsed ticks
go in, lists of events come out; nothing here awaits, sleeps, prints, reads a
clock or makes randomness (dice come from the DiceSource handed in).

    problem = start_problem(players, options, max_players)  # None, or a one-line reason
    game = AlleyGame(players, options, dice, ticks_per_second,
                     max_players=table.max_players, game_id="alley-1:g3")
    events = game.start()                  # buy-in Holds, GameStarted, ShooterUp
    events = game.act(player, Bet(60))     # Fade(20), Fade(0) declines, Roll(), PassDice()
    events = game.advance(ticks)           # windows expire
    events = game.leave(player)            # leave or drop; see below
    events = game.hold_refused(key)        # the ledger refused a Hold (facts only)
    events = game.close("shutdown")        # everyone gets their bankroll back

Each list mixes facts (server.games.alley.events) and money intents
(server.games.intents). The table applies the intents in order and hands
the facts to the renderer. It reports a refused Hold with `hold_refused(key)`
as soon as it learns of it, even in the middle of a batch: the answer is facts
only, and the consequences (with any money they move) come with the next
input, so no intent ever names a stake whose Hold the table has not written
yet. The table must keep calling `advance` while a game runs. `game_id` must
make the intent keys unique within the table (e.g. table id plus a game
counter). A refused command is a `Refused` event with a one-line reason and
changes nothing; refusals.py holds the table of what may be typed when.

Money (escrow.py says why, cashout.py who is paid what): each buy-in is one
Hold; bankrolls change only inside the game; when chips leave the table, and
after every decided pass, one Settle closes every open stake and pays them
out, re-holding the bankrolls of those who stay. So between passes the ledger holds exactly each
bankroll, and a crash refunds the bankrolls of the last decided pass. House
net 0.

Windows (docs/play-alley-craps.md says it in players' words): `bet_window`
for the action (timeout passes the bones), `fade_window` for each opponent in
seat order (timeout sits that pass out; Fade(0) declines), `roll_window` for
each roll (timeout: the dealer rolls), `choice_window` after a pass for `roll`
or `pass` (timeout passes). In the choice, `bet <amount>` means roll again.

Leaving: a player who leaves is out at once and is never asked again. Their
chips in a pass in play (a fade, or a rolling shooter's covered action) stay
in it; they are paid their whole bankroll when that pass ends (at once if no
pass is in play). A shooter who leaves before the dice fly calls the pass off
(nothing was at risk); one who leaves during the rolls has the dealer roll it
out. If no pass has been decided when fewer than two players with money remain,
the game is cancelled and everyone gets their buy-in back.

This module is the flow of a pass: whose turn it is, which window runs, what
follows what. The rest lives beside it: the phases, the pass and the view
(state.py), who sits and holds what (seats.py), the ledger stakes (escrow.py),
chips leaving the table (cashout.py), the refusals (refusals.py), what a roll
decides and which amounts are valid (rules.py).
"""
from __future__ import annotations

from typing import Sequence

from server.games.alley.options import AlleyOptions
from server.dice.source import DiceSource
from server.games.alley import cashout
from server.games.alley import events as ev
from server.games.alley.escrow import Escrow
from server.games.alley.events import Event
from server.games.alley.refusals import Moment, declines, refusal
from server.games.alley.rules import SHOOTER_WINS, Decision, decide
from server.games.alley.seats import Seats
from server.games.alley.state import (
    WAITING, AlleyView, PassState, Phase, seconds_to_ticks, start_problem,
)


class AlleyGame:
    """One game of alley craps; see the module docstring for the seam."""

    def __init__(self, players: Sequence[str], options: AlleyOptions, dice: DiceSource,
                 ticks_per_second: int, *, max_players: int = 6, game_id: str = "alley") -> None:
        problem = start_problem(players, options, max_players)
        if problem:
            raise ValueError(problem)
        self.options = options
        self._dice = dice
        self._seats = Seats.buy_in(players, options.buy_in)
        self._escrow = Escrow(game_id)
        self._window = {phase: seconds_to_ticks(seconds, ticks_per_second) for phase, seconds in (
            (Phase.BETTING, options.bet_window), (Phase.FADING, options.fade_window),
            (Phase.ROLLING, options.roll_window), (Phase.CHOOSING, options.choice_window))}
        self.phase = Phase.READY
        self._clock = 0
        self._shooter: str | None = None
        self._pass: PassState | None = None
        self._decided = 0
        self._refused: list[str] = []                   # Holds refused, not yet acted on

    # ---- reading ---------------------------------------------------------------
    @property
    def bankrolls(self) -> dict[str, int]:
        """Table bankrolls of everyone whose chips are still in the game."""
        return dict(self._seats.bank)

    @property
    def players(self) -> tuple[str, ...]:
        """Players still seated in this game, in seat order."""
        return tuple(q for q in self._seats.order if q in self._seats.seated)

    @property
    def shooter(self) -> str | None:
        return self._shooter

    @property
    def held(self) -> int:
        """Chips the ledger holds for this game (equals the sum of bankrolls)."""
        return self._escrow.total

    def view(self) -> AlleyView:
        """What `table` shows (state.py builds it)."""
        return AlleyView.of(self.phase, self._shooter, self._pass, self._clock, self._seats.balances())

    # ---- inputs ----------------------------------------------------------------
    def start(self) -> list[Event]:
        if self.phase is not Phase.READY:
            raise RuntimeError("the game has already started")
        order = self._seats.order
        problem = start_problem(order, self.options, len(order))
        if problem:
            raise ValueError(problem)
        holds = [self._escrow.hold(p, self.options.buy_in) for p in order]
        total = self.options.buy_in * len(order)
        return [*holds, ev.GameStarted(tuple(order), self.options.buy_in, total),
                *self._begin_betting(order[0])]

    def act(self, player: str, action: ev.Action) -> list[Event]:
        flushed = self._flush()
        return flushed + self._act(player, action)

    def _act(self, player: str, action: ev.Action) -> list[Event]:
        moment = Moment(player, self.phase, self._shooter, self._pass, self._seats, self.options.bet_unit)
        problem = refusal(moment, action)
        if problem:
            return [ev.Refused(player, problem)]
        if isinstance(action, ev.Bet):
            return self._on_bet(player, action.amount)
        if isinstance(action, ev.Fade):
            return self._on_fade(player, action)
        if isinstance(action, ev.Roll):     # roll the dice, or after a pass: shoot another
            return self._roll(by_dealer=False) if self.phase is Phase.ROLLING else self._begin_betting(player)
        return self._pass_bones(ev.PassReason.CHOSE)

    def advance(self, ticks: int) -> list[Event]:
        """Time passing; a slow tick is caught up window by window."""
        if ticks < 0:
            raise ValueError("ticks cannot be negative")
        events = self._flush()
        while ticks > 0 and self.phase in WAITING:
            if ticks < self._clock:
                self._clock -= ticks
                break
            ticks -= self._clock
            events += self._expire()
        return events

    def leave(self, player: str) -> list[Event]:
        """The player leaves or drops: out at once, paid when nothing of theirs is in play."""
        flushed = self._flush()
        return flushed + self._leave(player)

    def _leave(self, player: str) -> list[Event]:
        seats = self._seats
        if player not in seats.seated:
            return [ev.Refused(player, "you are not playing at this table")]
        if self.phase in (Phase.READY, Phase.OVER, Phase.CLOSED):
            seats.drop(player)
            if self.phase is Phase.READY:
                seats.order.remove(player)
            return [ev.PlayerLeft(player, 0)]
        p = self._pass    # a shooter leaving before the roll calls the pass off: nothing at risk
        live = p is not None and (self.phase is Phase.ROLLING
                                  or self.phase is Phase.FADING and player != p.shooter)
        at_risk = (p.covered if player == p.shooter else p.fades.get(player, 0)) if p and live else 0
        seats.leave(player)
        return [ev.PlayerLeft(player, at_risk)] + self._after_removal(player, call_off=False)

    def hold_refused(self, *keys: str) -> list[Event]:
        """The ledger refused these Holds: their players are out, chips in their wallets.

        Only facts come back: the table may still be applying Holds of the same
        batch, so what follows (the bones moving on, the game ending and its
        Settle) comes with the next input."""
        if self.phase in (Phase.OVER, Phase.CLOSED):
            return []
        dropped = [d for d in map(self._escrow.drop, keys) if d is not None]
        for player, _ in dropped:
            self._seats.drop(player)
            self._refused.append(player)
        return [ev.BuyInRefused(player) for player, _ in dropped]

    def close(self, reason: str = "shutdown") -> list[Event]:
        """Shutdown: a pass in play is called off, every bankroll goes back to its wallet."""
        self._refused.clear()
        if self.phase in (Phase.OVER, Phase.CLOSED):
            return []
        events = cashout.close(self._seats, self._escrow, reason)
        self.phase, self._pass = Phase.CLOSED, None
        return events

    # ---- commands (allowed: refusals.py) ---------------------------------------
    def _on_bet(self, player: str, amount: int) -> list[Event]:
        queue = [q for q in self._seats.after(player) if self._seats.has_money(q)]
        self._pass = PassState(player, amount, queue)
        return [ev.ActionSet(player, amount)] + self._ask_next()

    def _on_fade(self, player: str, fade: ev.Fade) -> list[Event]:
        p = self._pass
        assert p is not None
        p.queue.pop(0)                      # the refusals let only the opponent being asked fade
        if declines(fade):
            return [ev.FadeDeclined(player)] + self._ask_next()
        p.fades[player] = fade.amount
        events: list[Event] = [ev.Faded(player, fade.amount, p.covered, p.action - p.covered)]
        if p.covered == p.action:
            p.queue.clear()
            return events + [ev.ActionCovered(p.shooter, p.action)] + self._start_rolling()
        return events + self._ask_next()

    # ---- the pass --------------------------------------------------------------
    def _enter(self, phase: Phase) -> None:
        self.phase = phase
        self._clock = self._window[phase]

    def _begin_betting(self, shooter: str) -> list[Event]:
        self._shooter, self._pass = shooter, None
        self._enter(Phase.BETTING)
        bank = self._seats.bank[shooter]
        return [ev.ShooterUp(shooter, bank, self.options.bet_unit, bank)]

    def _ask_next(self) -> list[Event]:
        p = self._pass
        assert p is not None
        while p.queue and not self._seats.has_money(p.queue[0]):
            p.queue.pop(0)
        if p.queue:
            asked, uncovered = p.queue[0], p.action - p.covered
            self._enter(Phase.FADING)
            return [ev.FadeAsked(asked, p.shooter, p.action, uncovered, self.options.bet_unit,
                                 min(uncovered, self._seats.bank[asked]))]
        if p.covered == 0:
            self._pass = None
            return [ev.NoAction(p.shooter, p.action)] + self._after_pass()
        return [ev.ActionPartlyCovered(p.shooter, p.action, p.covered)] + self._start_rolling()

    def _start_rolling(self) -> list[Event]:
        assert self._pass is not None
        if self._pass.shooter not in self._seats.seated:
            return self._roll(by_dealer=True)
        self._enter(Phase.ROLLING)
        return [ev.RollAsked(self._pass.shooter, None)]

    def _roll(self, by_dealer: bool) -> list[Event]:
        """Roll until a decision if the shooter is gone, else once."""
        p = self._pass
        assert p is not None
        events: list[Event] = []
        while True:
            dice = self._dice.roll()
            total = dice[0] + dice[1]
            decision = decide(p.point, total)
            events.append(ev.Rolled(p.shooter, dice, total, p.point, decision, by_dealer))
            if decision in SHOOTER_WINS:
                return events + self._resolve(decision)
            if decision is Decision.POINT_SET:
                p.point = total
            if p.shooter in self._seats.seated:
                self._enter(Phase.ROLLING)
                return events + [ev.RollAsked(p.shooter, p.point)]
            by_dealer = True

    def _resolve(self, decision: Decision) -> list[Event]:
        p = self._pass
        assert p is not None
        won = SHOOTER_WINS[decision]
        sign = 1 if won else -1
        results = [(p.shooter, sign * p.covered)] + [(q, -sign * a) for q, a in p.fades.items()]
        for player, delta in results:
            self._seats.bank[player] += delta
            self._escrow.at_risk(player, abs(delta))
        self._pass, self._decided = None, self._decided + 1
        events: list[Event] = [ev.PassResolved(p.shooter, won, decision, p.covered, tuple(results)),
                               ev.Balances(self._seats.balances())]
        return events + self._after_pass()

    def _after_pass(self) -> list[Event]:
        """Between passes: settle up, then the shooter chooses or the bones move on."""
        events, over = self._settle_up()
        if over:
            return events
        shooter = self._shooter
        assert shooter is not None
        if self._seats.has_money(shooter):
            self._enter(Phase.CHOOSING)
            return events + [ev.ChoiceAsked(shooter)]
        reason = ev.PassReason.CLEANED_OUT if shooter in self._seats.seated else ev.PassReason.LEFT
        return events + self._pass_bones(reason)

    def _pass_bones(self, reason: ev.PassReason) -> list[Event]:
        shooter = self._shooter
        assert shooter is not None
        nxt = self._seats.next_shooter(shooter)
        return [ev.BonesPassed(shooter, nxt, reason)] + self._begin_betting(nxt)

    def _expire(self) -> list[Event]:
        p, waiting = self._pass, WAITING[self.phase]
        if self.phase is Phase.FADING:
            assert p is not None
            return [ev.TimedOut(p.queue.pop(0), waiting)] + self._ask_next()
        shooter = self._shooter
        assert shooter is not None
        if self.phase is Phase.ROLLING:
            return [ev.TimedOut(shooter, waiting)] + self._roll(by_dealer=True)
        return [ev.TimedOut(shooter, waiting)] + self._pass_bones(ev.PassReason.TIMEOUT)

    # ---- people leaving, money leaving ------------------------------------------
    def _flush(self) -> list[Event]:
        """Act on Holds refused since the last input."""
        refused, self._refused = self._refused, []
        events: list[Event] = []
        for player in refused:
            if self.phase in WAITING:
                events += self._after_removal(player, call_off=True)
        return events

    def _after_removal(self, player: str, call_off: bool) -> list[Event]:
        """Carry on after `player` is gone (left, or their Hold was refused)."""
        p = self._pass
        in_play = p is not None and self.phase in (Phase.FADING, Phase.ROLLING)
        involved = p is not None and (player == p.shooter or player in p.fades)
        if p is not None and in_play and involved and (
                call_off or self.phase is Phase.FADING and player == p.shooter):
            self._pass = None
            events: list[Event] = [ev.PassCalledOff(p.shooter)]
            more, over = self._settle_up()
            if over:
                return events + more
            if self._seats.has_money(p.shooter):
                return events + more + self._begin_betting(p.shooter)
            return events + more + self._pass_bones(ev.PassReason.LEFT)
        if in_play:
            assert p is not None
            if self.phase is Phase.FADING and p.queue and p.queue[0] == player:
                p.queue.pop(0)
                return self._ask_next()
            if self.phase is Phase.ROLLING and player == p.shooter:
                return self._roll(by_dealer=True)
            return []
        events, over = self._settle_up()
        if over or player != self._shooter:
            return events
        return events + self._pass_bones(ev.PassReason.LEFT)

    def _settle_up(self) -> tuple[list[Event], bool]:
        """No pass in play: chips leave the table (cashout.py); True if the game ended."""
        events, over = cashout.settle_up(self._seats, self._escrow, decided=self._decided > 0,
                                         buy_in=self.options.buy_in)
        if over:
            self.phase, self._pass = Phase.OVER, None
        return events, over

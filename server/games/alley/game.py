"""The alley craps table as a pure state machine (spec 000, RULES.md "Alley craps").

The seam with the table host, in the manner of h11: commands and elapsed ticks
go in, lists of events come out; nothing here awaits, sleeps, prints, reads a
clock or makes randomness (dice come from the DiceSource handed in).

    problem = start_problem(players, options, max_players)  # None, or a one-line reason
    game = AlleyGame(players, options, dice, ticks_per_second,
                     max_players=table.max_players, game_id="alley-1:g3")
    events = game.start()                  # buy-in Holds, GameStarted, ShooterUp
    events = game.act(player, Bet(60))     # Fade(20), Fade(0) declines, Roll(), PassDice()
    events = game.advance(ticks)           # windows expire
    events = game.leave(player)            # leave or drop; see below
    events = game.hold_refused(*keys)      # the ledger refused Holds
    events = game.close("shutdown")        # everyone gets their bankroll back

Each list mixes facts (server.games.alley.events) and money intents
(server.games.intents). The host applies the intents in order and reports a
refused Holds of one batch together with `hold_refused(*keys)` before it
relays the next command. A refused
command is a `Refused` event with a one-line reason and changes nothing.

Money (see escrow.py for why): each buy-in is one Hold; bankrolls change only
inside the game; when chips leave the table one Settle closes every open stake
and pays them out, re-holding the bankrolls of those who stay. House net 0.

Flow: the shooter (seat order) has `bet_window` to set the action, or the bones
pass. Opponents are asked one at a time in seat order, each with `fade_window`;
no answer sits that pass out; `fade` / `fade 0` declines. Covered: "NO MORE
BETS". Nobody fading returns the action and the shooter chooses. Then the
shooter has `roll_window` for each roll, after which the dealer rolls for them.
After the pass: balances to all, then `roll` (another pass; `bet <amount>` is
taken as `roll` plus the bet) or `pass` within `choice_window` (timeout passes).
`pass` also works while the shooter is still to set the action.

Leaving: a player who leaves is out at once and is never asked again. Their
chips in a pass in play (a fade, or a rolling shooter's covered action) stay
in it; they are paid their whole bankroll when that pass ends (at once if no
pass is in play). A shooter who leaves before the dice fly calls the pass off
(nothing was at risk); one who leaves during the rolls has the dealer roll it
out. If no pass has been decided when fewer than two players with money remain,
the game is cancelled and everyone gets their buy-in back.
"""
from __future__ import annotations

from typing import Sequence

from server.config.model import AlleyOptions
from server.dice.source import DiceSource
from server.games.alley import events as ev
from server.games.alley.escrow import Escrow
from server.games.alley.rules import SHOOTER_WINS, Decision, amount_problem, decide
from server.games.alley.state import WAITING, AlleyView, Phase, PassState, seconds_to_ticks, start_problem
from server.games.intents import MoneyIntent

Event = ev.Fact | MoneyIntent


class AlleyGame:
    """One game of alley craps; see the module docstring for the seam."""

    def __init__(self, players: Sequence[str], options: AlleyOptions, dice: DiceSource,
                 ticks_per_second: int, *, max_players: int = 6, game_id: str = "alley") -> None:
        problem = start_problem(players, options, max_players)
        if problem:
            raise ValueError(problem)
        self.options = options
        self._dice = dice
        self._order = list(players)                     # seat order, never changes
        self._seated = set(players)
        self._bank = {p: options.buy_in for p in players}   # seated and unpaid leavers only
        self._unpaid: list[str] = []
        self._announced: set[str] = set()               # cleaned out, already told
        self._escrow = Escrow(game_id)
        self._window = {phase: seconds_to_ticks(seconds, ticks_per_second) for phase, seconds in (
            (Phase.BETTING, options.bet_window), (Phase.FADING, options.fade_window),
            (Phase.ROLLING, options.roll_window), (Phase.CHOOSING, options.choice_window))}
        self.phase = Phase.READY
        self._clock = 0
        self._shooter: str | None = None
        self._pass: PassState | None = None
        self._decided = 0

    # ---- reading ---------------------------------------------------------------
    @property
    def bankrolls(self) -> dict[str, int]:
        """Table bankrolls of everyone whose chips are still in the game."""
        return dict(self._bank)

    @property
    def shooter(self) -> str | None:
        return self._shooter

    @property
    def held(self) -> int:
        """Chips the ledger holds for this game (equals the sum of bankrolls)."""
        return self._escrow.total

    def view(self) -> AlleyView:
        p = self._pass
        waiting = {Phase.FADING: p.queue[0] if p and p.queue else None}.get(self.phase, self._shooter)
        live = self.phase in WAITING
        return AlleyView(self.phase, self._shooter, p.action if p else 0,
                         tuple(p.fades.items()) if p else (), p.point if p else None,
                         waiting if live else None, self._clock if live else 0, self._balances())

    # ---- inputs ----------------------------------------------------------------
    def start(self) -> list[Event]:
        if self.phase is not Phase.READY:
            raise RuntimeError("the game has already started")
        problem = start_problem(self._order, self.options, len(self._order))
        if problem:
            raise ValueError(problem)
        holds = [self._escrow.hold(p, self._bank[p]) for p in self._order]
        total = self.options.buy_in * len(self._order)
        return [*holds, ev.GameStarted(tuple(self._order), self.options.buy_in, total),
                *self._begin_betting(self._order[0])]

    def act(self, player: str, action: ev.Action) -> list[Event]:
        problem = self._act_problem(player)
        if problem:
            return [ev.Refused(player, problem)]
        if isinstance(action, ev.Bet):
            return self._on_bet(player, action.amount)
        if isinstance(action, ev.Fade):
            return self._on_fade(player, action.amount)
        if isinstance(action, ev.Roll):
            return self._on_roll(player)
        if isinstance(action, ev.PassDice):
            return self._on_pass(player)
        return [ev.Refused(player, "unknown command: bet, fade, roll or pass")]

    def advance(self, ticks: int) -> list[Event]:
        """Time passing; a slow tick is caught up window by window."""
        if ticks < 0:
            raise ValueError("ticks cannot be negative")
        events: list[Event] = []
        while ticks > 0 and self.phase in WAITING:
            if ticks < self._clock:
                self._clock -= ticks
                break
            ticks -= self._clock
            events += self._expire()
        return events

    def leave(self, player: str) -> list[Event]:
        """The player leaves or drops: out at once, paid when nothing of theirs is in play."""
        if player not in self._seated:
            return [ev.Refused(player, "you are not playing at this table")]
        self._seated.discard(player)
        if self.phase in (Phase.READY, Phase.OVER, Phase.CLOSED):
            if self.phase is Phase.READY:
                self._order.remove(player)
                del self._bank[player]
            return [ev.PlayerLeft(player, 0)]
        p = self._pass
        if self.phase is Phase.FADING and player == self._shooter:
            at_risk = 0
        elif p and self.phase in (Phase.FADING, Phase.ROLLING):
            at_risk = p.covered if player == p.shooter else p.fades.get(player, 0)
        else:
            at_risk = 0
        if self._bank[player]:
            self._unpaid.append(player)
        else:
            del self._bank[player]
        return [ev.PlayerLeft(player, at_risk)] + self._after_removal(player, call_off=False)

    def hold_refused(self, *keys: str) -> list[Event]:
        """The ledger refused these Holds (all refusals of one batch in one call):
        their players are out, their chips in their wallets."""
        if self.phase in (Phase.OVER, Phase.CLOSED):
            return []
        dropped = [d for d in map(self._escrow.drop, keys) if d is not None]
        for player, _ in dropped:
            self._seated.discard(player)
            self._bank.pop(player, None)
        events: list[Event] = [ev.BuyInRefused(player) for player, _ in dropped]
        for player, _ in dropped:
            if self.phase is not Phase.OVER:
                events += self._after_removal(player, call_off=True)
        return events

    def close(self, reason: str = "shutdown") -> list[Event]:
        """Shutdown: a pass in play is called off, every bankroll goes back to its wallet."""
        if self.phase in (Phase.OVER, Phase.CLOSED):
            return []
        balances = self._balances()
        intents = self._escrow.pay_out(dict(self._bank), {})
        self.phase, self._pass, self._unpaid = Phase.CLOSED, None, []
        self._bank = {q: 0 for q in self._order if q in self._seated}
        return [*intents, ev.GameClosed(reason, balances)]

    # ---- commands --------------------------------------------------------------
    def _act_problem(self, player: str) -> str | None:
        if self.phase is Phase.READY:
            return "the game has not started yet"
        if self.phase in (Phase.OVER, Phase.CLOSED):
            return "the game is over"
        if player not in self._seated:
            return "you are not playing at this table"
        return None

    def _on_bet(self, player: str, amount: int) -> list[Event]:
        if player != self._shooter:
            return [ev.Refused(player, f"only the shooter sets the action; {self._shooter} is shooting")]
        if self.phase not in (Phase.BETTING, Phase.CHOOSING):
            return [ev.Refused(player, "the action is already set")]
        problem = amount_problem(amount, self.options.bet_unit, self._bank[player], "your bankroll")
        if problem:
            return [ev.Refused(player, problem)]
        queue = [q for q in self._after(player) if self._bank.get(q)]
        self._pass = PassState(player, amount, queue)
        return [ev.ActionSet(player, amount)] + self._ask_next()

    def _on_fade(self, player: str, amount: int) -> list[Event]:
        p = self._pass
        if self.phase is not Phase.FADING or p is None:
            return [ev.Refused(player, "there is no action to fade right now")]
        if player == p.shooter:
            return [ev.Refused(player, "the shooter cannot fade their own action")]
        if not self._bank.get(player):
            return [ev.Refused(player, "you are cleaned out")]
        if player != p.queue[0]:
            if player in p.queue:
                return [ev.Refused(player, f"wait your turn: {p.queue[0]} is being asked")]
            return [ev.Refused(player, "you have had your turn on this pass")]
        if amount == 0 and not isinstance(amount, bool):
            p.queue.pop(0)
            return [ev.FadeDeclined(player)] + self._ask_next()
        uncovered, bank = p.action - p.covered, self._bank[player]
        limit = "the uncovered action" if uncovered <= bank else "your bankroll"
        problem = amount_problem(amount, self.options.bet_unit, min(uncovered, bank), limit)
        if problem:
            return [ev.Refused(player, problem)]
        p.queue.pop(0)
        p.fades[player] = amount
        events: list[Event] = [ev.Faded(player, amount, p.covered, p.action - p.covered)]
        if p.covered == p.action:
            p.queue.clear()
            return events + [ev.ActionCovered(p.shooter, p.action)] + self._start_rolling()
        return events + self._ask_next()

    def _on_roll(self, player: str) -> list[Event]:
        if player != self._shooter:
            return [ev.Refused(player, f"only the shooter rolls; {self._shooter} is shooting")]
        if self.phase is Phase.ROLLING:
            return self._roll(by_dealer=False)
        if self.phase is Phase.CHOOSING:
            return self._begin_betting(player)
        if self.phase is Phase.BETTING:
            return [ev.Refused(player, "set the action first: bet <amount>")]
        return [ev.Refused(player, "wait: the opponents are still fading")]

    def _on_pass(self, player: str) -> list[Event]:
        if player != self._shooter:
            return [ev.Refused(player, f"only the shooter passes the bones; {self._shooter} is shooting")]
        if self.phase not in (Phase.BETTING, Phase.CHOOSING):
            return [ev.Refused(player, "the pass is in play: it must be decided first")]
        return self._pass_bones(ev.PassReason.CHOSE)

    # ---- the pass --------------------------------------------------------------
    def _enter(self, phase: Phase) -> None:
        self.phase = phase
        self._clock = self._window[phase]

    def _begin_betting(self, shooter: str) -> list[Event]:
        self._shooter, self._pass = shooter, None
        self._enter(Phase.BETTING)
        bank = self._bank[shooter]
        return [ev.ShooterUp(shooter, bank, self.options.bet_unit, bank)]

    def _ask_next(self) -> list[Event]:
        p = self._pass
        assert p is not None
        while p.queue and not (p.queue[0] in self._seated and self._bank.get(p.queue[0])):
            p.queue.pop(0)
        if p.queue:
            asked, uncovered = p.queue[0], p.action - p.covered
            self._enter(Phase.FADING)
            return [ev.FadeAsked(asked, p.shooter, p.action, uncovered, self.options.bet_unit,
                                 min(uncovered, self._bank[asked]))]
        if p.covered == 0:
            self._pass = None
            return [ev.NoAction(p.shooter, p.action)] + self._after_pass()
        return [ev.ActionPartlyCovered(p.shooter, p.action, p.covered)] + self._start_rolling()

    def _start_rolling(self) -> list[Event]:
        assert self._pass is not None
        if self._pass.shooter not in self._seated:
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
            if p.shooter in self._seated:
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
            self._bank[player] += delta
        self._pass, self._decided = None, self._decided + 1
        return [ev.PassResolved(p.shooter, won, decision, p.covered, tuple(results)),
                ev.Balances(self._balances())] + self._after_pass()

    def _after_pass(self) -> list[Event]:
        """Between passes: settle up, then the shooter chooses or the bones move on."""
        events, over = self._settle_up()
        if over:
            return events
        shooter = self._shooter
        assert shooter is not None
        if shooter in self._seated and self._bank.get(shooter):
            self._enter(Phase.CHOOSING)
            return events + [ev.ChoiceAsked(shooter)]
        reason = ev.PassReason.CLEANED_OUT if shooter in self._seated else ev.PassReason.LEFT
        return events + self._pass_bones(reason)

    def _pass_bones(self, reason: ev.PassReason) -> list[Event]:
        shooter = self._shooter
        assert shooter is not None
        nxt = next(q for q in self._after(shooter) if self._bank.get(q) and q in self._seated)
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
    def _after_removal(self, player: str, call_off: bool) -> list[Event]:
        """Carry on after `player` is gone (left, or their Hold was refused)."""
        p = self._pass
        in_play = p is not None and self.phase in (Phase.FADING, Phase.ROLLING)
        involved = p is not None and (player == p.shooter or player in p.fades)
        if in_play and involved and (call_off or self.phase is Phase.FADING and player == p.shooter):
            assert p is not None
            self._pass = None
            events: list[Event] = [ev.PassCalledOff(p.shooter)]
            more, over = self._settle_up()
            if over:
                return events + more
            if p.shooter in self._seated and self._bank.get(p.shooter):
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
        """No pass in play: announce the cleaned out, end the game or pay leavers."""
        events: list[Event] = []
        for player in self._order:
            if player in self._seated and self._bank.get(player) == 0 and player not in self._announced:
                self._announced.add(player)
                events.append(ev.CleanedOut(player))
        active = [q for q in self._order if q in self._seated and self._bank.get(q)]
        if len(active) >= 2:
            return events + self._pay_leavers(), False
        return events + self._end(active[0] if active else None), True

    def _pay_leavers(self) -> list[Event]:
        pays = {q: self._bank.pop(q) for q in self._unpaid}
        self._unpaid = []
        if not any(pays.values()):
            return []
        stay = {q: self._bank[q] for q in self._order if q in self._seated and q in self._bank}
        return [*self._escrow.pay_out(pays, stay),
                *(ev.PaidOut(q, a) for q, a in pays.items() if a)]

    def _end(self, winner: str | None) -> list[Event]:
        self.phase, self._pass = Phase.OVER, None
        pays = {q: self._bank[q] for q in self._unpaid}
        if self._decided == 0:
            pays.update({q: a for q, a in self._bank.items() if q in self._seated})
            winner, reason = None, ev.GameEnd.CANCELLED
        elif winner is None:
            reason = ev.GameEnd.NOBODY_LEFT
        else:
            pays[winner] = self._bank[winner]
            everything = self.options.buy_in * len(self._order)
            reason = ev.GameEnd.CLEANED_HOUSE if pays[winner] == everything else ev.GameEnd.LAST_STANDING
        intents = self._escrow.pay_out(pays, {})
        for q in pays:
            if q in self._seated:
                self._bank[q] = 0
            else:
                del self._bank[q]
        self._unpaid = []
        pot = pays.get(winner, 0) if winner else 0
        paid = [ev.PaidOut(q, a) for q, a in pays.items() if a and q != winner]
        return [*intents, *paid, ev.GameOver(winner, pot, pot - self.options.buy_in if winner else 0, reason)]

    # ---- helpers ---------------------------------------------------------------
    def _after(self, player: str) -> list[str]:
        """Everyone else in seat order, starting after `player`."""
        i = self._order.index(player)
        return self._order[i + 1:] + self._order[:i]

    def _balances(self) -> tuple[tuple[str, int], ...]:
        return tuple((q, self._bank[q]) for q in self._order if q in self._bank)

"""Roulette at a table: the pure wheel (wheel.py) wired to the table's seats and dice.

Policy (docs/play-roulette.md), the table's Seating being who is here:
- the wheel runs on its own round clock when two or more are seated (or bets
  of players who left are down), so a lone player is never hurried: they
  type `spin` (which they may also do while riders' bets wait);
- leaving or dropping forfeits nothing: `has_live_bets` is always False, so the table
  unseats at once, and the wheel keeps the player's bets riding on the next
  spin. Their Settlement (away) becomes a Notice, which the table tells them
  now if they are connected and keeps for their next login otherwise;
- a player who sits down again before that spin has their bets back;
- the draw is `dice.draw(37)` from the table's FairDice, and the dice rotate
  after every spin: each spin's server seed was committed before its bets
  and is revealed once the number is called (`fair`, `casino verify --draw 37`);
- shutdown refunds every bet not yet spun (riders told like the rest).

The seat that may set the client seed (the base Dealer's `seeder`) is the
longest seated.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from server.config.model import GameOptions, TableConfig
from server.dice.source import TableDraws
from server.games.actions import Action, Actions, Move
from server.games.intents import Hold, Refund, Settle
from server.games.seam import AnyDealer, Dealer, Event, HandResult, Note, Notice
from server.games.seating import Seating

from . import view
from .bets import parse
from .events import BallDropped, BetsSummary, Settlement, WheelClosed
from .options import RouletteOptions
from .rounds import Phase
from .snapshot import TableSnapshot
from .wheel import RouletteWheel


class RouletteDealer(Dealer[TableSnapshot]):
    forfeits_on_drop = False            # bets ride on the next spin and are paid to the wallet
    config: TableConfig[RouletteOptions]

    def __init__(self, config: TableConfig[RouletteOptions], tick_hz: int, dice: TableDraws,
                 seating: Seating) -> None:
        super().__init__(config, tick_hz, dice, seating, ACTIONS, view.VIEWS)
        # The wheel numbers its intent keys from 1 under the table's id; the table
        # makes them unique across runs and across dealers of one run (a reload's
        # new dealer) by its own prefix (Cashier.key).
        self.wheel = RouletteWheel(config.options, dice.draw, tick_hz, config.id)
        self._owners: dict[str, str] = {}            # stakes on the layout -> player

    # --- who is who -------------------------------------------------------
    def has_live_bets(self, player: str) -> bool:
        return False             # bets ride after the player goes: nobody waits for them

    def phase(self) -> str:
        wheel = self.wheel
        if wheel.phase is Phase.BETTING:
            return f"betting, {wheel.seconds_left} s left"
        if wheel.phase is Phase.SPINNING:
            return "no more bets"
        return str(wheel.phase.value)

    def between_hands(self, at_rest: bool) -> bool:
        """Not while the ball is spinning: a removed table closes (refunding) before or after."""
        return self.wheel.phase is not Phase.SPINNING

    def _alone(self) -> bool:
        """One player (or none) seated: `spin` is theirs to type."""
        return len(self.seating.active()) <= 1

    def _timed(self) -> bool:
        """Whether the round clock runs: others are at the wheel, or bets of players
        who left are down (they are settled in a bounded time, not when someone
        alone at the wheel gets round to `spin`)."""
        return not self._alone() or bool(self.wheel.away)

    # --- seating ------------------------------------------------------------
    def seated(self, player: str, back: bool) -> list[Event]:
        self.wheel.rejoin(player)
        riding = self.wheel.bets_of(player)
        welcome = (f"Welcome to {self.config.id}: single-zero roulette, bets from {self.config.min_bet} "
                   f"to {self.config.max_bet}. 'table' shows the layout, 'help roulette' the bets.")
        if riding:
            welcome += f" Your {len(riding)} bet{'s' if len(riding) != 1 else ''} still on the layout " \
                       f"{'are' if len(riding) != 1 else 'is'} yours again."
        return [Note(None, f"{player} sits down at the wheel."), Note((player,), welcome)]

    def unseated(self, player: str, how: str) -> list[Event]:
        events: list[Event] = [*(self.wheel.disconnect(player) if how == "gone" else self.wheel.leave(player))]
        if events and how != "gone":
            n = len(self.wheel.bets_of(player))
            bets = f"Your {n} bets stay on the layout and ride" if n != 1 else \
                "Your bet stays on the layout and rides"
            events.append(Note((player,), f"{bets} on the next spin; what they return goes to your wallet."))
        return events

    # --- commands (the words are declared in ACTIONS below) ---------------------
    def _bet(self, move: Move) -> list[Event]:
        player, words = move.player, list(move.args)
        if not words:
            return [Note((player,), "Usage: bet <kind> [numbers] <amount>, e.g. bet red 10; "
                                    "'help roulette' lists the bets.")]
        bet = parse(words)
        # over the table maximum: the wheel names the maximum, whatever the wallet holds
        if (not isinstance(bet, str) and move.wallet < bet.amount <= self.config.max_bet
                and self.wheel.phase is not Phase.SPINNING):
            return [Note((player,), f"Refused: {bet.name} {bet.amount} is more than your wallet "
                                    f"({move.wallet} chips).")]
        events = self._after(self.wheel.bet(player, words))
        return events + [BetsSummary(player)] if any(isinstance(e, Hold) for e in events) else events

    def _bets(self, move: Move) -> list[Event]:
        return [BetsSummary(move.player)]

    def _unbet(self, move: Move) -> list[Event]:
        player, words = move.player, list(move.args)
        if not words:
            return [Note((player,), "Usage: unbet <number|name|all>; 'bets' numbers your bets.")]
        events = self._after(self.wheel.unbet(player, " ".join(words)))
        return events + [BetsSummary(player)] if len(events) > 1 else events

    def _spin(self, move: Move) -> list[Event]:
        return self._after(self.wheel.spin(move.player, solo=self._alone()))

    # --- time and the table's other inputs -----------------------------------
    def advance(self, ticks: int) -> list[Event]:
        return self._after(self.wheel.advance(ticks, self._timed()))

    def hold_refused(self, key: str, reason: str) -> list[Event]:
        self._owners.pop(key, None)
        return [*self.wheel.hold_refused(key, reason)]

    def close(self, why: str) -> list[Event]:
        away = self.wheel.away
        return self._after([Note(None, why), *self.wheel.close(why)], away)

    def reconfigure(self, config: TableConfig[GameOptions]) -> bool:
        """New limits apply to the next wager at once; other changes (la partage,
        timing) wait until no bet is down, when the table builds a new dealer."""
        if config.game != "roulette":
            return False
        mine = config.narrowed(RouletteOptions)
        new, old = mine.options, self.wheel.options
        if replace(new, min_bet=old.min_bet, max_bet=old.max_bet) != old or new.problems():
            return False
        self.config, self.wheel.options = mine, new
        return True

    # --- what people see ------------------------------------------------------
    def snapshot(self) -> TableSnapshot:
        """The table as the view reads it, now (built for each call: see snapshot.py)."""
        wheel = self.wheel
        return TableSnapshot(
            table_id=self.config.id, min_bet=self.config.min_bet, max_bet=self.config.max_bet,
            options=wheel.options, phase=wheel.phase, seconds_left=wheel.seconds_left,
            spins=wheel.spins, history=wheel.history, wagers=wheel.wagers,
            held=frozenset(self._owners), away=wheel.away, seated=tuple(self.seating.names()),
            commitment=self.dice.commitment, commands=ACTIONS.reminder("table rules", "leave", "help roulette"))

    # --- after the wheel --------------------------------------------------------
    def _after(self, events: Sequence[Event], away: frozenset[str] = frozenset()) -> list[Event]:
        """Book-keeping on the wheel's events, and what follows a spin: the
        dice rotate (revealing the spin's seed), players who left are sent a
        Notice after the Settle that paid them, the operator's log gets the spin."""
        out: list[Event] = []
        dropped: BallDropped | None = None
        for e in events:
            out.append(e)
            if isinstance(e, Hold):
                self._owners[e.key] = e.player
            elif isinstance(e, Refund):
                self._owners.pop(e.stake, None)
            elif isinstance(e, Settle):
                for stake in e.stakes:
                    self._owners.pop(stake, None)
            elif isinstance(e, BallDropped):
                dropped = e
                self.dice.rotate()
            elif isinstance(e, Settlement) and e.away and dropped is not None:
                out.append(Notice(e.player, view.away_text(self.config.id, e, dropped.call)))
            elif isinstance(e, WheelClosed):
                riders = {w.player for w in e.refunded if w.player in away}
                out += [Notice(p, view.refund_text(self.config.id, tuple(w for w in e.refunded if w.player == p)))
                        for p in sorted(riders)]
        if dropped is not None:
            settlements = [e for e in events if isinstance(e, Settlement)]
            out.append(HandResult((("spin", dropped.spin), ("pocket", dropped.pocket),
                                   ("players", len(settlements)),
                                   ("staked", sum(s.staked for s in settlements)),
                                   ("paid", sum(s.paid for s in settlements)))))
        return out


def make(config: TableConfig[GameOptions], tick_hz: int, dice: TableDraws, seating: Seating) -> AnyDealer:
    """The catalogue's MakeDealer: a roulette dealer for a `game: roulette` table."""
    return RouletteDealer(config.narrowed(RouletteOptions), tick_hz, dice, seating)


ACTIONS = Actions[RouletteDealer]("Roulette", (
    Action("bet", "bet <kind> [numbers] <amount>",
           "a wager on the layout, e.g. bet red 10, bet split 17 20 5, bet corner 17 21 5. "
           "'help roulette' lists every bet and what it pays.", RouletteDealer._bet, opens=True),
    Action("bets", "bets", "your bets on the layout, numbered for unbet.", RouletteDealer._bets),
    Action("unbet", "unbet <number|name|all>",
           "take a bet down (unbet 2, unbet red, unbet split 17 20) until No more bets.",
           RouletteDealer._unbet, brief="unbet <n|name|all>"),
    Action("spin", "spin", "alone at the wheel with a bet down: no more bets, and the ball drops.",
           RouletteDealer._spin, opens=True),
))

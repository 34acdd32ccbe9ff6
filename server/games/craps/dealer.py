"""Bank craps at a table: the rules state, the shooter queue and pacing.

Policy (docs/play-craps.md "Sitting down", "Rolling"); the table's Seating is the queue:
- the shooter is the first active seat; arrivals (and players back from
  sitting out) join at the tail; a made point keeps the shooter; a seven-out
  sends the shooter to the tail; sitting-out seats are skipped;
- a departing shooter's hand goes on with the next shooter, point and bonus
  progress intact (the rules state knows only "the hand");
- `leave` and `sitout` ask the table to unseat the player; the table waits
  for their last live bet (`has_live_bets`), and until then they stay
  seated (and shoot, if it is their turn) but bet no more;
- a `roll` the shooter types inside the betting window is kept and thrown
  the moment the window closes (or at once if the table goes solo), so the
  shooter types it once; the window's opening is said to the table;
- the next shooter is told at once when the shooter's leave or sit-out
  starts waiting on their bets, not after the next roll;
- `stop` only ends autoroll: with none running it says so and the seat
  stays, for autoroll ends by itself (bets decided) and a `stop` typed a
  moment later means "stop rolling", never "get up";
- a disconnect forfeits live bets; shutdown refunds every stake;
- the dice rotate (reveal and re-commit) at the end of every shooter hand.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from functools import cache
from typing import Self

from server.config.model import GameOptions, TableConfig
from server.dice.source import TableDraws
from server.games.craps import events as ev
from server.games.craps.bets import Bet, Kind
from server.games.craps.events import (BetsSummary, LastCall, RollSettlement, ShooterUp, Throw, WindowClosed,
                                       WindowOpened)
from server.games.craps.limits import Limits
from server.games.craps.options import CrapsOptions, variant_of
from server.games.craps.outcome import rulebook
from server.games.craps.snapshot import CrapsSnapshot, Seated
from server.games.craps.state import CrapsState
from server.games.craps.variants import BANK, Variant
from server.games.craps.state import Event as StateEvent
from server.games.craps.pacing import Pacing, Signal, Stage
from server.games.craps import view as render
from server.games.actions import Action, Actions, Move
from server.games.seam import AnyDealer, Dealer, Event, HandResult, Note, Notice, SeatRequest
from server.games.intents import Hold, Settle
from server.games.seating import Seating


# The number bets a casino usually leaves working after a win. Here every
# decided wager comes down (docs/play-craps.md: no automatic renewal), which surprises
# a craps player, so the settlement says each is down and how to re-bet it.
DOWN_AFTER_A_WIN = frozenset({Kind.PLACE, Kind.BUY, Kind.LAY, Kind.HARD})


class BankCrapsDealer(Dealer[CrapsSnapshot]):
    """Bank craps, and every variant of it: the table's options name its
    Variant, which the rules state reads and whose words it takes."""

    config: TableConfig[CrapsOptions]

    def __init__(self, config: TableConfig[CrapsOptions], tick_hz: int, dice: TableDraws,
                 seating: Seating) -> None:
        self.variant: Variant = variant_of(config.options)
        super().__init__(config, tick_hz, dice, seating, actions_for(self.variant), render.VIEWS)
        self.options = config.options
        self.state = CrapsState(config)
        t = self.options.timing
        self.pacing = Pacing(t.window * tick_hz, t.last_call * tick_hz, t.shooter * tick_hz,
                             t.autoroll * tick_hz)
        self.autoroll: set[str] = set()        # shooters whose autoroll is on
        self._shooter: str | None = None       # as last announced
        self._kept: str | None = None          # the shooter whose `roll` in the window waits for its close
        self._multi = False                    # as the pacing last knew it
        self.last_dice: tuple[int, ...] | None = None
        self._snap: CrapsSnapshot | None = None  # what the view reads, until the next input

    def _touched(self) -> None:
        """An input is in: the table (or its seats, which the table changes just
        before it calls `seated` or `unseated`) may change, so the snapshot goes."""
        self._snap = None

    # --- who is who -------------------------------------------------------
    def shooter(self) -> str | None:
        """The first seat in the queue that plays on: a player whose leave or
        sit-out waits on their bets is passed over while anyone else can
        shoot (as when a shooter leaves: the next one finishes the hand), so
        the dice are never announced to someone about to get up."""
        staying = None
        for seat in self.seating.seats:
            if not seat.sitting_out:
                if not seat.leaving:
                    return seat.player
                staying = staying or seat.player
        return staying

    def roles(self) -> dict[str, str]:
        shooter = self.shooter()
        return {shooter: f"has the {self.variant.dice}"} if shooter else {}

    def seeder(self) -> str | None:
        return self.shooter()

    def _multiplayer(self) -> bool:
        return len(self.seating.active()) >= 2

    def _live(self, player: str | None = None) -> bool:
        if player is None:
            return bool(self.state.wagers)
        return any(w.player == player for w in self.state.wagers.values())

    def has_live_bets(self, player: str) -> bool:
        return self._live(player)

    def phase(self) -> str:
        point = self.state.point
        return f"point {point}" if point else "come-out"

    def _changed(self) -> list[Event]:
        """Pacing and announcements after the seats changed."""
        events: list[Event] = []
        multi = self._multiplayer()
        if multi != self._multi:        # went solo, or a second player sat down
            self._multi = multi
            self.pacing.restart(multiplayer=multi)
        shooter = self.shooter()
        if shooter != self._shooter and shooter is not None:
            events.append(ShooterUp(shooter))
        self._shooter = shooter
        if shooter != self._kept:
            self._kept = None           # a kept roll is its shooter's, and goes with the dice
        return events + _window_news(self)

    def turns_changed(self) -> list[Event]:
        """A leave or sit-out began waiting on its bets (or was called off): a new shooter is told now."""
        self._touched()
        return self._changed()

    # --- seating (the table seats; we welcome and re-pace) ---------------------
    def seated(self, player: str, back: bool) -> list[Event]:
        self._touched()
        if back:
            return self._changed()
        return [Note(None, f"{player} joins the table."),
                Note((player,), f"Welcome to {self.config.id}: bets from {self.config.min_bet} to "
                                f"{self.config.max_bet}. 'table' shows the layout, 'help {self.variant.word}' the bets."
                                + self._hand_now(player)),
                *self._changed()]

    def _hand_now(self, player: str) -> str:
        """Where the hand stands, for one sitting down into it: who shoots and the point."""
        shooter = self.shooter()
        if shooter is None or shooter == player:
            return ""
        point = f"the point is {self.state.point}" if self.state.point else "a come-out roll is next"
        return f" {shooter} has the {self.variant.dice}; {point}."

    def unseated(self, player: str, how: str) -> list[Event]:
        self._touched()
        self.autoroll.discard(player)
        events: list[Event] = []
        if how == "gone":
            lost = self.state.bets_of(player)
            events = [*self.state.forfeit(player)]
            if events:
                chips = sum(w.bet.amount for w in lost)
                events.append(Note(None, f"{player}'s live bets are forfeit."))
                events.append(Notice(player, f"You dropped from {self.config.id} with live bets: "
                                             f"{_itemised(lost)} ({chips} chips) were forfeit to the house."))
        return events + self._changed()

    # --- commands (the words are declared in ACTIONS below) ---------------------
    def perform(self, action: Action[Self], move: Move) -> list[Event]:
        self._touched()
        return super().perform(action, move) + _window_news(self)     # a first bet opens the window

    def _bet(self, move: Move) -> list[Event]:
        player, words = move.player, list(move.args)
        if not words:
            return [Note((player,), "Usage: bet <kind> [numbers] <amount>, e.g. "
                                    + first_example(self.variant))]
        events: list[Event] = [*self.state.bet(player, words, move.wallet)]
        accepted = [e for e in events if isinstance(e, ev.BetAccepted)]
        if not accepted:
            return events
        # The hold first: the bet is shown as accepted only once it is durable
        # (and New York's charge, held and paid to the house, with it).
        holds = [e for e in events if isinstance(e, (Hold, Settle))]
        told = [e for e in events if isinstance(e, ev.Charged)]
        return [*holds, *accepted, *told, BetsSummary(player, accepted[0].wager.handle)]

    def _bets(self, move: Move) -> list[Event]:
        return [BetsSummary(move.player)]

    def _unbet(self, move: Move) -> list[Event]:
        events: list[Event] = [*self.state.unbet(move.player, " ".join(list(move.args)))]
        removed = any(isinstance(e, ev.BetRemoved) for e in events)
        return events + ([BetsSummary(move.player)] if removed else [])

    def _autoroll(self, move: Move) -> list[Event]:
        player = move.player
        if self.shooter() != player:
            return [Note((player,), "Only the shooter can autoroll.")]
        if not self._live(player):
            return [Note((player,), "Autoroll runs while you have live bets: bet first.")]
        self.autoroll.add(player)
        return [Note((player,), f"Autoroll on: the {self.variant.dice} {self.variant.roll} every "
                                f"{self.options.timing.autoroll} "
                                "seconds while you have live bets. 'stop' ends it.")]

    def _stop(self, move: Move) -> list[Event]:
        player = move.player
        if player in self.autoroll:
            self.autoroll.discard(player)
            return [Note((player,), "Autoroll off. You keep your seat and your bets.")]
        return [Note((player,), "Autoroll is not running, so there is nothing to stop: you keep your seat. "
                                "'leave' gets up from the table, 'sitout' stops your turns as shooter.")]

    def _sitout(self, move: Move) -> list[Event]:
        return [SeatRequest(move.player, "sitout")]

    def _roll_word(self, move: Move) -> list[Event]:
        player = move.player
        if self.shooter() != player:
            who = self.shooter()
            return [Note((player,), f"{who} is the shooter." if who else "Nobody can shoot now.")]
        if not self._live():
            return [Note((player,), "Nobody has a bet down: bet first, then roll.")]
        if self._multiplayer() and self.pacing.in_window():
            self._kept = player
            left = self.pacing.seconds_left(self.tick_hz)
            return [Note((player,), f"Your roll is kept: you {self.variant.roll} when bets close, "
                                    f"in {_seconds(left)}.")]
        return self._roll(dealer=False)

    # --- rolling ------------------------------------------------------------
    def _roll(self, dealer: bool) -> list[Event]:
        shooter = self.shooter()
        self._kept = None
        draw = self.variant.draw
        # Two dice (or two cards) are one draw of 36; Die Rich's one die a draw of its own.
        dice: tuple[int, ...] = self.dice.roll() if draw.count == 2 else draw.faces(self.dice.draw(draw.outcomes))
        self.last_dice = dice
        events: list[Event] = [Throw(shooter, dealer)]
        before_view = self.state.view
        outcome = self.state.roll(dice)
        events += outcome
        events += self._settlements(outcome)
        if any(isinstance(e, (ev.SevenOut, ev.HandLost)) for e in outcome):
            events.append(HandResult((("shooter", shooter or "dealer"), ("rolls", before_view.rolls + 1),
                                      ("points_made", bin(before_view.fire).count("1")))))
            self.dice.rotate()
            if shooter:
                self.seating.to_tail(shooter)
        for player in sorted(self.autoroll):
            if not self._live(player):
                self.autoroll.discard(player)
                events.append(Note((player,), "Your bets are done: autoroll stops."))
        # Players whose leave waited for this roll are unseated by the table
        # after this roll is shown to them.
        self.pacing.restart(multiplayer=self._multiplayer())
        return events + self._changed()

    def _settlements(self, outcome: list[StateEvent]) -> list[Event]:
        """Each player's settlement of the roll, then the bets of everyone who has some."""
        out: list[Event] = [*settlements_of(outcome)]
        settled = {e.player for e in out if isinstance(e, RollSettlement)}
        out += [BetsSummary(p) for p in self.seating.names() if p in settled or self._live(p)]
        return out

    # --- time -----------------------------------------------------------------
    def advance(self, ticks: int) -> list[Event]:
        self._touched()
        events: list[Event] = []
        for _ in range(ticks):
            shooter = self.shooter()
            if shooter is None:
                break
            auto = shooter in self.autoroll and self._live(shooter)
            kept = self._kept == shooter and self._live()
            if not self._multiplayer() and not auto:
                if kept:                               # gone solo: no window holds the kept roll
                    events += self._roll(dealer=False)
                break                                  # solo: nothing is ever forced
            for signal in self.pacing.tick(self._live(), auto):
                if signal is Signal.LAST_CALL:
                    events.append(LastCall(self.pacing.seconds_left(self.tick_hz)))
                elif signal is Signal.WINDOW_CLOSED and kept:
                    events += self._roll(dealer=False)     # the roll typed in the window
                    break
                elif signal is Signal.WINDOW_CLOSED:
                    events.append(WindowClosed(shooter, self.options.timing.shooter, auto))
                elif signal in (Signal.DEALER_ROLL, Signal.AUTOROLL):
                    events += self._roll(dealer=signal is Signal.DEALER_ROLL)
                    break
        return events

    # --- reload ----------------------------------------------------------------
    def between_hands(self, at_rest: bool) -> bool:
        """The come-out with no roll pending: a removed table may close here,
        refunding what is left (odds, place bets, established come bets)."""
        return self.state.point == 0

    def reconfigure(self, config: TableConfig[GameOptions]) -> bool:
        """Take new settings live when that is fair to every live wager: limits
        and odds apply to the next wager, timing to the next window; a new
        field payout waits until no field bet is live."""
        self._touched()
        if config.game != "craps" or config.options.variant != self.options.variant:
            return False
        mine = config.narrowed(CrapsOptions)
        old, new = self.options, mine.options
        if new.field_12 != old.field_12 and any(w.bet.kind is Kind.FIELD for w in self.state.wagers.values()):
            return False
        self.config, self.options = mine, new
        self.state.limits = Limits.of(mine)
        self.state.book = rulebook(new.field_12, self.state.variant)
        t, hz = new.timing, self.tick_hz
        self.pacing.window, self.pacing.last_call = t.window * hz, t.last_call * hz
        self.pacing.shooter, self.pacing.autoroll = t.shooter * hz, t.autoroll * hz
        return True

    # --- the table's other inputs -------------------------------------------
    def hold_refused(self, key: str, reason: str) -> list[Event]:
        """The ledger would not hold a stake: the wager is off, said in one line."""
        self._touched()
        return [*self.state.cancel(key, reason)]

    def close(self, why: str) -> list[Event]:
        self._touched()
        refunded = {p: self.state.bets_of(p) for p in {w.player for w in self.state.wagers.values()}}
        events: list[Event] = [Note(None, why), *self.state.refund_all()]
        return events + [Note((p,), f"Refunded to your wallet: {_itemised(bets)}.")
                         for p, bets in sorted(refunded.items())]

    # --- what people see ------------------------------------------------------
    # The view (view.py) is handed the fact and a snapshot, never the dealer.
    def snapshot(self) -> CrapsSnapshot:
        """The table as the view may read it, built once per input: every
        hook that can change the table (or follows a change to the seats)
        drops it (`_touched`), and the first render after builds it again."""
        snap = self._snap
        if snap is None:
            pacing = self.pacing
            timed = self._multiplayer() and pacing.stage is not Stage.SOLO
            snap = self._snap = CrapsSnapshot(
                table_id=self.config.id, min_bet=self.config.min_bet, max_bet=self.config.max_bet,
                options=self.options, hand=self.state.view, wagers=tuple(self.state.wagers.values()),
                handles=frozenset(self.state.wagers), seats=tuple(Seated(s.player, s.sitting_out)
                                                                 for s in self.seating.seats),
                shooter=self.shooter(), last_dice=self.last_dice, stage=pacing.stage.value,
                seconds_left=pacing.seconds_left(self.tick_hz) if timed else None,
                commands=self.actions.reminder("leave", f"help {self.variant.word}"), variant=self.state.variant)
        return snap


def make(config: TableConfig[GameOptions], tick_hz: int, dice: TableDraws, seating: Seating) -> AnyDealer:
    """The catalogue's MakeDealer: a craps dealer for a `game: craps` table of any variant."""
    return BankCrapsDealer(config.narrowed(CrapsOptions), tick_hz, dice, seating)


# A `bet` typed in full for each kind, in the order help picks its examples:
# a table's examples are the first three of these it takes.
BET_EXAMPLES: tuple[tuple[Kind, str], ...] = (
    (Kind.PASS, "bet pass 10"), (Kind.HIGH, "bet high 10"), (Kind.PLACE, "bet place 6 12"),
    (Kind.FACE, "bet face 3 5"), (Kind.HOP, "bet hop 2 3 5"), (Kind.BUY, "bet buy 4 25"),
    (Kind.FIELD, "bet field 5"),
)


def bet_examples(variant: Variant) -> str:
    """"bet pass 10, bet place 6 12, bet hop 2 3 5": bets `variant`'s table takes."""
    return ", ".join([text for kind, text in BET_EXAMPLES if variant.offers(kind)][:3])


def first_example(variant: Variant) -> str:
    return next(text for kind, text in BET_EXAMPLES if variant.offers(kind))


ACTIONS = Actions[BankCrapsDealer]("Bank craps", (
    Action("bet", "bet <kind> [numbers] <amount>", f"place a wager, e.g. {bet_examples(BANK)}. "
           "'help craps' lists the kinds.", BankCrapsDealer._bet, opens=True,
           brief="bet <kind> [n] <amount>"),
    Action("bets", "bets", "your wagers, numbered for unbet.", BankCrapsDealer._bets),
    Action("unbet", "unbet <number|name|all>", "take down a wager that is not a contract "
           "(pass, come and bonus bets stay); a bet's name wins over its number in 'bets' "
           "('unbet 12' takes down a bet on 12).", BankCrapsDealer._unbet, needs=True,
           brief="unbet <n|name|all>"),
    Action("roll", "roll", "as the shooter, roll the dice; typed while bets are open, it is kept "
           "for the moment they close.",
           BankCrapsDealer._roll_word),
    Action("autoroll", "autoroll", "as the shooter, roll every few seconds while you have live bets; "
           "'stop' ends it.", BankCrapsDealer._autoroll),
    Action("stop", "stop", "end autoroll; you keep your seat and your bets (with no autoroll running it "
           "does nothing: 'leave' gets up).",
           BankCrapsDealer._stop),
    Action("sitout", "sitout", "stop shooting and betting once your bets are decided; "
           "'play craps' to come back.", BankCrapsDealer._sitout),
))


@cache
def actions_for(variant: Variant) -> Actions[BankCrapsDealer]:
    """The craps words at a table of `variant`: bank craps' rows under its title,
    help naming its own `help` and `play` word."""
    if variant is BANK:
        return ACTIONS
    rows = tuple(replace(a, help=a.help.replace(bet_examples(BANK), bet_examples(variant))
                         .replace("'help craps'", f"'help {variant.word}'")
                         .replace("'play craps'", f"'play {variant.word}'")
                         .replace("roll the dice", f"{variant.roll} the {variant.dice}")
                         .replace("the dice roll", f"the {variant.dice} {variant.roll}")) for a in ACTIONS)
    return Actions(variant.title, rows)


def _itemised(wagers: list[ev.Wager]) -> str:
    """Wagers as a player reads them: "pass 10, place6 12"."""
    return ", ".join(f"{w.name} {w.bet.amount}" for w in wagers)


def settlements_of(outcome: list[StateEvent]) -> list[RollSettlement]:
    """A roll's decided wagers as one settlement per player, in the order the
    players first appear: what each won (and the commission on it), lost and
    pushed, and the won bets that are now down (DOWN_AFTER_A_WIN)."""
    won: dict[str, list[tuple[str, int]]] = defaultdict(list)
    lost: dict[str, list[tuple[str, int]]] = defaultdict(list)
    pushed: dict[str, list[tuple[str, int]]] = defaultdict(list)
    commission: dict[str, int] = defaultdict(int)
    down: dict[str, list[tuple[Bet, int]]] = defaultdict(list)
    players: list[str] = []
    for e in outcome:
        if isinstance(e, (ev.BetWon, ev.BetLost, ev.BetPushed)):
            p = e.wager.player
            if p not in players:
                players.append(p)
            if isinstance(e, ev.BetWon):
                won[p].append((e.wager.name, e.amount))
                commission[p] += e.commission
                if e.wager.bet.kind in DOWN_AFTER_A_WIN:
                    down[p].append((e.wager.bet, e.amount))
            elif isinstance(e, ev.BetLost):
                lost[p].append((e.wager.name, e.wager.bet.amount))
            else:
                pushed[p].append((e.wager.name, e.wager.bet.amount))
    return [RollSettlement(p, tuple(won[p]), tuple(lost[p]), tuple(pushed[p]), commission[p], tuple(down[p]))
            for p in players]


def _window_news(dealer: BankCrapsDealer) -> list[Event]:
    """The betting window's opening, said once, when it starts to count (bets are
    down at a table of two or more): else the table's first sign of it would be
    the last call."""
    pacing, shooter = dealer.pacing, dealer.shooter()
    if pacing.announced or not pacing.in_window() or shooter is None or not dealer._multiplayer() \
            or not dealer._live():
        return []
    pacing.announced = True
    return [WindowOpened(shooter, pacing.seconds_left(dealer.tick_hz),
                         shooter in dealer.autoroll and dealer._live(shooter))]


def _seconds(n: int) -> str:
    return f"{n} second" if n == 1 else f"{n} seconds"

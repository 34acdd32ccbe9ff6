"""Simplified craps (specs 001 and 002): one player against the house.

A pure state machine: `act(action, wallet)` takes a command and the player's
wallet balance (chips not already held) and returns facts plus money intents,
in the order the table must apply them. No timing, no I/O; dice are handed in.

Why the wallet is an input: 001 offers `press` only when the bankroll covers
it, and "can't bet more than the wallet" should be a one-line refusal before
any chip moves. The ledger stays the authority: if it still refuses a Hold
(another table spent the chips in between), the table calls `hold_refused(key)`
and the wager is taken back as if never made.

Money: every wager is a Hold; a decided game is one Settle over all its stakes
(paying stakes plus winnings on a win, nothing on a loss) or a Refund on the
bar push. Winnings are paid at once, so `ride` is a fresh Hold of what was
paid, and `collect` moves nothing.
"""
from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from types import MappingProxyType

from server.config.model import TableConfig
from server.games.craps.options import CrapsOptions
from server.dice.source import DiceSource
from server.games.intents import Forfeit, Hold, Refund, Settle
from server.games.simplified.amount import Amount, parse_amount
from server.games.simplified.events import (
    Bet, BetPlaced, Closed, Collect, Collected, Command, EngineEvent, GameOver, HoldCancelled,
    Odds, OddsPlaced, PointSet, Press, Pressed, Refused, Ride, Roll, RollAgain, Rolled)
from server.games.simplified.rules import (
    Outcome, Side, come_out, odds_limit, odds_unit, odds_win, point_roll, press_allowed)


class Phase(Enum):
    BETTING = "betting"     # no bet: `bet`
    WON = "won"             # the last game was won: `ride`, `collect` or `bet`
    COME_OUT = "come out"   # a bet is on: `roll`
    POINT = "point"         # a point is on: `roll`, `odds`, `press` (right after the come-out)


# How each come-out decision is called, by the pass line's view of the total.
_COME_OUT_HOW: Mapping[int, str] = MappingProxyType({2: "craps", 3: "craps", 12: "craps", 7: "natural", 11: "natural"})


class SimplifiedCraps:
    """One player's simplified craps table."""

    def __init__(self, table: TableConfig[CrapsOptions], player: str, dice: DiceSource,
                 key_prefix: str | None = None) -> None:
        """`key_prefix` must make intent keys unique within the table across
        sittings (e.g. the table id plus a sitting number); default: table id."""
        self.table = table
        self.options = table.options
        self.player = player
        self.dice = dice
        self.prefix = key_prefix if key_prefix is not None else table.id
        self.phase = Phase.BETTING
        self.game = 0                   # games started, for intent keys
        self.side: Side | None = None
        self.flat = 0
        self.odds = 0
        self.point: int | None = None
        self.pressed = False
        self.press_open = False         # right after the point is set, until the next roll
        self.stakes: dict[str, int] = {}    # live hold key -> chips
        self.ride_amount = 0

    # --- the one entry point for commands -------------------------------------
    def act(self, action: Command, wallet: int) -> list[EngineEvent]:
        if isinstance(action, Bet):
            return self._bet(action, wallet)
        if isinstance(action, Ride):
            return self._ride(action, wallet)
        if isinstance(action, Collect):
            return self._collect(action, wallet)
        if isinstance(action, Roll):
            return self._roll(action, wallet)
        if isinstance(action, Press):
            return self._press(action, wallet)
        if isinstance(action, Odds):
            return self._odds(action, wallet)
        return [Refused(f"Simplified craps has no '{type(action).__name__.lower()}'.")]

    # --- commands ----------------------------------------------------------------
    def _bet(self, action: Bet, wallet: int) -> list[EngineEvent]:
        if self.phase in (Phase.COME_OUT, Phase.POINT):
            return [Refused(f"You already bet {self.flat} on {self._side().value}: roll.")]
        amount = parse_amount(action.amount, self.table.min_bet, self.table.max_bet)
        if isinstance(amount, str):
            return [Refused(amount)]
        if amount.chips > wallet:
            return [Refused(_short(wallet, amount.chips, self.table.min_bet))]
        return self._start(action.side, amount, ride=False)

    def _ride(self, action: Ride, wallet: int) -> list[EngineEvent]:
        if self.phase is not Phase.WON:
            return [Refused("You can ride only right after a win.")]
        if self.ride_amount > self.table.max_bet:
            return [Refused(f"Riding would bet {self.ride_amount}, over the table maximum "
                            f"{self.table.max_bet}: collect or bet again.")]
        if self.ride_amount > wallet:
            return [Refused(f"Riding needs {self.ride_amount} and you have {wallet}.")]
        return self._start(self._side(), Amount(self.ride_amount), ride=True)

    def _collect(self, action: Collect, wallet: int) -> list[EngineEvent]:
        if self.phase is not Phase.WON:
            return [Refused("There is nothing to collect.")]
        self.phase = Phase.BETTING
        return [Collected(self.ride_amount)]

    def _roll(self, action: Roll, wallet: int) -> list[EngineEvent]:
        if self.phase is Phase.BETTING:
            return [Refused("Bet first: bet pass <amount> or bet dontpass <amount>.")]
        if self.phase is Phase.WON:
            return [Refused("Ride, collect, or bet again before rolling.")]
        d1, d2 = self.dice.roll()
        total = d1 + d2
        events: list[EngineEvent] = [Rolled((d1, d2), total, self.point)]
        self.press_open = False
        if self.point is None:
            outcome = come_out(self._side(), total, self.options.dont_pass_bar)
            if outcome is None:
                self.point, self.phase = total, Phase.POINT
                self.press_open = True
                events.append(PointSet(total, self._press_problem(wallet) is None))
                return events
            how = "bar" if outcome is Outcome.PUSH else _COME_OUT_HOW[total]
        else:
            outcome = point_roll(self._side(), total, self.point)
            if outcome is None:
                return events + [RollAgain(self.point)]
            how = "point made" if total == self.point else "seven out"
        return events + self._decide(outcome, how, total)

    def _press(self, action: Press, wallet: int) -> list[EngineEvent]:
        problem = self._press_problem(wallet)
        if problem:
            return [Refused(problem)]
        key = self._key("press")
        self.stakes[key] = self.flat
        self.flat *= 2
        self.pressed = True
        return [Hold(key, self.player, self.flat // 2), Pressed(self.flat)]

    def _odds(self, action: Odds, wallet: int) -> list[EngineEvent]:
        if self.phase is not Phase.POINT:
            return [Refused("Odds can be taken only once a point is set.")]
        if self.odds:
            return [Refused(f"You already have {self.odds} in odds on the {self.point}.")]
        amount = parse_amount(action.amount, self.table.min_bet, self.table.max_bet)
        if isinstance(amount, str):
            return [Refused(amount)]
        chips, side, point = amount.chips, self._side(), self._point()
        unit = odds_unit(side, point)
        if chips % unit:
            return [Refused(f"Odds on the {point} go in multiples of {unit} "
                            f"so the win is whole chips.")]
        limit = odds_limit(side, point, self.flat, self.options.odds)
        if chips > limit:
            return [Refused(f"Odds on the {point} behind {self.flat} are at most {limit}.")]
        if chips > wallet:
            return [Refused(f"You have only {wallet} chips.")]
        key = self._key("odds")
        self.stakes[key] = chips
        self.odds = chips
        note = amount.message("odds bet")
        return [Hold(key, self.player, chips),
                OddsPlaced(side, point, chips, odds_win(side, point, chips),
                           amount.returned, note)]

    # --- the table's other inputs ------------------------------------------------------
    def hold_refused(self, key: str) -> list[EngineEvent]:
        """The ledger refused Hold `key`: take that wager back, as if never made."""
        chips = self.stakes.pop(key, None)
        if chips is None:
            return []
        if key.endswith(":odds"):
            self.odds = 0
            return [HoldCancelled("odds", chips)]
        if key.endswith(":press"):
            self.flat -= chips
            self.pressed = False
            return [HoldCancelled("press", chips)]
        # The flat bet itself: the game is off; anything else it carried goes back.
        events: list[EngineEvent] = [Refund(self._end_key("refund", k), k) for k in self.stakes]
        self._reset(Phase.BETTING)
        return events + [HoldCancelled("bet", chips)]

    def close(self, forfeit: bool) -> list[EngineEvent]:
        """The table closes under the player: a disconnect forfeits live stakes
        (`forfeit=True`), a shutdown or room closing refunds them."""
        total = sum(self.stakes.values())
        if forfeit:
            events: list[EngineEvent] = [Forfeit(self._end_key("forfeit", k), k) for k in self.stakes]
        else:
            events = [Refund(self._end_key("refund", k), k) for k in self.stakes]
        self._reset(Phase.BETTING)
        return events + [Closed(0 if forfeit else total, total if forfeit else 0)]

    # --- internals -----------------------------------------------------------
    def _start(self, side: Side, amount: Amount, ride: bool) -> list[EngineEvent]:
        self._reset(Phase.COME_OUT)
        self.game += 1
        self.side, self.flat = side, amount.chips
        key = self._key("flat")
        self.stakes[key] = amount.chips
        return [Hold(key, self.player, amount.chips),
                BetPlaced(side, amount.chips, ride, amount.returned, amount.message())]

    def _press_problem(self, wallet: int) -> str | None:
        if self.phase is not Phase.POINT:
            return "You can press only once a point is set."
        if not press_allowed(self._side(), self.options.press):
            return ("This table does not allow pressing." if self.options.press == "none"
                    else "At this table only the pass line may press.")
        if self.pressed:
            return "You have already pressed this bet."
        if not self.press_open:
            return "You can press only right after the point is set."
        if self.flat * 2 > self.table.max_bet:
            return (f"Pressing would make your bet {self.flat * 2}, over the table maximum "
                    f"{self.table.max_bet}.")
        if self.flat > wallet:
            return f"Pressing needs {self.flat} more and you have {wallet}."
        return None

    def _decide(self, outcome: Outcome, how: str, total: int) -> list[EngineEvent]:
        side, flat, odds = self._side(), self.flat, self.odds
        stakes = tuple(self.stakes)
        flat_win = odds_won = paid = 0
        if outcome is Outcome.PUSH:
            money: list[EngineEvent] = [Refund(self._end_key("push", k), k) for k in stakes]
            net = 0
        elif outcome is Outcome.WIN:
            flat_win = flat
            odds_won = odds_win(side, self._point(), odds) if odds else 0
            paid = flat + flat_win + odds + odds_won
            net = flat_win + odds_won
            money = [Settle(self._key("settle"), stakes, ((self.player, paid),))]
        else:
            net = -(flat + odds)
            money = [Settle(self._key("settle"), stakes, ())]
        ride = paid if outcome is Outcome.WIN else 0
        self._reset(Phase.WON if outcome is Outcome.WIN else Phase.BETTING)
        self.side, self.ride_amount = side, ride
        return money + [GameOver(side, outcome, how, total, flat, odds, flat_win, odds_won,
                                 net, paid, ride)]

    def _side(self) -> Side:
        """The side of the bet in play (or just won): set whenever a command reads it."""
        if self.side is None:
            raise RuntimeError("simplified craps: no bet on the table")
        return self.side

    def _point(self) -> int:
        """The point, in Phase.POINT."""
        if self.point is None:
            raise RuntimeError("simplified craps: no point is set")
        return self.point

    def _reset(self, phase: Phase) -> None:
        self.phase = phase
        self.flat = self.odds = self.ride_amount = 0
        self.point = None
        self.pressed = self.press_open = False
        self.stakes = {}

    def _key(self, what: str) -> str:
        return f"{self.prefix}:{self.player}:g{self.game}:{what}"

    def _end_key(self, verb: str, stake: str) -> str:
        """The key of the intent ending `stake`, e.g. "...:g3:refund-odds"."""
        return self._key(f"{verb}-{stake.rsplit(':', 1)[1]}")


def _short(wallet: int, chips: int, min_bet: int) -> str:
    if wallet < min_bet:
        return f"You have only {wallet} chips; the minimum bet is {min_bet}."
    return f"You can't bet {chips}: you have only {wallet} chips."

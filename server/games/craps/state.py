"""The pure bank craps table: everyone's wagers, the puck and the shooter hand.

No timing, seats or shooter queue live here (the table owns those): this
state only knows "the hand", which simply continues whoever throws next, so a
departing shooter's point and bonus progress stay. Every method returns a list
of facts (events.py) and money intents (server.games.intents) in order; the
table applies the intents, and calls `cancel` for a bet whose Hold it refused.
Stake handles and every intent key are f"{table}:{seq}", unique per table.
A roll that decides wagers ends with exactly one Settle over all of them (wins,
losses and pushes); removals, forfeits and refunds stay one intent per stake.
"""
from __future__ import annotations

from collections.abc import Iterable

from server.config.model import TableConfig
from server.games.craps.options import CrapsOptions, variant_of
from server.games.intents import Forfeit, Hold, IntentKeys, MoneyIntent, Refund, Settle

from .bets import CONTRACTS, Bet, Kind, name, payout_unit
from .events import (
    BetAccepted,
    BetCancelled,
    BetLost,
    BetPushed,
    BetRefused,
    BetRemoved,
    BetWon,
    Charged,
    ComeOutSeven,
    Fact,
    HandLost,
    HandWon,
    PointMade,
    PointSet,
    Rolled,
    SevenOut,
    Travelled,
    UnbetRefused,
    Wager,
)
from .limits import Limits, stake_problem, timing_problem
from .outcome import COME_OUT, Result, TableView, rulebook
from .parse import BetRequest, ParseError, parse_bet
from .variants import Scheme, charge_on_bet

Event = Fact | MoneyIntent
_ALIASES = {"dp": "dontpass", "dc": "dontcome", "oddsdp": "oddsdontpass", "oddsdc": "oddsdontcome"}


def _base_name(kind: Kind) -> str:
    return {Kind.PASS: "pass", Kind.DONT_PASS: "dontpass", Kind.COME: "come",
            Kind.DONT_COME: "dontcome"}[kind]


class CrapsState:
    """One bank craps table's rule state. Pure: dice come in, events go out."""

    def __init__(self, table: TableConfig[CrapsOptions], view: TableView = COME_OUT) -> None:
        self.id = table.id
        self.limits = Limits.of(table)
        self.variant = variant_of(table.options)
        self.book = rulebook(self.limits.field_12, self.variant)
        self.view = view
        self.wagers: dict[str, Wager] = {}           # handle -> wager, in placement order
        self._by_total: dict[int, dict[str, None]] = {t: {} for t in range(1, 13)}   # 1: one die
        self._key = IntentKeys(table.id)
        self._charges: dict[str, str] = {}           # New York: charge key -> the wager it was for

    # -- bookkeeping ------------------------------------------------------
    def _index(self, w: Wager) -> None:
        for t in self.book.rule(w.bet).totals:
            self._by_total[t][w.handle] = None

    def _drop(self, w: Wager) -> None:
        del self.wagers[w.handle]
        for t in self.book.rule(w.bet).totals:
            self._by_total[t].pop(w.handle, None)

    def bets_of(self, player: str) -> list[Wager]:
        """The player's live wagers in placement order (`bets` numbers them from 1)."""
        return [w for w in self.wagers.values() if w.player == player]

    @property
    def point(self) -> int:
        """The puck: 0 (OFF, a come-out roll is next) or the point."""
        return self.view.point

    # -- placing ----------------------------------------------------------
    def bet(self, player: str, words: str | list[str], wallet: int | None = None) -> list[Event]:
        """Parse and place: `table.bet("ann", "place 6 12")`. With `wallet`
        (the player's free chips), a wager it cannot cover is refused here,
        in one line, before any hold is tried."""
        req = parse_bet(words, self.variant)
        if isinstance(req, ParseError):
            return [BetRefused(player, req.reason)]
        return self.place(player, req, wallet)

    def place(self, player: str, req: BetRequest, wallet: int | None = None) -> list[Event]:
        """Check a request against the table; accepted -> [BetAccepted, Hold]."""
        refusal = self._refusal(player, req)
        charge = 0 if isinstance(refusal, str) else self.charge(refusal[0])
        need = req.amount + charge
        if not isinstance(refusal, str) and wallet is not None and need > wallet:
            refusal = ((f"that wager needs {need} chips ({req.amount} and the {charge} charge) "
                        f"and your wallet has {wallet}" if charge else
                        f"that wager needs {req.amount} chips and your wallet has {wallet}")
                       if wallet else "your wallet is empty")
        if isinstance(refusal, str):
            return [BetRefused(player, refusal)]
        bet, label, base = refusal
        w = Wager(self._key(), player, bet, label, base)
        self.wagers[w.handle] = w
        self._index(w)
        events: list[Event] = [BetAccepted(w, req.note), Hold(w.handle, player, bet.amount)]
        if charge:
            # New York's charge: its own stake, held and settled to the house in
            # this same input, so it is its own line in the ledger and never
            # part of the wager's stake (a removal, win or loss never returns it).
            fee = f"{w.handle}:charge"
            self._charges[fee] = w.handle
            events += [Hold(fee, player, charge), Settle(self._key(), (fee,), ((player, 0),)),
                       Charged(w, charge)]
        return events

    def charge(self, bet: Bet) -> int:
        """New York's charge on this bet, taken when it is made (0 elsewhere)."""
        return charge_on_bet(self.variant, bet)

    def _refusal(self, player: str, req: BetRequest) -> str | tuple[Bet, str, str | None]:
        kind, view = req.kind, self.view
        problem = timing_problem(kind, view.point, view.rolls, self.variant)
        if problem:
            return problem
        base: str | None = None
        number = req.number
        if not self.variant.offers(kind):
            return self.variant.refusal(kind)
        if kind not in (Kind.ODDS, Kind.LAY_ODDS) and number not in (self.variant.numbers(kind) or (0,)):
            return f"{kind.value} does not take {number}"
        if kind in (Kind.ODDS, Kind.LAY_ODDS):
            assert req.base is not None
            bases = [w for w in self.bets_of(player) if w.bet.kind is req.base
                     and (req.number == 0 or w.bet.number == req.number)]
            target = _base_name(req.base) + (str(req.number) if req.number else "")
            if not bases:
                return f"odds need a {target} bet of yours to back"
            if req.number == 0 and not bases[-1].bet.number:
                return f"odds on {target} wait until it has a point"
            number = bases[-1].bet.number
            bases = [w for w in bases if w.bet.number == number]
            base = bases[-1].handle
            label = "odds" + bases[-1].name
        bet = Bet(kind, number, req.amount)
        if base is None:
            label = name(bet)
        problem = stake_problem(self.limits, kind, number, req.amount,
                                f"odds on {target}" if base else label)
        if problem:
            return problem
        if base is not None:
            flat = sum(w.bet.amount for w in bases)
            handles = {w.handle for w in bases}
            taken = sum(w.bet.amount for w in self.wagers.values() if w.base in handles)
            limit = self.limits.odds_limit(kind, number, flat)
            if taken + req.amount > limit:
                unit = payout_unit(kind, number)
                more = max(limit - taken, 0) // unit * unit      # whole payout units only
                verb = "laid" if kind is Kind.LAY_ODDS else "taken"
                return (f"odds on {target} are limited to {limit // unit * unit} here; "
                        + (f"{more} more can be {verb}" if more else f"no more can be {verb}"))
        return bet, label, base

    def cancel(self, handle: str, reason: str = "") -> list[Event]:
        """The Hold for `handle` was refused: forget the wager (and refund odds backing it).
        A refused New York charge takes its bet down (its stake is already held)."""
        if handle in self._charges:
            w = self.wagers.get(self._charges.pop(handle))
            if w is None:
                return []
            return [BetCancelled(w, reason), *self._remove(w)[1:]]
        w = self.wagers.get(handle)
        if w is None:
            return []
        self._drop(w)
        events: list[Event] = [BetCancelled(w, reason)]
        for odds in [o for o in self.wagers.values() if o.base == handle]:
            events += self._remove(odds)
        return events

    # -- removing ---------------------------------------------------------
    def _remove(self, w: Wager) -> list[Event]:
        self._drop(w)
        events: list[Event] = [BetRemoved(w), Refund(self._key(), w.handle)]
        for odds in [o for o in self.wagers.values() if o.base == w.handle]:
            events += self._remove(odds)
        return events

    def unbet(self, player: str, target: str) -> list[Event]:
        """`unbet <name>` (place6, dc4, oddspass, 12), `unbet <n>` or `unbet all`."""
        key = "".join(target.lower().split())
        key = _ALIASES.get(key, key)
        for short, full in (("oddsdp", "oddsdontpass"), ("oddsdc", "oddsdontcome")):
            if key.startswith(short) and not key.startswith(full):
                key = full + key[len(short):]
        if key.startswith("dc") and key[2:].isascii() and key[2:].isdigit():
            key = "dontcome" + key[2:]
        mine = self.bets_of(player)
        # A bet's name wins over its number in `bets`: `unbet 12` is the
        # one-roll bet on 12 when there is one, and the reply names it.
        named = [w for w in mine if w.name == key]
        if key == "all":
            chosen = [w for w in mine if w.bet.kind not in CONTRACTS]
            if not chosen:
                return [UnbetRefused(player, "you have no bets that can be taken down")]
        elif named:
            chosen = named
        elif key.isascii() and key.isdigit():
            i = int(key)
            if not 1 <= i <= len(mine):
                return [UnbetRefused(player, f"you have no bet number {i}")]
            chosen = [mine[i - 1]]
        else:
            return [UnbetRefused(player, f"you have no bet called {target}")]
        if any(w.bet.kind in CONTRACTS for w in chosen):
            w = next(w for w in chosen if w.bet.kind in CONTRACTS)
            return [UnbetRefused(player, f"{w.name} is a contract bet and stays until it is decided")]
        events: list[Event] = []
        for w in chosen:
            if w.handle in self.wagers:
                events += self._remove(w)
        return events

    # -- rolling ----------------------------------------------------------
    def roll(self, dice: tuple[int, ...]) -> list[Event]:
        """Resolve every wager the roll can touch, then move the puck and trackers.

        The facts come first (BetWon/BetLost/BetPushed/Travelled), then one
        Settle whose stakes are every decided wager and whose
        pays are, per player, stake plus win for wins and stake for pushes.
        """
        view, total = self.view, sum(dice)
        events: list[Event] = [Rolled(dice, total, view.point, view.rolls + 1)]
        after = self.book.advance(view, dice)
        if self.variant.scheme is not Scheme.POINT:
            events += self._hand_facts(dice, view)
        elif total == 7:
            events.append(SevenOut(view.point) if view.point else ComeOutSeven())
        elif view.point == 0 and after.point:
            events.append(PointSet(after.point))
        elif view.point and total == view.point:
            events.append(PointMade(total, tuple(n for n in range(4, 11) if after.fire >> n & 1)))
        outcome = self.book.outcome
        decided: list[str] = []
        back: dict[str, int] = {}                  # player -> chips the roll returns to them
        for handle in list(self._by_total[total]):
            w = self.wagers[handle]
            o = outcome(w.bet, dice, view)
            r = o.result
            if r is Result.NONE:
                continue
            if r is Result.TRAVEL:                 # same handle, same place in `bets`
                for t in self.book.rule(w.bet).totals:
                    self._by_total[t].pop(w.handle, None)
                bet = w.bet.travel(o.number)
                moved = Wager(w.handle, w.player, bet, name(bet), w.base)
                self.wagers[w.handle] = moved
                self._index(moved)
                events.append(Travelled(moved, o.number))
                continue
            self._drop(w)
            decided.append(w.handle)
            if r is Result.WIN:
                events.append(BetWon(w, o.amount, o.commission))
                paid = w.bet.amount + o.amount
            elif r is Result.LOSE:
                events.append(BetLost(w))
                paid = 0
            else:
                events.append(BetPushed(w))
                paid = w.bet.amount
            back[w.player] = back.get(w.player, 0) + paid
        if decided:
            # One durable write for everything the roll decided (docs/architecture.md
            # "One settlement per roll"): a full table is one ledger transaction,
            # not one commit per wager awaited in turn. A player who gets nothing
            # back is still named, with 0, so the table can tell every owner of a
            # closed stake if the settlement is pending recovery.
            events.append(Settle(self._key(), tuple(decided), tuple(back.items())))
        self.view = after
        return events

    def _hand_facts(self, dice: tuple[int, ...], view: TableView) -> list[Event]:
        """High Point and Die Rich: what the roll did to the hand, read from the
        shooter's line bet's own rule (so the facts cannot disagree with it)."""
        o = self.book.outcome(Bet(self.variant.line, view.point, 1), dice, view)
        roll = view.step + 2 if view.point else 1
        if o.result is Result.TRAVEL:
            return [PointSet(o.number)]
        if o.result is Result.WIN:
            return [HandWon(view.point, roll, o.amount)]
        if o.result is Result.LOSE:
            return [HandLost(view.point, roll)]
        return []

    # -- leaving ----------------------------------------------------------
    def forfeit(self, player: str) -> list[Event]:
        """A disconnect: the player's live stakes go to the house."""
        events: list[Event] = []
        for w in self.bets_of(player):
            self._drop(w)
            events.append(Forfeit(self._key(), w.handle))
        self._puck_off_if_idle()
        return events

    def _puck_off_if_idle(self) -> None:
        """High Point: a point with no high bet left on it (its players gone) would
        hold the table, which takes bets only on the come-out: the puck comes off."""
        line = self.variant.line
        if self.variant.scheme is Scheme.HIGH and self.view.point and not any(
                w.bet.kind is line for w in self.wagers.values()):
            self.view = TableView(rolls=self.view.rolls)

    def refund_all(self, players: Iterable[str] | None = None) -> list[Event]:
        """Shutdown or eviction: every outstanding stake (of `players`) goes back."""
        wanted = None if players is None else set(players)
        events: list[Event] = []
        for w in list(self.wagers.values()):
            if wanted is None or w.player in wanted:
                self._drop(w)
                events.append(Refund(self._key(), w.handle))
        self._puck_off_if_idle()
        return events

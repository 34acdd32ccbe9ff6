"""High card at a table: bets held through the host, one deal settles them all."""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from server.config.model import GameOptions, TableConfig
from server.dice.source import TableDraws
from server.games.actions import Action, Actions, Move, Refusal
from server.games.intents import Hold, IntentKeys, Refund, Settle
from server.games.seam import AnyDealer, Dealer, Event, Note, OddsSheet
from server.games.seating import Seating

from . import view
from .events import BetsShown, Dealt, Snapshot, Wager
from .options import HighCardOptions


class HighCardDealer(Dealer[Snapshot]):
    forfeits_on_drop = False            # a dropped player's bet stays for the next deal

    def __init__(self, config: TableConfig[HighCardOptions], tick_hz: int, dice: TableDraws,
                 seating: Seating) -> None:
        super().__init__(config, tick_hz, dice, seating, ACTIONS, view.VIEWS)
        self.options = config.options
        self.bets: dict[str, Wager] = {}
        self.deals = 0
        self._key = IntentKeys(config.id)
        self.last: Dealt | None = None

    def snapshot(self) -> Snapshot:
        return Snapshot(self.config.id, self.config.min_bet, self.config.max_bet, self.options.ties,
                        tuple(self.bets.values()), self.last)

    # --- words ---------------------------------------------------------------
    def _bet(self, move: Move) -> list[Event]:
        amount = parse_amount(move.args)
        if move.player in self.bets:
            raise Refusal("You have a bet down already: 'unbet' to take it back.")
        if not self.config.min_bet <= amount <= self.config.max_bet:
            raise Refusal(f"Bets here are {self.config.min_bet} to {self.config.max_bet} chips.")
        if amount > move.wallet:
            raise Refusal(f"Your wallet has {move.wallet} chips.")
        wager = Wager(self._key("bet"), move.player, amount)
        self.bets[move.player] = wager
        return [Hold(wager.handle, move.player, amount), Note(None, f"{move.player} bets {amount}."),
                BetsShown(move.player)]

    def _bets(self, move: Move) -> list[Event]:
        return [BetsShown(move.player)]

    def _unbet(self, move: Move) -> list[Event]:
        wager = self.bets.pop(move.player, None)
        if wager is None:
            raise Refusal("You have no bet down.")
        return [Refund(self._key("refund"), wager.handle),
                Note((move.player,), f"Your bet of {wager.amount} comes back.")]

    def _deal(self, move: Move) -> list[Event]:
        if not self.bets:
            raise Refusal("Nobody has a bet down: 'bet <n>' first.")
        self.deals += 1
        wagers = tuple(self.bets.values())
        cards = tuple((w.player, self.dice.draw(13)) for w in wagers)
        house = self.dice.draw(13)
        pays: list[tuple[str, int]] = []
        net: list[tuple[str, int]] = []
        for wager, (_, card) in zip(wagers, cards):
            if card > house:
                pays.append((wager.player, 2 * wager.amount))
                net.append((wager.player, wager.amount))
            elif card == house and self.options.ties == "push":
                pays.append((wager.player, wager.amount))
                net.append((wager.player, 0))
            else:
                pays.append((wager.player, 0))
                net.append((wager.player, -wager.amount))
        self.bets.clear()
        self.last = Dealt(self.deals, cards, house, tuple(net))
        self.dice.rotate()
        return [Settle(self._key("deal"), tuple(w.handle for w in wagers), tuple(pays)), self.last]

    # --- the host's other inputs ---------------------------------------------
    def hold_refused(self, key: str, reason: str) -> list[Event]:
        for player, wager in list(self.bets.items()):
            if wager.handle == key:
                del self.bets[player]
                return [Note((player,), f"Your bet was not taken: {reason}.")]
        return []

    def unseated(self, player: str, how: str) -> list[Event]:
        wager = self.bets.pop(player, None)
        return [] if wager is None else [Refund(self._key("refund"), wager.handle)]

    def close(self, why: str) -> list[Event]:
        refunds: list[Event] = [Refund(self._key("refund"), w.handle) for w in self.bets.values()]
        self.bets.clear()
        return [Note(None, why), *refunds]

    def seated(self, player: str, back: bool) -> list[Event]:
        return [Note(None, f"{player} sits down at high card."),
                Note((player,), "Welcome to high card: 'bet <n>', then 'deal'.")]

    # --- who is who, what people see -------------------------------------------
    def phase(self) -> str:
        return "betting"

    def roles(self) -> dict[str, str]:
        names = self.seating.names()
        return {names[0]: "deals the cards"} if names else {}


def parse_amount(words: Sequence[str]) -> int:
    if len(words) != 1 or not words[0].isdecimal():
        raise Refusal("Usage: bet <n>, e.g. bet 10")
    return int(words[0])


ACTIONS = Actions[HighCardDealer]("High card", (
    Action("bet", "bet <n>", "put n chips on your next card against the house's.", HighCardDealer._bet,
           needs=True, opens=True),
    Action("bets", "bets", "your bet on the table.", HighCardDealer._bets),
    Action("unbet", "unbet", "take your bet back before the deal.", HighCardDealer._unbet),
    Action("deal", "deal", "deal a card to every bettor and to the house.", HighCardDealer._deal,
           aliases=("flip",), opens=True),
))


def make(config: TableConfig[GameOptions], tick_hz: int, dice: TableDraws, seating: Seating) -> AnyDealer:
    return HighCardDealer(config.narrowed(HighCardOptions), tick_hz, dice, seating)


def odds_sheet(config: TableConfig[GameOptions]) -> OddsSheet:
    """Ties to the house: the house wins 1 deal in 13 more than it loses."""
    table = config.narrowed(HighCardOptions)
    edge = Fraction(1, 13) if table.options.ties == "house" else Fraction(0)
    return OddsSheet(f"{table.id}: high card, ties to the {table.options.ties}", (("bet", edge),))

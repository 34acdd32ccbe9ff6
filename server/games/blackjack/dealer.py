"""Blackjack at a table: the pure engine (game.py) wired to the table's seats and draws.

Policy (docs/play-blackjack.md), the table's Seating being who is here:
- the clock runs when two or more are seated and not sitting out: the
  betting window with its last call, then the deal, and `decision_seconds`
  a decision, the hand standing when it runs out. Alone, the cards come at
  the bet (at the next tick, once the bet's hold is durable) and no clock runs;
- leaving, sitting out or dropping mid-round forfeits nothing:
  `has_live_bets` is always False, so the table unseats at once; a bet not
  yet dealt is refunded, hands in play stand and are settled to the wallet,
  the Settlement becoming a Notice told now or at the next login;
- the shoe is shuffled from the table's FairDice at the first deal after
  the last shoe was retired; when its cut card has come out and the round
  is settled the dice rotate, revealing the seed (`fair`, `casino verify
  --draw shoe`);
- shutdown refunds every stake of a round not yet settled.
"""
from __future__ import annotations

from collections.abc import Sequence

from server.config.model import GameOptions, TableConfig
from server.dice.source import TableDraws
from server.games.actions import Action, Actions, Move, Refusal
from server.games.intents import Settle
from server.games.roulette.bets import parse_amount
from server.games.seam import AnyDealer, Dealer, Event, HandResult, Note, Notice
from server.games.seating import Seating

from . import view
from .events import BetRefused, BetReturned, DealerPlayed, HandView, Settlement, ShoeRetired, TableClosed
from .game import BlackjackGame
from .hint import hint
from .moves import Move as Decision
from .moves import legal
from .options import BlackjackOptions
from .rounds import Phase
from .snapshot import TableSnapshot


class BlackjackDealer(Dealer[TableSnapshot]):
    forfeits_on_drop = False            # hands stand and are settled to the wallet
    config: TableConfig[BlackjackOptions]

    def __init__(self, config: TableConfig[BlackjackOptions], tick_hz: int, dice: TableDraws,
                 seating: Seating) -> None:
        super().__init__(config, tick_hz, dice, seating, ACTIONS, view.VIEWS)
        self.game = BlackjackGame(config.options, dice.draw, tick_hz, config.id, order=seating.active,
                                  timed=self._timed, commitment=lambda: dice.commitment)
        self._cancelled: set[str] = set()
        surrender = config.options.surrender == "late"
        self._offered = Actions(ACTIONS.game, tuple(a for a in ACTIONS if a.word != "surrender" or surrender))

    def _timed(self) -> bool:
        return len(self.seating.active()) >= 2

    # --- who is who ----------------------------------------------------------
    def phase(self) -> str:
        g = self.game
        left = g.clock.seconds_left
        if g.phase is Phase.BETTING and left is not None:
            return f"betting, {left} s left"
        if g.phase is Phase.PLAYING and g.round.turn:
            return f"{g.round.turn[0]} to play"
        return g.phase.value

    def roles(self) -> dict[str, str]:
        turn = self.game.round.turn
        return {turn[0]: "has the turn"} if turn and self.game.phase is Phase.PLAYING else {}

    def between_hands(self, at_rest: bool) -> bool:
        return self.game.phase in (Phase.IDLE, Phase.CLOSED) or at_rest and self.game.phase is Phase.BETTING

    # --- seating ---------------------------------------------------------------
    def seated(self, player: str, back: bool) -> list[Event]:
        self.game.rejoin(player)
        o = self.config.options
        welcome = (f"Welcome to {self.config.id}: blackjack, {o.decks} decks, blackjack pays {o.blackjack_pays}, "
                   f"bets {o.min_bet} to {o.max_bet} in {o.bet_unit}s. 'bet <n>' to play, 'table' to look, "
                   "'table rules' for every rule.")
        events: list[Event] = [Note(None, f"{player} sits down at the blackjack table."), Note((player,), welcome)]
        if self._timed():
            events += self.game.restart_window()
        return self._after(events)

    def unseated(self, player: str, how: str) -> list[Event]:
        # The player is up already, so they read their refund as a Note, not as a fact of the table.
        events: list[Event] = [Note((e.player,), f"Your bet of {e.amount} is back in your wallet: {e.why}.")
                               if isinstance(e, BetReturned) else e for e in self.game.leave(player)]
        if how != "gone" and player in self.game.round.hands:
            events.append(Note((player,), "Your hands stand; what they win goes to your wallet."))
        return self._after(events)

    # --- commands (declared in ACTIONS below) ----------------------------------
    def _bet(self, move: Move) -> list[Event]:
        got = parse_amount(move.args[0])
        if isinstance(got, str):
            raise Refusal(f"Refused: {got}.")
        amount, note = got
        if amount > move.wallet and amount <= self.config.options.max_bet:
            return [BetRefused(move.player, f"{amount} is more than your wallet ({move.wallet} chips)")]
        return self._after(self.game.bet(move.player, amount, note))

    def _decide(self, move: Move) -> list[Event]:
        return self._after(self.game.decide(move.player, Decision(move.word), move.wallet))

    def _hint(self, move: Move) -> list[Event]:
        return [Note((move.player,), hint(self.game, move.player, move.wallet))]

    def _insure(self, move: Move) -> list[Event]:
        word = move.args[0].lower() if move.args else ""
        if word in ("no", "none", "0", "decline"):
            amount: int | None = 0
        elif not word:
            amount = None
        else:
            got = parse_amount(word)
            if isinstance(got, str):
                raise Refusal(f"Refused: {got}; 'insurance' insures half your bet, 'insurance no' declines.")
            amount = got[0]
        return self._after(self.game.insure(move.player, amount, move.wallet))

    # --- time and the table's other inputs ---------------------------------------
    def advance(self, ticks: int) -> list[Event]:
        return self._after(self.game.advance(ticks))

    def hold_refused(self, key: str, reason: str) -> list[Event]:
        self._cancelled.add(key)
        return self._after(self.game.hold_refused(key, reason))

    def close(self, why: str) -> list[Event]:
        away = set(self.game.round.away)
        return self._after([Note(None, why), *self.game.close(why)], away)

    def reconfigure(self, config: TableConfig[GameOptions]) -> bool:
        return False                # every rule waits for a table at rest and a new dealer

    # --- what people see -----------------------------------------------------------
    def snapshot(self) -> TableSnapshot:
        g = self.game
        r = g.round if (g.round.hands or g.last is None) else g.last
        shown = r is g.last
        shoe = g.shoe
        hand = g.round.hand()
        moves: tuple[str, ...] = ()
        if hand is not None and g.round.turn is not None:
            moves = tuple(str(m) for m in legal(hand, len(g.round.hands[g.round.turn[0]]), g.options))
        return TableSnapshot(
            table_id=self.config.id, options=g.options, phase=g.phase, seconds_left=g.clock.seconds_left,
            round=g.rounds if g.round.hands else g.rounds + 1,
            bets=tuple((p, chips) for p, (_, chips, _) in g.round.bets.items()),
            hands=tuple((p, tuple(HandView.of(h) for h in hands)) for p, hands in r.hands.items()),
            insured=tuple((p, chips) for p, (_, chips) in r.insurance.items()),
            dealer=tuple(r.dealer), hole_shown=shown,
            turn=(g.round.turn[0], g.round.turn[1] + 1) if g.round.turn and not shown else None,
            seated=tuple(self.seating.names()), away=frozenset(g.round.away), cancelled=frozenset(self._cancelled),
            shoe=shoe.number if shoe else 0, dealt=shoe.dealt if shoe else 0,
            size=g.options.decks * 52, cut=shoe.cut if shoe else g.options.decks * 52 * g.options.penetration // 100,
            commitment=self.dice.commitment, moves=moves,
            commands=self._offered.reminder("table rules", "leave", "help blackjack"))

    # --- after the engine ------------------------------------------------------------
    def _after(self, events: Sequence[Event], away: set[str] | frozenset[str] = frozenset()) -> list[Event]:
        """Book-keeping on the engine's events: the dice rotate when a shoe is
        retired (revealing its seed), players who left are sent a Notice after
        the Settle that paid them, the operator's log gets the round."""
        out: list[Event] = []
        for e in events:
            out.append(e)
            if isinstance(e, ShoeRetired):
                self.dice.rotate()
            elif isinstance(e, Settlement) and e.away:
                out.append(Notice(e.player, view.away_text(self.config.id, e)))
            elif isinstance(e, TableClosed):
                out += [Notice(p, f"Your bets at {self.config.id} were refunded when the table closed: "
                                  f"{chips} chips back to your wallet.") for p, chips in e.refunded if p in away]
        settlements = [e for e in events if isinstance(e, Settlement)]
        if any(isinstance(e, Settle) for e in events):
            dealer = next(e for e in events if isinstance(e, DealerPlayed))
            out.append(HandResult((("round", settlements[0].round if settlements else 0),
                                   ("dealer", " ".join(c.name for c in dealer.cards)),
                                   ("players", len(settlements)),
                                   ("staked", sum(s.staked for s in settlements)),
                                   ("paid", sum(s.paid for s in settlements)))))
        return out


def make(config: TableConfig[GameOptions], tick_hz: int, dice: TableDraws, seating: Seating) -> AnyDealer:
    """The catalogue's MakeDealer: a blackjack dealer for a `game: blackjack` table."""
    return BlackjackDealer(config.narrowed(BlackjackOptions), tick_hz, dice, seating)


def _decision(word: str, text: str) -> Action[BlackjackDealer]:
    return Action(word, word, text, BlackjackDealer._decide)


ACTIONS = Actions[BlackjackDealer]("Blackjack", (
    Action("bet", "bet <n>", "bet n chips on the next round (a multiple of the table's bet unit); alone at "
           "the table the cards come at once.", BlackjackDealer._bet, needs=True, opens=True),
    _decision("hit", "one more card for the hand whose turn it is."),
    _decision("stand", "keep the hand as it is; the turn passes on."),
    _decision("double", "double the bet on your first two cards and take exactly one card more."),
    _decision("split", "split two cards of the same rank into two hands, each with your bet."),
    _decision("surrender", "where the table offers late surrender: give up your first two cards for half "
                           "the bet back."),
    Action("insurance", "insurance [n|no]", "with an ace up, insure for up to half your bet (bare: half; "
           "even money on a blackjack); it pays 2:1 if the dealer has blackjack. 'insurance no' declines.",
           BlackjackDealer._insure, aliases=("insure", "even"), brief="insurance [n|no]"),
    Action("hint", "hint", "what basic strategy does with your hand against the dealer's card under this "
           "table's rules (hit, stand, double, split or surrender), and why.", BlackjackDealer._hint),
))

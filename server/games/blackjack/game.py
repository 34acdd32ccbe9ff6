"""Blackjack as a pure state machine: commands and ticks in, events out.

    game = BlackjackGame(BlackjackOptions(), draw, tick_hz=10, table_id="t",
                         order=lambda: ["ann", "bob"], timed=lambda: True)
    game.bet("ann", 10)              # [Hold, BetPlaced] or [BetRefused]
    game.advance(ticks)              # the window, the deal, the peek, clocks, the dealer, the settlement
    game.insure("ann", 5, wallet)    # with an ace up, before the peek
    game.decide("ann", Move.HIT, wallet)
    game.hold_refused(key, reason)   # the ledger refused a Hold: that stake never was
    game.leave("ann")                # a bet not dealt is refunded; hands in play stand
    game.close("shutdown")           # every stake of a round not yet settled is refunded

Nothing here awaits, reads a clock or makes randomness: the shoe is
shuffled with `draw(n)`, handed in. A command answers with at most a Hold
and facts; everything that needs stakes to be durable (the deal, the peek,
a double's or a split's card, the dealer's play and the one Settle of the
round) happens in `advance`, the next input after the Hold, so the table
has told the game of any refused hold before a card depends on it.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from server.games.intents import Hold, IntentKeys, Refund

from .cards import Card
from .events import (BetCancelled, BetPlaced, BetRefused, BetReturned, BetsOpen, Dealt, DealerPlayed,
                     Did, Event, HandView, InsuranceOffered, Insured, LastCall, Peeked, Played, Shuffled,
                     ShoeRetired, TableClosed, Turn)
from .hands import Hand, split, total
from .moves import Move, legal, refusal
from .options import BlackjackOptions
from .round import Pending, Round
from .rounds import Countdown, Phase
from .settlement import dealer_draws, settle_round
from .shoe import Shoe, shuffled


def amount_problem(amount: int, o: BlackjackOptions) -> str | None:
    """Why a bet of `amount` is not one this table takes, or None."""
    if amount < o.min_bet or amount > o.max_bet:
        return f"bets here are {o.min_bet} to {o.max_bet} chips"
    if amount % o.bet_unit:
        return (f"{amount} is not a multiple of {o.bet_unit}: bets here are in {o.bet_unit}s, so every "
                f"payout ({o.blackjack_pays} on a blackjack) is whole chips")
    return None


class BlackjackGame:
    """One table's shoe and round; see the module docstring."""

    def __init__(self, options: BlackjackOptions, draw: Callable[[int], int], tick_hz: int, table_id: str,
                 order: Callable[[], Sequence[str]], timed: Callable[[], bool],
                 commitment: Callable[[], str | None] = lambda: None) -> None:
        problems = options.problems()
        if problems:
            raise ValueError("; ".join(problems))
        self.options, self._draw, self._order, self._timed = options, draw, order, timed
        self._commitment = commitment
        self._key = IntentKeys(table_id)
        self.clock = Countdown(tick_hz)
        self.phase = Phase.IDLE
        self.round = Round()
        self.last: Round | None = None           # the round settled last, for `table`
        self.rounds = 0                          # rounds dealt
        self.shoe: Shoe | None = None
        self.shoes = 0
        self._news: list[Event] = []             # a shoe shuffled mid-round, told first

    # --- commands ----------------------------------------------------------------
    def bet(self, player: str, amount: int, note: str | None = None) -> list[Event]:
        o, r = self.options, self.round
        problem: str | None = None
        if self.phase is Phase.CLOSED:
            problem = "the table is closed"
        elif self.phase not in (Phase.IDLE, Phase.BETTING):
            problem = "the cards are out: bets for the next round open once this one is settled"
        elif player in r.bets:
            problem = f"you have bet {r.bets[player][1]} on this round already"
        problem = problem or amount_problem(amount, o)
        if problem:
            return [BetRefused(player, problem)]
        handle = self._key()
        r.bets[player] = (handle, amount, note)
        self.phase = Phase.BETTING
        return [Hold(handle, player, amount), BetPlaced(player, handle, amount, note)]

    def insure(self, player: str, amount: int | None, wallet: int) -> list[Event]:
        """Insure for `amount` (None: half the bet, the most allowed; 0: decline)."""
        r = self.round
        if self.phase is not Phase.INSURANCE:
            return [BetRefused(player, "insurance is offered only with an ace up, before the dealer peeks")]
        if player not in r.hands or player in r.answered:
            return [BetRefused(player, "you have answered already" if player in r.answered
                               else "you have no hand this round")]
        hand = r.hands[player][0]
        most = hand.bet // 2
        amount = most if amount is None else amount
        if amount > most:
            return [BetRefused(player, f"insurance is at most half your bet: {most}")]
        if amount > wallet:
            return [BetRefused(player, f"your wallet ({wallet} chips) does not cover {amount}")]
        r.answered.add(player)
        if amount == 0:
            return [Insured(player, 0, False)]
        handle = self._key()
        r.insurance[player] = (handle, amount)
        return [Hold(handle, player, amount), Insured(player, amount, hand.blackjack, handle)]

    def decide(self, player: str, move: Move, wallet: int) -> list[Event]:
        r = self.round
        if self.phase is Phase.INSURANCE:
            return [BetRefused(player, "insurance first: 'insurance' (half your bet) or 'insurance no'")]
        if self.phase is not Phase.PLAYING or r.turn is None:
            return [BetRefused(player, "there is no hand to play now")]
        if r.turn[0] != player:
            return [BetRefused(player, f"it is {r.turn[0]}'s turn")]
        if r.pending is not None:
            return [BetRefused(player, f"one moment: your {r.pending.move} is being staked")]
        i = r.turn[1]
        hand = r.hands[player][i]
        problem = refusal(move, hand, len(r.hands[player]), self.options)
        if problem is None and move in (Move.DOUBLE, Move.SPLIT) and wallet < hand.bet:
            problem = f"your wallet ({wallet} chips) does not cover another {hand.bet}; the hand goes on"
        if problem:
            return [BetRefused(player, problem)]
        if move in (Move.DOUBLE, Move.SPLIT):
            key = self._key()
            r.pending = Pending(player, i, move, key)
            self.clock.stop()
            return [Hold(key, player, hand.bet)]
        if move is Move.HIT:
            hand.cards.append(self._card())
            hand.done = hand.total >= 21
        else:
            hand.done = True
            hand.surrendered = move is Move.SURRENDER
        return self._told([Played(player, i + 1, Did(move.value), HandView.of(hand)),
                           *self._turn(again=not hand.done)])

    def hold_refused(self, key: str, reason: str) -> list[Event]:
        """The ledger would not hold the stake with `key`: it never was (no money moved)."""
        r = self.round
        pending = r.pending
        cancelled = r.cancel(key)
        if cancelled is None:
            return []
        if not r.bets and self.phase is Phase.BETTING:
            self.phase = Phase.IDLE
            self.clock.stop()
        again = self._turn(again=True) if pending is not None and pending.key == key else []
        return [BetCancelled(cancelled[0], key, cancelled[1], reason), *again]

    def leave(self, player: str) -> list[Event]:
        """Up from the table (left, sat out or dropped): a bet not yet dealt is
        refunded; hands in play stand and are settled to the wallet."""
        r = self.round
        events: list[Event] = []
        if player in r.bets:
            handle, amount, _ = r.bets.pop(player)
            events += [Refund(self._key(), handle), BetReturned(player, amount, "you left before the deal")]
            if not r.bets and self.phase is Phase.BETTING:
                self.phase = Phase.IDLE
                self.clock.stop()
        if player in r.hands:
            r.away.add(player)
            r.answered.add(player)
            for i, h in enumerate(r.hands[player]):
                if not h.done and not (r.pending and r.pending.player == player and r.pending.hand == i):
                    h.done = True
                    events.append(Played(player, i + 1, Did.AWAY, HandView.of(h)))
            if r.turn is not None and r.turn[0] == player and r.pending is None:
                events += self._turn()
        return events

    def rejoin(self, player: str) -> None:
        self.round.away.discard(player)

    def restart_window(self) -> list[Event]:
        """A second player sat down: a fresh betting window (more wagers never extend one)."""
        if self.phase is Phase.BETTING and self.clock.running:
            self.clock.start(self.options.bet_window, self.options.last_call)
            return [BetsOpen(self.rounds + 1, self.options.bet_window)]
        return []

    def close(self, why: str) -> list[Event]:
        """Shutdown or removal: every stake of a round not yet settled goes back."""
        if self.phase is Phase.CLOSED:
            return []
        held = self.round.held()
        events: list[Event] = [Refund(self._key(), handle) for _, handle, _ in held]
        totals = {player: sum(c for p, _, c in held if p == player) for player, _, _ in held}
        self.phase, self.round = Phase.CLOSED, Round()
        self.clock.stop()
        return events + [TableClosed(why, tuple(totals.items()))]

    # --- time ----------------------------------------------------------------------
    def advance(self, ticks: int) -> list[Event]:
        if ticks < 0:
            raise ValueError("ticks cannot be negative")
        events: list[Event] = []
        if self.round.pending is not None:
            events += self._resolve()
        timed = self._timed()
        if self.phase is Phase.BETTING:
            if not timed:
                self.clock.stop()
                events += self._deal()
            else:
                if not self.clock.running:
                    self.clock.start(self.options.bet_window, self.options.last_call)
                    events.append(BetsOpen(self.rounds + 1, self.options.bet_window))
                    ticks = 0
                call, ended = self.clock.run(ticks)
                if call:
                    events.append(LastCall(self.rounds + 1, self.options.last_call))
                if ended:
                    events += self._deal()
        elif self.phase is Phase.INSURANCE:
            ended = self.clock.tick(timed, ticks, self.options.decision_seconds)
            if ended or set(self.round.hands) <= self.round.answered:
                events += [Insured(p, 0, False) for p in self.round.hands if p not in self.round.answered]
                events += self._peek()
        elif self.phase is Phase.PLAYING and self.round.pending is None:
            if self.clock.tick(timed, ticks, self.options.decision_seconds) and self.round.turn is not None:
                player, i = self.round.turn
                hand = self.round.hands[player][i]
                hand.done = True
                events += [Played(player, i + 1, Did.TIMEOUT, HandView.of(hand)), *self._turn()]
        if self.phase is Phase.DEALER:
            events += self._dealer_plays()
        return self._told(events)

    # --- inside ----------------------------------------------------------------------
    def _card(self) -> Card:
        """The next card out of the shoe. A shoe that runs out mid-round (one
        deck cut deep, many splits) is followed by a fresh one shuffled from the
        next draws under the same commitment, told before the cards it deals."""
        if self.shoe is None or not self.shoe.left:
            self._news.append(self._new_shoe())
        assert self.shoe is not None
        return self.shoe.deal()

    def _new_shoe(self) -> Shuffled:
        self.shoes += 1
        self.shoe = Shoe(shuffled(self.options.decks, self._draw), self.options.penetration, self.shoes)
        return Shuffled(self.shoes, self.options.decks, self.shoe.cut, self._commitment())

    def _told(self, events: list[Event]) -> list[Event]:
        """`events` after any shoe shuffled while they were made."""
        news, self._news = self._news, []
        return news + events

    def _deal(self) -> list[Event]:
        r, events = self.round, list[Event]()
        if self.shoe is None:
            events.append(self._new_shoe())
        self.rounds += 1
        r.number = self.rounds
        seats = list(self._order())
        players = [p for p in seats if p in r.bets] + [p for p in r.bets if p not in seats]
        for p in players:
            handle, amount, _ = r.bets[p]
            r.hands[p] = [Hand([], amount, [handle])]
            r.stakes.append(handle)
        r.bets.clear()
        for _ in range(2):
            for p in players:
                r.hands[p][0].cards.append(self._card())
            r.dealer.append(self._card())
        for hands in r.hands.values():
            hands[0].done = hands[0].blackjack
        up = r.dealer[0]
        events.append(Dealt(r.number, tuple((p, HandView.of(r.hands[p][0])) for p in players), up))
        if up.ace:
            self.phase = Phase.INSURANCE
            self.clock.stop()
            timed = self._timed()
            events.append(InsuranceOffered(r.number, tuple(players),
                                           self.options.decision_seconds if timed else None))
            return events
        return events + (self._peek() if up.ten else self._play())

    def _peek(self) -> list[Event]:
        r = self.round
        blackjack = total(r.dealer)[0] == 21
        events: list[Event] = [Peeked(r.dealer[0], blackjack)]
        if blackjack:
            self.phase = Phase.DEALER
            return events
        return events + self._play()

    def _play(self) -> list[Event]:
        self.phase = Phase.PLAYING
        return self._turn()

    def _turn(self, again: bool = False) -> list[Event]:
        """Whose turn it is now (`again`: the same hand goes on), with a fresh clock."""
        r = self.round
        r.turn = r.turn if again else r.next_turn()
        if r.turn is None:
            self.phase = Phase.DEALER
            self.clock.stop()
            return []
        player, i = r.turn
        hand, n = r.hands[player][i], len(r.hands[player])
        timed = self._timed()
        if timed:
            self.clock.start(self.options.decision_seconds)
        else:
            self.clock.stop()
        moves = tuple(str(m) for m in legal(hand, n, self.options))
        return [Turn(player, i + 1, n, HandView.of(hand), r.dealer[0], moves,
                     self.options.decision_seconds if timed else None)]

    def _resolve(self) -> list[Event]:
        """A double's or split's hold is durable: deal its cards."""
        r = self.round
        p, r.pending = r.pending, None
        assert p is not None
        hands = r.hands[p.player]
        hand = hands[p.hand]
        hand.stakes.append(p.key)
        r.stakes.append(p.key)
        if p.move is Move.DOUBLE:
            hand.doubled = True
            hand.cards.append(self._card())
            hand.done = True
            return [Played(p.player, p.hand + 1, Did.DOUBLE, HandView.of(hand)), *self._turn()]
        other = split(hands, p.hand, self._card, self.options)
        events: list[Event] = [Played(p.player, p.hand + 1, Did.SPLIT, HandView.of(hand), HandView.of(other))]
        return events + self._turn(again=not hand.done)

    def _dealer_plays(self) -> list[Event]:
        r, o = self.round, self.options
        live = r.live() and total(r.dealer)[0] != 21         # a dealer blackjack draws nothing
        dealer_draws(r.dealer, live, o.hits_soft_17, self._card)
        events: list[Event] = [DealerPlayed(tuple(r.dealer), live)]
        stakes = [*r.stakes, *(handle for handle, _ in r.insurance.values())]
        events += settle_round(r.number, r.hands, r.insurance, stakes, r.dealer, o.pays, self._key, r.away)
        self.last, self.round, self.phase = r, Round(), Phase.IDLE
        self.clock.stop()
        if self.shoe is not None and self.shoe.cut_out:
            events.append(ShoeRetired(self.shoe.number, self.shoe.dealt))
            self.shoe = None
        return events


"""Exact money: 100,000 rounds through the engine with random legal (and some
illegal) decisions, every one checked against an independent reckoning of
the same cards.

The reckoning here shares nothing with the engine but the facts it reads:
it shuffles its own copy of each shoe from the same draws (its own
Fisher-Yates), follows every card out of that shoe into its own model of
each hand, plays the dealer's hand by the rules itself, and works out what
each hand returns. Each Settle must pay each player exactly that, each
Settlement must say it hand by hand, and the ledger model must balance
after every round (held = paid + house + refunded + still open).
"""
from __future__ import annotations

import random
from fractions import Fraction

import pytest
from bj_helpers import Draws, Ledger, of

from server.games.blackjack.events import (BetCancelled, BetPlaced, Dealt, DealerPlayed, Did, Insured,
                                           Peeked, Played, Settlement, ShoeRetired, Shuffled, TableClosed, Turn)
from server.games.blackjack.game import BlackjackGame
from server.games.blackjack.moves import Move, legal
from server.games.blackjack.options import BlackjackOptions
from server.games.blackjack.rounds import Phase
from server.games.intents import Hold, Refund, Settle

PLAYERS = ("ann", "bob", "cy")
RULESETS = (
    dict(),
    dict(decks=1, blackjack_pays="6:5", min_bet=5, soft_17="hit", surrender="late", min_bet_unit=10),
    dict(decks=2, surrender="late", resplit_aces=True, max_hands=3, double_after_split=False),
    dict(decks=8, penetration=90, soft_17="hit", max_hands=8, resplit_aces=True),
    dict(decks=4, blackjack_pays="6:5", min_bet=5, max_hands=1, penetration=50),
)


# --- the independent reckoning ----------------------------------------------------
def value(rank: int) -> int:
    return 10 if rank >= 10 else rank


def count(ranks: list[int]) -> tuple[int, bool]:
    n = sum(value(r) for r in ranks)
    if 1 in ranks and n + 10 <= 21:
        return n + 10, True
    return n, False


def fisher_yates(decks: int, draws: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(rank, suit) in dealing order: card k of a deck is suit k // 13, rank k % 13 + 1."""
    cards = [(k % 13 + 1, k // 13) for _ in range(decks) for k in range(52)]
    it = iter(draws)
    for i in range(len(cards) - 1, 0, -1):
        n, j = next(it)
        assert n == i + 1
        cards[i], cards[j] = cards[j], cards[i]
    return cards


class Model:
    """One player's hand as the reckoning sees it."""

    def __init__(self, cards, bet, split=False):
        self.cards, self.bet, self.split = cards, bet, split
        self.doubled = self.surrendered = False

    def back(self, dealer, pays: Fraction) -> int:
        me, _ = count([r for r, _ in self.cards])
        dn, _ = count([r for r, _ in dealer])
        dealer_bj = len(dealer) == 2 and dn == 21
        bj = len(self.cards) == 2 and me == 21 and not self.split
        stake = self.bet * (2 if self.doubled else 1)
        if self.surrendered:
            return self.bet // 2
        if me > 21:
            return 0
        if bj:
            return self.bet if dealer_bj else self.bet + int(self.bet * pays)
        if dealer_bj:
            return 0
        if dn > 21 or me > dn:
            return 2 * stake
        return stake if me == dn else 0


class Reckoner:
    def __init__(self, options: BlackjackOptions, draws: Draws) -> None:
        self.o, self.draws = options, draws
        self.used = 0                       # draws consumed by earlier shoes
        self.shoe: list[tuple[int, int]] = []
        self.pos = 0
        self.round: dict[str, list[Model]] = {}
        self.bets: dict[str, tuple[str, int]] = {}
        self.insured: dict[str, int] = {}
        self.dealer: list = []
        self.hole = None
        self.checked = 0
        self.shoes = self.shuffles = 0
        self.cancelled: set[str] = set()

    def fresh(self) -> None:
        n = self.o.decks * 52 - 1
        self.shoe = fisher_yates(self.o.decks, self.draws.values[self.used:self.used + n])
        self.used += n
        self.pos = 0
        self.shoes += 1

    def next(self):
        if not self.shoe or self.pos == len(self.shoe):
            self.fresh()                # a shoe that ran out (or the first): the next draws make the next
        card = self.shoe[self.pos]
        self.pos += 1
        return card

    def see(self, e) -> None:
        if isinstance(e, Shuffled):
            assert e.cut == self.o.decks * 52 * self.o.penetration // 100
            self.shuffles += 1                 # the reckoning shuffles its own, when its shoe is out
        elif isinstance(e, BetCancelled):
            self.cancelled.add(e.handle)                 # its fact, which follows, is void
        elif isinstance(e, BetPlaced) and e.handle not in self.cancelled:
            self.bets[e.player] = (e.handle, e.amount)
        elif isinstance(e, Dealt):
            players = [p for p, _ in e.hands]
            assert sorted(players) == sorted(self.bets)
            first = [self.next() for _ in players]
            up = self.next()
            second = [self.next() for _ in players]
            self.hole = self.next()
            self.round = {p: [Model([a, b], self.bets[p][1])] for p, a, b in zip(players, first, second)}
            self.dealer = [up]
            assert (e.up.rank, e.up.suit) == up
            for p, view in e.hands:
                assert [(c.rank, c.suit) for c in view.cards] == [c for c in self.round[p][0].cards]
            self.bets.clear()
        elif isinstance(e, Insured) and e.amount and e.handle not in self.cancelled:
            self.insured[e.player] = e.amount
        elif isinstance(e, Played):
            hands = self.round[e.player]
            h = hands[e.hand - 1]
            if e.did is Did.HIT:
                h.cards.append(self.next())
            elif e.did is Did.DOUBLE:
                h.doubled = True
                h.cards.append(self.next())
            elif e.did is Did.SURRENDER:
                h.surrendered = True
            elif e.did is Did.SPLIT:
                other = Model([h.cards.pop()], h.bet, split=True)
                h.split = True
                hands.insert(e.hand, other)
                h.cards.append(self.next())
                other.cards.append(self.next())
                assert [(c.rank, c.suit) for c in e.other.cards] == other.cards
            assert [(c.rank, c.suit) for c in e.after.cards] == h.cards
        elif isinstance(e, Peeked):
            assert e.blackjack == (count([self.dealer[0][0], self.hole[0]])[0] == 21)
        elif isinstance(e, DealerPlayed):
            self.dealer.append(self.hole)
            bj = count([r for r, _ in self.dealer])[0] == 21
            live = not bj and any(
                not m.surrendered and count([r for r, _ in m.cards])[0] <= 21
                and not (len(m.cards) == 2 and count([r for r, _ in m.cards])[0] == 21 and not m.split)
                for hands in self.round.values() for m in hands)
            while live:
                n, soft = count([r for r, _ in self.dealer])
                if n > 17 or (n == 17 and not (soft and self.o.soft_17 == "hit")):
                    break
                self.dealer.append(self.next())
            assert [(c.rank, c.suit) for c in e.cards] == self.dealer
        elif isinstance(e, Settle):
            expected = {p: sum(m.back(self.dealer, self.o.pays) for m in hands)
                        + (3 * self.insured.get(p, 0) if count([r for r, _ in self.dealer])[0] == 21
                           and len(self.dealer) == 2 else 0)
                        for p, hands in self.round.items()}
            assert dict(e.pays) == expected
            self.expected = expected
            self.checked += 1
        elif isinstance(e, Settlement):
            hands = self.round[e.player]
            assert [ln.returned for ln in e.lines] == [m.back(self.dealer, self.o.pays) for m in hands]
            assert e.paid == self.expected[e.player]
            assert e.staked == sum(m.bet * (2 if m.doubled else 1) for m in hands) + self.insured.get(e.player, 0)
        elif isinstance(e, ShoeRetired):
            assert self.pos >= self.o.decks * 52 * self.o.penetration // 100
            self.shoe = []
        elif isinstance(e, TableClosed):
            self.round, self.bets = {}, {}

    def round_over(self) -> None:
        self.round, self.insured, self.dealer = {}, {}, []


def play(seed: int, rounds: int, rules: dict) -> int:
    rules = dict(rules)
    unit = rules.pop("min_bet_unit", None)
    options = BlackjackOptions(**rules)
    assert unit is None or options.bet_unit == unit
    rng = random.Random(seed)
    draws = Draws(seed)
    seats = list(PLAYERS)
    timed = [False]
    game = BlackjackGame(options, draws, 10, "t", order=lambda: seats, timed=lambda: timed[0])
    ledger, reckon = Ledger(), Reckoner(options, draws)
    wallets = {p: 10**9 for p in PLAYERS}
    moves_used = {m: 0 for m in Move}
    insured = settled = 0

    def run(events):
        nonlocal insured, settled
        queue = list(events)
        while queue:
            e = queue.pop(0)
            if isinstance(e, Hold) and rng.random() < 0.01:       # the ledger says no
                ledger.apply([e])
                ledger.cancel(e.key)
                queue[:0] = game.hold_refused(e.key, "the ledger refused it")
                continue
            ledger.apply([e])
            reckon.see(e)
            if isinstance(e, Settle):
                settled += 1
            if isinstance(e, Insured) and e.amount:
                insured += 1
        if of(events, Settle):
            reckon.round_over()
            assert ledger.conserved() and not ledger.open

    for _ in range(rounds):
        timed[0] = rng.random() < 0.1
        for p in PLAYERS:
            if rng.random() < 0.85:
                if rng.random() < 0.03:
                    run(game.bet(p, rng.randint(1, options.max_bet + 10)))     # often refused
                else:
                    k = rng.randint(1, 4)
                    run(game.bet(p, max(options.min_bet, options.bet_unit * k * rng.choice((1, 1, 5)))))
        guard = 0
        while game.phase is not Phase.IDLE:
            guard += 1
            assert guard < 200
            if game.phase is Phase.BETTING:
                run(game.advance(10**5 if timed[0] else 1))
            elif game.phase is Phase.INSURANCE:
                for p in PLAYERS:
                    if rng.random() < 0.5:
                        run(game.insure(p, rng.choice((None, 0, 1, 999)), wallets[p]))
                run(game.advance(10**5 if timed[0] and rng.random() < 0.3 else 0))
            elif game.phase is Phase.PLAYING:
                turn = game.round.turn
                if turn is None or game.round.pending is not None:
                    run(game.advance(0))
                    continue
                player = turn[0]
                roll = rng.random()
                if roll < 0.02:
                    run(game.leave(player))
                    game.rejoin(player)
                    continue
                if roll < 0.04 and timed[0]:
                    run(game.advance(10**5))                        # the clock runs out: the hand stands
                    continue
                hand = game.round.hand()
                assert hand is not None
                choices = list(legal(hand, len(game.round.hands[player]), options))
                move = rng.choice(list(Move)) if rng.random() < 0.05 else rng.choice(choices)
                wallet = wallets[player] if rng.random() > 0.02 else 0
                before = len(ledger.open)
                run(game.decide(player, move, wallet))
                if len(ledger.open) > before or move in choices:
                    moves_used[move] += 1
                run(game.advance(0))
            else:
                run(game.advance(0))
        if rng.random() < 0.0005:
            run(game.close("shutdown"))
            assert not ledger.open and ledger.conserved()
            game = BlackjackGame(options, draws, 10, f"t{settled}", order=lambda: seats, timed=lambda: timed[0])
            reckon.shoe = []
        assert ledger.conserved()
    offered = {Move.SURRENDER: options.surrender == "late", Move.SPLIT: options.max_hands > 1}
    assert all(moves_used[m] > 0 for m in Move if offered.get(m, True)), moves_used
    assert settled == reckon.checked
    assert insured > 0
    return settled


@pytest.mark.parametrize("rules", RULESETS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.items()) or "default")
def test_twenty_thousand_rounds_each_way_settle_exactly(rules):
    """Five rule sets, 20,000 rounds each: 100,000 rounds, each settled as reckoned."""
    assert play(seed=len(str(rules)), rounds=20_000, rules=rules) > 19_000


def test_a_close_mid_round_refunds_every_stake():
    draws = Draws(5)
    for seed in range(40):
        rng = random.Random(seed)
        game = BlackjackGame(BlackjackOptions(), draws, 10, "t", order=lambda: list(PLAYERS), timed=lambda: False)
        ledger = Ledger()
        for p in PLAYERS:
            ledger.apply(game.bet(p, 10))
        ledger.apply(game.advance(1))
        for _ in range(rng.randint(0, 4)):
            if game.phase is Phase.PLAYING and game.round.turn:
                ledger.apply(game.decide(game.round.turn[0], rng.choice([Move.DOUBLE, Move.SPLIT, Move.HIT]), 100))
        events = game.close("shutdown")
        ledger.apply(events)
        if of(events, Refund):
            assert of(events, TableClosed)
        assert not ledger.open and ledger.conserved()


def test_turns_name_only_legal_moves():
    game = BlackjackGame(BlackjackOptions(surrender="late"), Draws(9), 10, "t", order=lambda: ["ann"],
                         timed=lambda: False)
    seen = set()
    for _ in range(300):
        game.bet("ann", 10)
        events = game.advance(1)
        while game.phase is not Phase.IDLE:
            turns = of(events, Turn)
            if game.phase is Phase.INSURANCE:
                events = game.insure("ann", 0, 100) + game.advance(0)
                continue
            if not turns:
                events = game.advance(0)
                continue
            t = turns[-1]
            seen.update(t.moves)
            events = game.decide("ann", Move(random.Random(len(seen)).choice(t.moves)), 1000) + game.advance(0)
    assert seen == {"hit", "stand", "double", "split", "surrender"}

"""Removing bets, cancelled holds, leaving, and the money intents' bookkeeping."""
from __future__ import annotations

import random

from craps_helpers import accept, new

from server.games.craps.bets import Kind
from server.games.craps.events import (
    BetCancelled,
    BetLost,
    BetPushed,
    BetRemoved,
    BetWon,
    UnbetRefused,
)
from server.games.craps.parse import BetRequest, ParseError, parse_bet
from server.games.intents import Forfeit, Hold, Refund, Settle


def test_contracts_cannot_be_removed():
    t = new()
    accept(t, "ann", "pass 10")
    e = t.unbet("ann", "pass")
    assert isinstance(e[0], UnbetRefused) and "contract" in e[0].reason
    t.roll((2, 2))
    accept(t, "ann", "come 5")
    assert "contract" in t.unbet("ann", "come")[0].reason
    assert len(t.bets_of("ann")) == 2


def test_unbet_by_name_number_and_all():
    t = new()
    accept(t, "ann", "pass 10")
    t.roll((2, 2))
    accept(t, "ann", "odds pass 30")
    p6 = accept(t, "ann", "place 6 12")
    accept(t, "ann", "field 5")
    events = t.unbet("ann", "place6")
    assert [type(e) for e in events] == [BetRemoved, Refund] and events[1].stake == p6
    # numbered as in `bets`: 1 pass, 2 oddspass, 3 field
    events = t.unbet("ann", "3")
    assert events[0].wager.name == "field"
    events = t.unbet("ann", "all")
    assert [e.wager.name for e in events if isinstance(e, BetRemoved)] == ["oddspass"]
    assert [w.name for w in t.bets_of("ann")] == ["pass"]
    assert isinstance(t.unbet("ann", "all")[0], UnbetRefused)
    assert isinstance(t.unbet("ann", "hard4")[0], UnbetRefused)
    assert isinstance(t.unbet("ann", "9")[0], UnbetRefused)


def test_removing_a_dont_bet_takes_its_odds_down_too():
    t = new()
    dp = accept(t, "ann", "dp 10")
    t.roll((3, 3))
    odds = accept(t, "ann", "odds dp 60")
    events = t.unbet("ann", "dp")
    assert {e.stake for e in events if isinstance(e, Refund)} == {dp, odds}
    assert t.bets_of("ann") == []


def test_odds_can_be_removed_but_not_their_contract_base():
    t = new()
    accept(t, "ann", "pass 10")
    t.roll((3, 3))
    accept(t, "ann", "odds pass 50")
    assert isinstance(t.unbet("ann", "odds pass")[0], BetRemoved)


def test_cancel_a_bet_whose_hold_was_refused():
    t = new()
    h = accept(t, "ann", "field 10")
    events = t.cancel(h)
    assert [type(e) for e in events] == [BetCancelled]     # no money intent: nothing was held
    assert t.bets_of("ann") == [] and t.roll((1, 1))[1:] == []
    assert t.cancel(h) == []


def test_forfeit_and_refund_all():
    t = new()
    a = accept(t, "ann", "field 10")
    b = accept(t, "bob", "pass 10")
    assert [e.stake for e in t.forfeit("ann") if isinstance(e, Forfeit)] == [a]
    assert [e.stake for e in t.refund_all() if isinstance(e, Refund)] == [b]
    assert t.wagers == {}


def roll_money(events) -> tuple[dict[str, int], int]:
    """What a roll's facts say each player gets back, and the house's net (+ = house wins)."""
    back: dict[str, int] = {}
    house = 0
    for e in events:
        if isinstance(e, BetWon):
            paid = e.wager.bet.amount + e.amount
        elif isinstance(e, BetPushed):
            paid = e.wager.bet.amount
        elif isinstance(e, BetLost):
            paid = 0
        else:
            continue
        back[e.wager.player] = back.get(e.wager.player, 0) + paid
        house += e.wager.bet.amount - paid
    return back, house


def test_a_roll_deciding_many_wagers_is_one_settle_pushes_included():
    """Wins, losses and pushes of several players: one Settle closes them all and
    pays each player's total; every chip staked is paid back or goes to the house."""
    t = new()
    staked: dict[str, int] = {}

    def bet(player: str, words: str) -> str:
        h = accept(t, player, words)
        staked[h] = t.wagers[h].bet.amount
        return h

    decided = {bet("ann", "dp 10"),          # bar 12: push, 10 back
               bet("ann", "field 10"),       # 12 pays 2:1: 10 + 20
               bet("ann", "12 5"),           # 30:1: 5 + 150
               bet("ann", "any7 5"),         # lost
               bet("bob", "pass 10"),        # craps 12: lost
               bet("bob", "dp 20"),          # push, 20 back
               bet("bob", "anycraps 4"),     # 7:1: 4 + 28
               bet("carol", "any7 5")}       # lost: carol gets nothing back
    waiting = bet("bob", "place 6 12")       # off on the come-out: not decided
    events = t.roll((6, 6))
    settles = [e for e in events if isinstance(e, Settle)]
    assert len(settles) == 1 and not [e for e in events if isinstance(e, Refund)]
    settle = settles[0]
    assert set(settle.stakes) == decided and len(settle.stakes) == len(decided)
    assert dict(settle.pays) == {"ann": 195, "bob": 52, "carol": 0} and len(settle.pays) == 3
    assert events[-1] is settle                               # after every fact of the roll
    assert list(t.wagers) == [waiting]
    back, house = roll_money(events)
    assert dict(settle.pays) == back
    staked_here = sum(staked[h] for h in settle.stakes)
    assert staked_here - sum(a for _, a in settle.pays) == house == -(20 + 150 + 28) + (5 + 10 + 5)


def test_every_hold_ends_exactly_once_and_keys_are_unique():
    """Random play: keys are unique; each stake is settled, refunded or forfeited once;
    a roll settles with at most one Settle whose pays match the roll's facts."""
    rng = random.Random(4)
    t = new(odds=2)
    events = []
    words = ["pass 10", "dp 10", "come 5", "dc 5", "place 6 12", "buy 4 20", "lay 10 40",
             "hard 8 5", "field 3", "any7 1", "horn 4", "hop 1 2 1", "fire 1", "small 1",
             "tall 1", "all 1", "odds pass 10", "odds dp 12", "odds come 6 10", "odds dc 8 12"]
    amounts: dict[str, int] = {}
    many = 0
    for _ in range(3000):
        for w in rng.sample(words, 4):
            placed = t.bet(rng.choice(["ann", "bob"]), w)
            amounts.update({e.key: e.amount for e in placed if isinstance(e, Hold)})
            events += placed
        if rng.random() < 0.1:
            events += t.unbet("ann", "all")
        rolled = t.roll((rng.randint(1, 6), rng.randint(1, 6)))
        money = [e for e in rolled if isinstance(e, (Hold, Settle, Refund, Forfeit))]
        back, house = roll_money(rolled)
        if back:
            assert len(money) == 1 and isinstance(money[0], Settle)
            assert dict(money[0].pays) == back
            assert sum(amounts[s] for s in money[0].stakes) - sum(back.values()) == house
            many += len(money[0].stakes) > 1
        else:
            assert money == []
        events += rolled
    assert many > 500
    events += t.refund_all()
    intents = [e for e in events if isinstance(e, (Hold, Settle, Refund, Forfeit))]
    keys = [i.key for i in intents]
    assert len(keys) == len(set(keys))
    held = {i.key for i in intents if isinstance(i, Hold)}
    ended = [s for i in intents if isinstance(i, Settle) for s in i.stakes]
    ended += [i.stake for i in intents if isinstance(i, (Refund, Forfeit))]
    assert sorted(ended) == sorted(held)
    assert len(held) > 1000


def test_parser_words():
    assert parse_bet("place6 12") == BetRequest(Kind.PLACE, 6, 12)
    assert parse_bet(["DP", "10"]) == BetRequest(Kind.DONT_PASS, 0, 10)
    assert parse_bet("odds come 6 10") == BetRequest(Kind.ODDS, 6, 10, Kind.COME)
    assert parse_bet("odds dc4 12") == BetRequest(Kind.LAY_ODDS, 4, 12, Kind.DONT_COME)
    assert parse_bet("odds dp 12") == BetRequest(Kind.LAY_ODDS, 0, 12, Kind.DONT_PASS)
    assert parse_bet("hop 5 2 3") == BetRequest(Kind.HOP, 25, 3)
    assert parse_bet("11 5") == BetRequest(Kind.PROP, 11, 5)
    assert parse_bet("hard 10 5.5") == BetRequest(Kind.HARD, 10, 5, note="0.50 returned, your wager is 5")
    assert parse_bet("all $7") == BetRequest(Kind.ALL, 0, 7)
    for words in ("hard 5 10", "odds come 10", "field", "field 0.4", "field 1e3", "hop 1 10"):
        assert isinstance(parse_bet(words), ParseError), words


def test_a_travelling_bet_keeps_its_handle_and_its_number_in_bets():
    t = new()
    t.roll((2, 2))
    come = accept(t, "ann", "come 5")
    accept(t, "ann", "field 5")
    t.roll((3, 3))                                   # come -> 6, field loses
    place = accept(t, "ann", "place 8 6")
    assert [(w.handle, w.name) for w in t.bets_of("ann")] == [(come, "come6"), (place, "place8")]
    assert isinstance(t.unbet("ann", "1")[0], UnbetRefused)      # #1 is still the come bet

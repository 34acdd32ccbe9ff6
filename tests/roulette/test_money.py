"""Money conservation over random play with fixed draws: every hold ends once,
and held == paid + house take + refunded, in integers, with the house take
worked out independently from the layout (a win returns 36 / pockets covered
times the stake; la partage gives back half an even-money stake on zero)."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from roulette_helpers import Ledger, new, of

from server.games.intents import Hold, Settle
from server.games.roulette import Bet, Phase
from server.games.roulette.events import (
    BallDropped, BetAccepted, BetCancelled, BetRemoved, Settlement, WheelClosed,
)
from server.games.roulette.kinds import KINDS

PLAYERS = ("ann", "bob", "cy")
TYPED = ["red 10", "split 17 20 5", "corner 18 20 3", "sixline 31 2", "trio 0 2 3 4", "firstfour 1",
         "dozen 3 7", "column 2 9", "straight 0 1", "even 2.50", "split 17 22 5", "red 0", "red 99999"]


def expected_return(bet: Bet, pocket: int, la_partage: bool) -> int:
    if pocket in bet.numbers:
        return bet.amount * 36 // len(bet.numbers)
    if la_partage and pocket == 0 and len(bet.numbers) == 18:
        return bet.amount // 2
    return 0


def play(seed: int, steps: int, la_partage: bool, close: bool) -> None:
    rng = random.Random(seed)
    wheel = new((rng.randrange(37) for _ in range(10**6)), la_partage=la_partage, max_bet=500)
    ledger = Ledger()
    wallets = {p: rng.choice((20, 200, 5000)) for p in PLAYERS}
    live: dict[str, Bet] = {}                        # the independent view of the layout
    expected_house = expected_paid = 0
    settles = 0

    def run(events):
        nonlocal expected_house, expected_paid, settles
        queue = list(events)
        while queue:
            e = queue.pop(0)
            if isinstance(e, Hold) and e.amount > wallets[e.player] + ledger.wallet_delta.get(e.player, 0):
                ledger.apply([e])
                ledger.cancel(e.key)                 # the host's ledger says no
                queue[:0] = wheel.hold_refused(e.key, "not enough chips")
                cancelled.add(e.key)                 # the host shows BetCancelled, not BetAccepted
                continue
            ledger.apply([e])
            if isinstance(e, BetCancelled):
                assert e.wager.handle in cancelled
            elif isinstance(e, BetAccepted) and e.wager.handle not in cancelled:
                live[e.wager.handle] = e.wager.bet
            elif isinstance(e, BetRemoved):
                live.pop(e.wager.handle)
            elif isinstance(e, Settle):
                settles += 1
                assert set(e.stakes) == set(live)    # one Settle closes every live stake
            elif isinstance(e, BallDropped):
                for bet in live.values():
                    back = expected_return(bet, e.pocket, la_partage)
                    expected_paid += back
                    expected_house += bet.amount - back
                dropped.append((e, dict(live)))
            elif isinstance(e, WheelClosed):
                live.clear()
        if any(isinstance(e, Settlement) for e in events):
            live.clear()

    dropped: list = []
    cancelled: set[str] = set()
    for _ in range(steps):
        player = rng.choice(PLAYERS)
        op = rng.random()
        if op < 0.35:
            if rng.random() < 0.5:
                run(wheel.bet(player, rng.choice(TYPED)))
            else:
                info = KINDS[rng.choice(list(KINDS))]
                run(wheel.bet(player, Bet(info.kind, rng.choice(info.groups), rng.randint(1, 600))))
        elif op < 0.45:
            run(wheel.unbet(player, rng.choice(["all", "1", "2", "red", "split 17 20", "dozen"])))
        elif op < 0.55:
            run(wheel.spin(player, solo=rng.random() < 0.7))
        elif op < 0.62:
            run(rng.choice((wheel.leave, wheel.disconnect, wheel.rejoin))(player))
        else:
            run(wheel.advance(rng.choice((1, 5, 30, 60, 250)), multiplayer=rng.random() < 0.6))
    if close:
        run(wheel.close("shutdown"))
    else:
        for _ in range(10):                          # nobody is left: riding bets are still spun
            for p in PLAYERS:
                run(wheel.leave(p))
            run(wheel.advance(10**4, multiplayer=False))
    assert wheel.wagers == () and not live and not ledger.open
    assert ledger.held == ledger.paid + ledger.house + ledger.refunded
    assert (ledger.paid, ledger.house) == (expected_paid, expected_house)
    assert sum(ledger.wallet_delta.values()) + ledger.house == 0
    assert settles == sum(1 for _, layout in dropped if layout)
    assert wheel.phase is (Phase.CLOSED if close else Phase.IDLE)


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 300), la_partage=st.booleans(), close=st.booleans())
def test_money_is_conserved(seed, steps, la_partage, close):
    play(seed, steps, la_partage, close)


def test_a_long_evening():
    play(seed=2024, steps=5000, la_partage=True, close=True)


def test_settlements_add_up_to_the_settle():
    w = new([32, 0, 14], spin_seconds=0, la_partage=True)
    for _ in range(3):
        w.bet("ann", "red 7")
        w.bet("bob", "even 9")
        w.bet("ann", "split 0 3 2")
        events = w.spin("ann", solo=True)
        (settle,) = of(events, Settle)
        assert dict(settle.pays) == {s.player: s.paid for s in of(events, Settlement)}

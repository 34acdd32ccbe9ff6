"""Random play (commands, refusals, timeouts, leaving, refused holds, shutdown):
the Table driver checks after every call that the house nets 0, the ledger holds
exactly the sum of the bankrolls, and no chip is made or lost; at the end every
stake is closed exactly once."""
import random

from alley_helpers import Table
from hypothesis import given, settings
from hypothesis import strategies as st

from server.games.alley import Bet, Fade, PassDice, Phase, Roll

NAMES = ["ann", "bob", "cy", "dee", "eve", "fay"]


class SeededDice:
    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self):
        return (self._rng.randint(1, 6), self._rng.randint(1, 6))


op = st.tuples(st.sampled_from(["bet", "fade", "roll", "pass", "leave", "tick", "decline",
                                "auto", "auto", "auto", "refuse"]),
               st.integers(0, 5), st.integers(-1, 25))


@settings(max_examples=300, deadline=None)
@given(n=st.integers(2, 6), seed=st.integers(0, 2**32), ops=st.lists(op, max_size=120),
       poor=st.sets(st.integers(0, 5), max_size=2), close=st.booleans())
def test_money_is_conserved_in_random_play(n, seed, ops, poor, close):
    names = NAMES[:n]
    wallets = {p: (50 if i in poor else 1000) for i, p in enumerate(names)}
    t = Table(names, [], wallets=wallets)
    t.game._dice = SeededDice(seed)
    t.start()
    for kind, who, amount in ops:
        player = names[who % n]
        if kind == "bet":
            t.act(player, Bet(amount * 10))
        elif kind == "fade":
            t.act(player, Fade(amount * 10))
        elif kind == "decline":
            t.act(player, Fade(0))
        elif kind == "roll":
            t.act(player, Roll())
        elif kind == "pass":
            t.act(player, PassDice())
        elif kind == "auto":                       # whoever is awaited does something sensible
            v = t.game.view()
            if v.waiting_for is None:
                continue
            if v.phase is Phase.FADING:
                t.act(v.waiting_for, Fade(10 * (amount % 4)))
            elif v.phase is Phase.BETTING:
                t.act(v.waiting_for, Bet(10 * max(1, amount % 12)))
            elif v.phase is Phase.CHOOSING and amount % 3 == 0:
                t.act(v.waiting_for, PassDice())
            else:
                t.act(v.waiting_for, Roll())
        elif kind == "refuse":
            t.ledger.refuse_next = True
        elif kind == "leave":
            t.leave(player)
        else:
            t.advance(max(0, amount) * 37)
        if t.game.phase is Phase.OVER:
            break
    if close:
        t.close()
    else:
        for _ in range(400):                       # let the timeouts and the dealer play on
            if t.game.phase is Phase.OVER:
                break
            t.advance(600)
        t.close()
    assert not t.ledger.stakes and t.ledger.house == 0
    assert sum(t.ledger.wallets.values()) == sum(wallets.values())

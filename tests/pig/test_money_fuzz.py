"""Random staked Pig games (rolls, holds, idling, leaving, refused antes,
shutdown): the pot always ends exactly once, the house nets 0, no chip is made
or lost."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from pig_helpers import LedgerModel

from server.games.pig.options import PigOptions
from server.games.intents import Hold
from server.games.pig import Phase, PigGame


class SeededDice:
    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def roll(self):
        return (self._rng.randint(1, 6), self._rng.randint(1, 6))


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 6), seed=st.integers(0, 2**32), poor=st.sets(st.integers(0, 5), max_size=3),
       ops=st.lists(st.tuples(st.sampled_from(["roll", "roll", "roll", "hold", "leave", "tick"]),
                              st.integers(0, 5)), max_size=200), close=st.booleans())
def test_staked_games_balance(n, seed, poor, ops, close):
    names = ["ann", "bob", "cy", "dee", "eve", "fay"][:n]
    wallets = {p: (5 if i in poor else 100) for i, p in enumerate(names)}
    ledger = LedgerModel(wallets)
    g = PigGame(names, PigOptions(target=40, stake=10), SeededDice(seed), 10)

    def run(events):                           # like the table host: one intent at a time
        queue = list(events)
        while queue:
            e = queue.pop(0)
            if isinstance(e, Hold) and e.amount > ledger.wallets[e.player]:
                queue[:0] = g.hold_refused(e.key)
            else:
                ledger.apply([e])

    run(g.start())
    for kind, who in ops:
        if g.phase is not Phase.PLAYING:
            break
        player = g.current if who < 3 else names[who % n]
        if kind == "leave":
            run(g.leave(names[who % n]))
        elif kind == "tick":
            run(g.advance(who * 150))
        else:
            run(g.act(player, kind))
    if close:
        run(g.close())
    else:
        for _ in range(2000):                      # play it out: roll twice, then hold
            if g.phase is not Phase.PLAYING:
                break
            if g.current == g.computer:
                run(g.advance(600))
                continue
            player = g.current
            run(g.act(player, "roll"))
            if g.current == player:
                run(g.act(player, "roll"))
            if g.current == player:
                run(g.act(player, "hold"))
    assert g.phase in (Phase.OVER, Phase.CLOSED)
    assert not ledger.stakes and ledger.house == 0
    assert sum(ledger.wallets.values()) == sum(wallets.values())

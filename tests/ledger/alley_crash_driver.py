"""Crash-test driver: alley craps games against the real ledger until killed.

Run as `python alley_crash_driver.py DB RUN SEED` (DB: an SQLite file or a database URL). Four players play game after
game of alley craps (the pure engine, random dice and choices), each money
intent written to the ledger in order and awaited, as the table host does.
For every batch that decides a pass it prints `pending` with each player's
chips (wallet plus what the table holds for them) as the decided pass leaves
them, before writing, and `acked` with the same figures once every write of
the batch is durable; after the write it checks the ledger agrees. The test
kills it with SIGKILL; after recovery each wallet must be the last acked
figure (or the pending one after it: that batch may have become durable
before the kill), never the buy-in of a game whose passes were decided.
"""
from __future__ import annotations

import asyncio
import json
import random
import sys

from server.games.alley.options import AlleyOptions
from server.games.alley import AlleyGame
from server.games.alley import events as ev
from server.games.alley.state import Phase
from server.games.intents import Forfeit, Hold, Refund, Settle
from server.ledger import Ledger

START, BUY_IN, UNIT = 1000, 100, 10
TABLE = "alley"


class RandomDice:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def roll(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)


def say(word: str, chips: dict[str, int]) -> None:
    sys.stdout.write(f"{word} {json.dumps(chips, sort_keys=True)}\n")
    sys.stdout.flush()


def choose(game: AlleyGame, rng: random.Random) -> tuple[str, ev.Action]:
    view = game.view()
    banks = dict(view.bankrolls)
    shooter = view.shooter
    if view.phase is Phase.BETTING:
        return shooter, ev.Bet(rng.randint(1, banks[shooter] // UNIT) * UNIT)
    if view.phase is Phase.FADING:
        asked = view.waiting_for
        most = min(view.action - sum(a for _, a in view.fades), banks[asked]) // UNIT
        return asked, ev.Fade(0 if most == 0 or rng.random() < 0.2 else rng.randint(1, most) * UNIT)
    if view.phase is Phase.ROLLING:
        return shooter, ev.Roll()
    return shooter, ev.Roll() if rng.random() < 0.6 else ev.PassDice()


async def write(ledger: Ledger, game: AlleyGame, events: list) -> None:
    for event in events:
        if isinstance(event, Hold):
            await ledger.hold(event.key, event.player, TABLE, event.amount)
        elif isinstance(event, Settle):
            pays: dict[str, int] = {}
            for player, amount in event.pays:
                pays[player] = pays.get(player, 0) + amount
            await ledger.settle(event.key, TABLE, list(event.stakes), pays)
        elif isinstance(event, Refund):
            await ledger.refund(event.key, TABLE, event.stake)
        elif isinstance(event, Forfeit):
            await ledger.forfeit(event.key, TABLE, event.stake)


async def main(path: str, run: int, seed: int) -> None:
    ledger = await Ledger.open(path)
    players = [f"r{run}p{i}" for i in range(4)]
    for p in players:
        await ledger.mint(f"start-{p}", p, START, "starting chips")
    print(f"ready recovered={len(ledger.recovered)}", flush=True)
    rng = random.Random(seed)
    dice = RandomDice(rng)
    outside = {p: START for p in players}        # each player's chips not in the game
    for g in range(1, 1_000_000):
        game = AlleyGame(players, AlleyOptions(buy_in=BUY_IN, bet_unit=UNIT), dice, 10,
                         max_players=4, game_id=f"r{run}:g{g}")
        await write(ledger, game, game.start())
        for p in players:
            outside[p] -= BUY_IN
        while game.phase not in (Phase.OVER, Phase.CLOSED):
            events = game.act(*choose(game, rng))
            balances = [e for e in events if isinstance(e, ev.Balances)]
            if not balances:
                await write(ledger, game, events)
                continue
            chips = {p: outside[p] + dict(balances[-1].bankrolls).get(p, 0) for p in players}
            say("pending", chips)
            await write(ledger, game, events)
            for p in players:
                got = (await ledger.balance(p)).total
                assert got == chips[p], (p, got, chips[p])
            say("acked", chips)
            if game.phase is Phase.OVER:
                outside = dict(chips)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3])))

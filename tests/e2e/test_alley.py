"""Alley craps in the back alley with three real telnet clients and seeded dice.

Each client keeps a transcript of everything it was sent; a step sends one
command and reads until the phrase its answer must bring has appeared once
more than before, so broadcasts from other players never confuse the reads.
What to type next comes from the table's state (the seeded dice decide the
passes); every loop is bounded. Time moves only by ticking the manager.
"""
from __future__ import annotations

import re

import pytest
from support.telnet import Client, login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

SEED = 6006
FAST = {"commands_per_second": 1000}   # a whole game is many quick commands; the throttle is not under test


class Player:
    def __init__(self, name: str, client: Client) -> None:
        self.name, self.client, self.seen = name, client, ""

    async def until(self, phrase: str, count: int = 1) -> None:
        """Read until `phrase` has been seen `count` times in all."""
        while self.seen.count(phrase) < count:
            self.seen += plain(await self.client.read_until_prompt())

    async def do(self, line: str, phrase: str) -> str:
        """Send `line`; return what arrived until `phrase` came once more."""
        start = len(self.seen)
        want = self.seen.count(phrase) + 1
        await self.client.send(line)
        await self.until(phrase, want)
        return self.seen[start:]

    async def do_after(self, other: "Player", line: str, phrase: str) -> str:
        """`other` sends `line`; return what this player saw until `phrase` came once more."""
        start = len(self.seen)
        want = self.seen.count(phrase) + 1
        await other.client.send(line)
        await self.until(phrase, want)
        return self.seen[start:]


async def arrive(app, name: str) -> Player:
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    p = Player(name, c)
    assert "Back Alley" in await p.do("down", "Back Alley")
    await p.do("play alley", "sits down at the alley craps table")
    return p


async def test_three_players_play_alley_craps_to_the_end(casino_factory):
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["alley_craps"]
    ann = await arrive(app, "ann")
    assert "The buy-in is 100 chips: the ledger holds it" in ann.seen
    assert "Cannot start: alley craps needs at least 2 players" in await ann.do("start", "Cannot start")
    bob = await arrive(app, "bob")
    cat = await arrive(app, "cat")
    players = {p.name: p for p in (ann, bob, cat)}

    assert "fade <amount>" in await bob.do("help alley", "Alley craps (The Back Alley)")
    rules = await cat.do("table rules", "NO MORE BETS")
    assert "'play alley' takes a seat" in rules
    out = await bob.do("start", "total game money")
    assert "We have 3 players with 100 each for total game money of 300." in out
    await ann.until("ann, you are the shooter! You have 100 in your bank roll")
    assert (await app.ledger.balance("cat")).wallet == 900     # the buy-ins are held

    # The first pass: ann bets 100, bob takes 50, cat lets the fade window run out.
    assert "Only the shooter sets the action; ann is shooting." in await bob.do("bet 10", "Only the shooter")
    await ann.do("bet 100", "You bet 100.")
    await bob.until("bob, ann has bet 100. How much of the 100 action do you want?")
    await bob.do("fade 50", "You take 50 of the action")
    await cat.until("How much of the 50 still uncovered do you want?")
    view = await ann.do("table", "Commands:")
    assert "Action: 100; covered 50 (bob 50), 50 uncovered." in view
    assert "Waiting for cat to fade (30 s left)." in view
    app.manager.tick_elapsed(app.manager.seconds(30))
    await host.idle()
    await ann.until("cat did not answer in time and sits this pass out.")
    await ann.until("Only 50 of the 100 action is covered")

    # Then: the shooter bets everything, opponents cover what they can; roll until one holds it all.
    choices = 0
    for _ in range(200):
        engine = host.dealer.engine
        if engine is None:
            break
        v = engine.view()
        phase, bank = v.phase.value, engine.bankrolls
        if phase == "betting":
            await players[v.shooter].do(f"bet {bank[v.shooter]}", "You bet ")
        elif phase == "fading":
            uncovered = v.action - sum(a for _, a in v.fades)
            await players[v.waiting_for].do(f"fade {min(uncovered, bank[v.waiting_for])}", "You take ")
        elif phase == "rolling":
            await players[v.shooter].do("roll", "You roll")
        elif phase == "choosing":
            choices += 1
            if choices == 1:
                await players[v.shooter].do("pass", "You pass the bones to")
            else:
                await players[v.shooter].do("roll", f"{v.shooter}, you are the shooter!")
        else:
            raise AssertionError(f"unexpected phase {phase}")
    assert host.dealer.engine is None, "the game did not end within the bound"
    await host.idle()

    result = host.dealer.last_result
    assert result.winner in players and result.pot == 300 and result.net == 200
    for p in players.values():
        await p.until(f"AND WE HAVE THE GAME WINNER! Congratulations, {result.winner}!")
        assert "Balances:" in p.seen
        assert re.search(r"\[\d\]\[\d\] \d \+ \d = \d+", p.seen)       # dice, in ASCII for this client
        assert "+-------+" in p.seen                                     # and drawn as art
    winner = players[result.winner]
    assert "You have won the total pot of 300 (+200 on the buy-in)!" in winner.seen
    for name, p in players.items():
        expected = 900 + (300 if name == result.winner else 0)
        await p.until(f"Wallet: {expected} chips.")
        balance = await app.ledger.balance(name)
        assert balance.wallet == expected
        assert not any(balance.held.values())
    assert len(host.dealer.dice.revealed) == 1                             # the dice rotated
    assert "No game is running" in await cat.do("table", "Commands:")
    for p in players.values():
        await p.client.close()


async def test_a_player_who_drops_mid_pass_gets_their_chips_back(casino_factory):
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["alley_craps"]
    dan = await arrive(app, "dan")
    eve = await arrive(app, "eve")
    await dan.do("start", "total game money")
    await dan.do("bet 60", "You bet 60.")
    await eve.do("fade 60", "You take 60 of the action")
    await eve.client.close()
    async with app.presence:
        await app.presence.wait_for(lambda: "eve" not in app.online)
    await host.idle()
    await dan.until("eve leaves the game")
    for _ in range(50):                                  # dan rolls the pass out
        if host.dealer.engine is None:
            break
        await dan.do("roll", "You roll")
    await host.idle()
    await dan.until("is the last player with money.")
    dan_wallet = (await app.ledger.balance("dan")).wallet
    eve_wallet = (await app.ledger.balance("eve")).wallet
    assert dan_wallet + eve_wallet == 2000 and {dan_wallet, eve_wallet} == {940, 1060}
    await dan.client.close()


async def test_alley_words_nobody_faded_and_a_last_game_below_the_buy_in(casino_factory):
    """Issue 28 item 6: a shooter who never rolled is not asked to "roll again";
    a winner who ended below the buy-in did not "win the pot of 90 (-10)";
    no Markdown backticks in what players read."""
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["alley_craps"]
    ann = await arrive(app, "ann")
    bob = await arrive(app, "bob")
    players = {"ann": ann, "bob": bob}
    rules = await ann.do("table rules", "to decline")
    assert "`" not in rules and "Who types what: the shooter 'bet <amount>', 'roll', 'pass'" in rules
    await bob.do("start", "total game money")
    await ann.do("bet 10", "You bet 10.")
    out = await ann.do_after(bob, "fade 0", "You keep the bones")
    assert "roll again" not in out and "ann, roll again" not in ann.seen
    assert ("You keep the bones: type 'roll' (or bet <amount>) to shoot a pass, or 'pass' to pass the bones."
            in out.replace("\r\n", " "))
    await bob.until("ann chooses: shoot a pass or pass the bones.")
    view = await ann.do("table", "Commands:")
    assert "ann to shoot a pass or pass the bones" in view and "`" not in view
    await ann.do("bet 10", "You bet 10.")
    await bob.do("fade 10", "You take 10 of the action")
    for _ in range(100):                      # roll the pass out
        if host.dealer.engine.view().phase.value != "rolling":
            break
        await ann.do("roll", "You roll")
    await host.idle()
    bank = host.dealer.engine.bankrolls
    up, down = sorted(players, key=lambda p: -bank[p])
    assert (bank[up], bank[down]) == (110, 90)
    await players[up].do("leave", "You leave")    # the one below the buy-in is the last with money
    await host.idle()
    last = host.dealer.last_result
    assert (last.winner, last.pot, last.net) == (down, 90, -10)
    view = plain(await players[down].do("table", "Commands:")).replace("\r\n", " ")
    assert f"Last game: {down} ended with 90, 10 down on the buy-in." in view
    assert "won the pot of 90" not in view

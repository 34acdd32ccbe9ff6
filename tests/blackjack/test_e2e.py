"""Blackjack in the card room over real telnet: one player alone, three
players and a watcher through several rounds (splits, doubles, insurance
answered), leaving and dropping mid-round, `fair`, `stats` and a shutdown.
A real server on SQLite and on PostgreSQL (the fixture checks the ledger
afterwards); time moves only with `tick_elapsed`. The cards are the seeded
shoe's, so each turn is played from what the table shows: the test reads
whose turn it is and which moves are open from the table, and types them."""
from __future__ import annotations

import asyncio
import re

import pytest
import telnetlib3

from support.gmcp import ScriptingClient, command, packages, until
from support.telnet import Client, login, plain

from server.games.blackjack.hint import insurance_hint
from server.games.blackjack.moves import legal
from server.games.blackjack.rounds import Phase
from server.games.blackjack.strategy import decide

pytestmark = pytest.mark.both_stores      # the same game, on SQLite and on PostgreSQL

FAST = {"commands_per_second": 1000}
WINDOW = 10                               # the shipped table's betting window, seconds
NET = re.compile(r"Settlement, round (\d+): [^\n]*net ([+-]\d+)\.")


async def arrive(app, name: str, create: bool = True) -> Client:
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name, create=create)
    await c.cmd("up")
    return c


async def seated(app, name: str) -> Client:
    c = await arrive(app, name)
    await c.cmd_expect("play blackjack", "Welcome to blackjack")
    return c


async def tick(app, seconds: float) -> None:
    app.manager.tick_elapsed(app.manager.seconds(seconds))
    await app.tables["blackjack"].idle()


async def wallet(app, name: str) -> int:
    return (await app.ledger.balance(name)).wallet


def game(app):
    return app.tables["blackjack"].dealer.game


def choose(app) -> str:
    """A move for the hand whose turn it is: split, else double on 9-11, else hit below 17."""
    g = game(app)
    hand = g.round.hand()
    moves = legal(hand, len(g.round.hands[g.round.turn[0]]), g.options)
    if "split" in moves:
        return "split"
    if "double" in moves and 9 <= hand.total <= 11:
        return "double"
    return "hit" if hand.total < 17 and "hit" in moves else "stand"


async def play_round(app, clients: dict[str, Client], said: dict[str, str], insure: str = "no") -> list[str]:
    """Answer the insurance question and every turn until the round is settled; the moves typed."""
    typed = []
    for _ in range(200):
        g = game(app)
        if g.phase is Phase.IDLE or g.phase is Phase.CLOSED:
            return typed
        if g.phase is Phase.INSURANCE:
            for p in list(g.round.hands):
                if p not in g.round.answered and p in clients:
                    said[p] += await clients[p].cmd(f"insurance {insure}")
        elif g.phase is Phase.PLAYING and g.round.turn and g.round.pending is None:
            player = g.round.turn[0]
            word = choose(app)
            typed.append(word)
            said[player] += await clients[player].cmd(word)
        await tick(app, 0.1)
    raise AssertionError("the round never ended")


async def test_one_player_goes_up_sits_bets_and_plays_a_round_alone(casino_factory):
    app = await casino_factory(seed=41, limits=FAST)
    ann = await arrive(app, "ann")
    room = plain(await ann.cmd("look"))
    assert "The Card Room" in room and "(blackjack): 'play blackjack' to sit." in room
    helped = plain(await ann.cmd("help blackjack"))
    for word in ("bet <n>", "hit", "stand", "double", "split", "surrender", "insurance [n|no]"):
        assert word in helped, word
    assert "Welcome to blackjack: blackjack, 6 decks, blackjack pays 3:2, bets 2 to 1000 in 2s" in plain(
        await ann.cmd_expect("play blackjack", "Welcome"))
    rules = plain(await ann.cmd("table rules"))
    assert "A blackjack pays 3:2" in rules and "stands on soft 17" in rules and "No surrender." in rules
    seated_help = " ".join(plain(await ann.cmd("help blackjack")).split())
    assert "The rules at your table, blackjack:" in seated_help and "No surrender." in seated_help
    assert "--draw shoe --decks 6" in seated_help
    assert "is not a multiple of 2" in plain(await ann.cmd("bet 7"))
    assert "bets here are 2 to 1000 chips" in plain(await ann.cmd("bet 1002"))
    said = {"ann": plain(await ann.cmd("bet 10.50"))}
    assert "0.50 returned, your wager is 10" in said["ann"] and "Bet accepted: 10." in said["ann"]
    assert await wallet(app, "ann") == 990                       # the bet's hold
    await tick(app, 0.1)                                         # alone: the cards come at once
    said["ann"] += plain(await ann.expect("Round 1: the dealer shows"))
    if game(app).phase is Phase.PLAYING:
        await ann.cmd("set width 40")
        board = plain(await ann.cmd("table"))
        assert "[##]" in board and "<- your" in board
        assert all(len(line) <= 40 for line in board.splitlines())
        await ann.cmd("set width 80")
    await play_round(app, {"ann": ann}, said)
    if "Settlement, round 1" not in plain(said["ann"]):
        said["ann"] += await ann.expect("Settlement, round 1")
    text = plain(said["ann"])
    assert text.count("Settlement, round 1:") == 1
    net = int(NET.search(text).group(2))
    assert await wallet(app, "ann") == 1000 + net
    fair = " ".join(plain(await ann.cmd("fair")).split())
    assert "Provably fair shoe at table blackjack." in fair and "--draw shoe --decks D" in fair
    await ann.close()


def lines_of(reply: str) -> list[str]:
    """A reply's lines of text, without the prompt."""
    return [ln for ln in plain(reply).splitlines() if ln.strip() not in ("", ">")]


async def test_hint_over_telnet_says_the_play_and_refuses_in_one_line(casino_factory):
    app = await casino_factory(seed=46, limits=FAST)
    ann = await arrive(app, "ann")
    assert "'hint' is a table command: sit at a table first (play blackjack)." in plain(await ann.cmd("hint"))
    helped = " ".join(plain(await ann.cmd("help hint")).split())
    assert "what basic strategy does with your hand against the dealer's card" in helped
    await ann.cmd_expect("play blackjack", "Welcome")
    assert "No hand to advise on: you have no hand in play." in plain(await ann.cmd("hint"))
    bob = await arrive(app, "bob")
    await bob.cmd("watch blackjack")
    assert "'hint' is a table command: sit at a table first" in plain(await bob.cmd("hint"))   # a watcher
    hinted = 0
    for rnd in range(1, 6):
        await ann.cmd("bet 10")
        await tick(app, 0.1)
        await ann.expect(f"Round {rnd}: the dealer shows")
        g = game(app)
        if g.phase is Phase.INSURANCE:
            said = lines_of(await ann.cmd("hint"))
            assert said == [insurance_hint(g.round.hands["ann"][0].blackjack)]
        elif g.phase is Phase.PLAYING:
            hand = g.round.hand()
            play = decide(g.options, tuple(c.value for c in hand.cards), g.round.dealer[0].value,
                          hands=len(g.round.hands["ann"]))
            chips = await wallet(app, "ann")
            said = lines_of(await ann.cmd("hint"))
            assert len(said) == 1 and said[0].startswith("Basic strategy: "), said
            assert f"against {'an' if g.round.dealer[0].value in (1, 8) else 'a'} " in said[0]
            assert f": {play.value}" in said[0], (play, said)
            assert game(app).round.hand() is hand and len(hand.cards) == 2       # a hint plays nothing
            assert await wallet(app, "ann") == chips                             # and stakes nothing
            hinted += 1
        await play_round(app, {"ann": ann}, {"ann": ""})
        if hinted:
            break
    assert hinted, "no round came to a decision: pick another seed"
    await bob.close()
    await ann.close()


async def test_three_players_and_a_watcher_play_rounds_with_the_clock(casino_factory):
    app = await casino_factory(seed=42, limits=FAST)
    names = ("ann", "bob", "cat")
    clients = {n: await seated(app, n) for n in names}
    zed = await arrive(app, "zed")
    assert "You watch blackjack" in plain(await zed.cmd("watch blackjack"))
    said = {n: "" for n in names}
    watched = ""
    nets = {n: 0 for n in names}
    wins = {n: 0 for n in names}                                 # rounds won: `top wins` counts them
    splits = 0
    for rnd in range(1, 9):
        said["ann"] += await clients["ann"].cmd("bet 10")
        await tick(app, 0.1)
        said["ann"] += await clients["ann"].expect("Place your bets: the cards come out in 10 seconds.")
        said["bob"] += await clients["bob"].cmd("bet 20")
        said["cat"] += await clients["cat"].cmd("bet 4")
        await tick(app, WINDOW - 3)
        watched += await zed.expect("Last call! 3 seconds to bet.")
        await tick(app, 3)
        watched += await zed.expect(f"Round {rnd}: the dealer shows")
        typed = await play_round(app, clients, said)
        splits += typed.count("split")
        watched += await zed.expect("The dealer ")
        for n in names:
            if f"Settlement, round {rnd}:" not in plain(said[n]):
                said[n] += await clients[n].expect(f"Settlement, round {rnd}:")
            found = [int(net) for r, net in NET.findall(plain(said[n])) if int(r) == rnd]
            assert len(found) == 1, (n, rnd)                     # one settlement a player a round
            nets[n] += found[0]
            wins[n] += found[0] > 0
        if splits and rnd >= 3:
            break
    played = rnd
    assert splits, "no pair came in eight rounds: pick another seed"
    assert "Settlement" not in plain(watched)                    # a watcher sees the round, not the money
    for n in names:
        assert await wallet(app, n) == 1000 + nets[n]
        stats = plain(await clients[n].cmd("stats"))
        line = next(ln for ln in stats.splitlines() if "Blackjack" in ln)
        assert re.search(rf"\b{played}\b", line), line           # a round is a round, splits or not
    board = plain(await clients["ann"].cmd("top wins"))
    for n in names:
        if wins[n]:
            assert re.search(rf"\. {n} +{wins[n]}\b", board), (n, wins[n], board)
    assert "Seated: ann, bob, cat." in plain(await clients["ann"].cmd("table"))
    for c in (*clients.values(), zed):
        await c.close()


async def test_leaving_and_dropping_mid_round_stand_the_hands_and_the_players_are_told(casino_factory):
    app = await casino_factory(seed=43, limits=FAST)
    clients = {n: await seated(app, n) for n in ("ann", "bob", "cat")}
    await clients["cat"].cmd("bet 10")
    out = plain(await clients["cat"].cmd_expect("leave", "You leave the table."))
    assert "Your bet of 10 is back in your wallet: you left before the deal." in out
    assert await wallet(app, "cat") == 1000
    await clients["ann"].cmd("bet 10")
    await clients["bob"].cmd("bet 10")
    await tick(app, 0.1)
    await tick(app, WINDOW)
    assert game(app).round.hands                               # dealt
    await clients["ann"].send("quit")
    assert "forfeit" not in plain(await clients["ann"].read_until_closed())
    await clients["ann"].close()
    async with app.presence:
        await app.presence.wait_for(lambda: "ann" not in app.online)
    said = {"bob": ""}
    await play_round(app, {"bob": clients["bob"]}, said)
    assert (await app.ledger.balance("ann")).held == {}
    ann = await Client.open(app.port, ttype="dumb")
    again = plain(await login(ann, "ann", create=False))
    assert re.search(r"Notice: Your hands at blackjack stood after you left and were settled in round 1: "
                     r"staked 10, paid \d+ to your wallet", again)
    for c in (ann, clients["bob"], clients["cat"]):
        await c.close()


async def test_shutdown_mid_round_refunds_every_bet(casino_factory):
    app = await casino_factory(seed=44, limits=FAST)
    ann = await seated(app, "ann")
    bob = await seated(app, "bob")
    await ann.cmd("bet 100")
    await bob.cmd("bet 50")
    await tick(app, 0.1)
    await tick(app, WINDOW)
    assert game(app).phase in (Phase.INSURANCE, Phase.PLAYING, Phase.IDLE)
    settled = game(app).phase is Phase.IDLE                    # a dealer blackjack settles at the deal
    await app.stop("Closing for the test.")
    text = plain(await ann.read_until_closed())
    if not settled:
        assert "Refunded to your wallet: 100 chips, the stakes of a round not settled." in " ".join(text.split())


async def test_a_gmcp_client_gets_the_hands_and_totals_as_data(casino_factory):
    app = await casino_factory(seed=45, limits=FAST)
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", app.port, client_factory=ScriptingClient, connect_minwait=0.05,
        connect_maxwait=1.0, encoding="utf8")
    client = writer.protocol
    try:
        await until(reader, "Name:")
        await command(reader, writer, "create gmcpbj secret123", "Exits:")
        await command(reader, writer, "up", "Exits:")
        await command(reader, writer, "play blackjack")
        await command(reader, writer, "bet 10")
        await tick(app, 0.1)
        await until(reader, "Round 1: the dealer shows")
        await asyncio.sleep(0)          # let the data that follows the text be read
        table = packages(client, "Casino.Table")[-1]
        assert table["table"] == "blackjack" and table["game"] == "blackjack"
        (hand,) = table["hands"]["gmcpbj"]
        assert len(hand["cards"]) >= 2 and hand["total"] and hand["bet"] in (10, 20)
        if game(app).phase is not Phase.IDLE:
            assert table["dealer"]["cards"][1] is None and table["dealer"]["total"] is None
    finally:
        writer.close()


STATS_ROW = re.compile(r"^Blackjack\s+(\d+)\s+(\d+)\s+([+-]?\d+)\s+([+-]?\d+)\s+([+-]?\d+)\s+([+-]?\d+)\s+(\d+)\b")


async def test_stats_and_top_count_a_split_round_once(casino_factory):
    """A round split into two winning hands is one round, one winning settlement; both
    stakes are wagered. The shoe is stacked (the engine's state, in process), so the
    figures are known: 8s against a 6 split into two 18s, the dealer busts; then a 19
    against a 17."""
    from bj_helpers import stacked
    app = await casino_factory(seed=48, limits=FAST)
    ann = await seated(app, "ann")
    stacked(game(app), [8, 6, 8, 10, 10, 10, 9])                # ann 8 8, dealer 6 up, 10 down; 10, 10; 9
    said = plain(await ann.cmd("bet 10"))
    await tick(app, 0.1)
    said += plain(await ann.expect("Your turn"))
    said += plain(await ann.cmd("split"))
    await tick(app, 0.1)
    said += plain(await ann.cmd("stand")) + plain(await ann.cmd("stand"))
    await tick(app, 0.1)
    said += plain(await ann.expect("Settlement, round 1"))
    assert len(game(app).last.hands["ann"]) == 2
    assert re.search(r"Settlement, round 1: dealer bust \(25\); hand 1 won 10 \(18\); hand 2 won 10 \(18\); "
                     r"net \+20\.", " ".join(said.split())), said
    stacked(game(app), [10, 7, 9, 10])                          # 19 against 17
    await ann.cmd("bet 10")
    await tick(app, 0.1)
    await ann.expect("Your turn")
    await ann.cmd("stand")
    await tick(app, 0.1)
    assert "net +10" in plain(await ann.expect("Settlement, round 2"))
    assert await wallet(app, "ann") == 1030
    row = next(STATS_ROW.match(ln) for ln in plain(await ann.cmd("stats")).splitlines() if STATS_ROW.match(ln))
    rounds, wagered, won, lost, net, best, streak = (int(x) for x in row.groups())
    assert (rounds, wagered, won, lost, net, best, streak) == (2, 30, 30, 0, 30, 20, 2)
    wins = plain(await ann.cmd_expect("top wins", "Top "))
    assert re.search(r"\. ann +2\b", wins), wins                 # two winning settlements, not three
    staked = plain(await ann.cmd_expect("top wagered", "Top "))
    assert re.search(r"\. ann +30\b", staked), staked
    await ann.close()

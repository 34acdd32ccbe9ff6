"""Seating at the tables over real telnet: six problems, one or a few tests each.

Every test runs a real server on 127.0.0.1 with a real SQLite file (the
`casino_factory` fixture, which checks the ledger's invariants afterwards) and
talks to it only as players do, over telnet. Time moves only with
`app.manager.tick_elapsed(n)`; dice come from a fixed seed, and a test drives
the game (bounded loops) until the state it needs shows up in the replies.
The only other reach into the server is `await app.tables[<id>].idle()`, to
wait for queued table input, and the app's presence condition, to wait for a
dropped connection to be handled.

Rooms: bank craps is north of the lobby, simplified craps south, alley craps
down, the Pig parlour west.
"""
from __future__ import annotations

import re

import pytest
from support.telnet import Client, login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

FAST = {"commands_per_second": 1000}   # the tests type fast; the throttle is not under test
WINDOW = 10                            # bank craps betting window, seconds (shipped default)
PIG_PACE = 1.0                         # the computer's seconds per roll (config/casino_tables.yaml)
ROLL_LINE = re.compile(r"\(\d \+ \d = \d+\)")                      # "Easy 8! (3 + 5 = 8)"
PASS_SETTLED = re.compile(r"Settlement: .*pass [+-]\d+.*; net [+-]\d+\.")
FIELD_SETTLED = re.compile(r"Settlement: .*field [+-]\d+.*; net [+-]\d+\.")
SIT_FIRST = re.compile(r"(?i)sit (down|at a table) first")        # a `roll` from someone not seated
COME = re.compile(r"\bcome\b", re.IGNORECASE)
PROMPT = re.compile(r"(?:^|(?<=\n))> ")                           # ends each message block


# --- steps ----------------------------------------------------------------------
async def casino_with(casino_factory, seed):
    return await casino_factory(seed=seed, limits=FAST)


async def arrive(app, name: str, *path: str) -> Client:
    """Log `name` in and walk `path` from the lobby."""
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    for step in path:
        await c.cmd(step)
    return c


async def seat(app, name: str, game: str = "craps", path: tuple[str, ...] = ("north",)) -> tuple[Client, str]:
    """Log in, walk to the table and `play <game>`; returns the client and the reply."""
    c = await arrive(app, name, *path)
    return c, plain(await c.cmd(f"play {game}"))


async def drain(c: Client) -> str:
    """Everything the server has sent `c` so far, up to and including the reply
    to a `look` (whose last line is always 'Exits: ...')."""
    return plain(await c.cmd_expect("look", "Exits:"))


async def reply_to(c: Client, line: str) -> str:
    """The reply to `line` alone: whatever was pending is read first."""
    await drain(c)
    return plain(await c.cmd(line))


async def tick(app, table: str, seconds: float) -> None:
    app.manager.tick_elapsed(app.manager.seconds(seconds))
    await app.tables[table].idle()


async def block_with(c: Client, text: str) -> str:
    """Read until `text` arrives; the one message block (the lines that left
    together, ending with one prompt) that holds it."""
    for _ in range(20):
        for block in PROMPT.split(plain(await c.read_until_prompt())):
            if text in block:
                return block
    raise AssertionError(f"no message block with {text!r}")


async def roll_until_point(c: Client, bet: str = "bet pass 10") -> tuple[int, str]:
    """Solo shooter: bet and roll until a point is set; returns it and the roll's reply.
    A come-out that decides the pass bet is followed by a new bet."""
    for _ in range(30):
        assert "Bet accepted" in plain(await c.cmd_expect(bet, "Your bets"))
        out = plain(await c.cmd_expect("roll", " = "))
        point = re.search(r"The point is (\d+)", out)
        if point:
            return int(point.group(1)), out
    raise AssertionError("no point was set in 30 come-out rolls")


async def disconnect(app, c: Client, name: str) -> None:
    """Drop the connection and wait until the server has handled it."""
    await c.close()
    async with app.presence:
        await app.presence.wait_for(lambda: name.lower() not in app.online)


def seated_names(view: str) -> str:
    """The 'Seated: ...' part of a bank craps `table` view."""
    found = re.search(r"Seated: ([^.]*)\.", view)
    assert found, view
    return found.group(1)


async def finish_pig_game(app, player: Client) -> str:
    """Play out a game of `player` against the computer, from the player's turn
    with nothing unread: `hold` on each of the player's turns, the computer's
    time moved one roll at a time, until someone wins. Returns what the player saw."""
    seen = out = "Your turn"
    for _ in range(600):
        if " wins!" in seen:
            break
        if "Your turn" in out:
            out = plain(await player.cmd("hold"))
        else:
            app.manager.tick_elapsed(app.manager.seconds(PIG_PACE))
            await app.tables["pig"].idle()
            out = plain(await player.read_until_prompt())
        seen += out
    assert " wins!" in seen, "the Pig game did not end"
    return seen + await drain(player)          # the wallet line follows the game's end


# --- 1. back from sitting out -------------------------------------------------------
async def test_back_from_sitout_rejoins_the_shooter_queue_at_the_tail(casino_factory):
    """Problem 1: a player back from sitting out must not take the dice mid-hand.

    Ann shoots first and sits out; Bob gets the dice and, alone active, sets a
    point. Ann's `play craps` brings her back at the tail of the shooter queue:
    Bob keeps the dice (a made point keeps the shooter); his `roll` is kept
    while the betting window, which now runs again, is open, and thrown when
    it closes."""
    app = await casino_with(casino_factory, seed=4242)
    ann, out = await seat(app, "Ann")
    assert "You have the dice" in out
    bob, _ = await seat(app, "Bob")
    out = await reply_to(ann, "sitout")
    assert "You sit out" in out
    assert "You have the dice" in plain(await bob.expect("You have the dice"))

    point, _ = await roll_until_point(bob)          # alone active: Bob rolls at once
    await drain(bob)
    back = await reply_to(ann, "play craps")
    told_bob = await drain(bob)

    assert "You have the dice" not in back, back
    assert "Ann has the dice" not in told_bob, told_bob
    assert "Bob is the shooter." in await reply_to(ann, "roll")
    assert "Your roll is kept" in await reply_to(bob, "roll")   # two active again: the window runs
    await tick(app, "bank_craps", WINDOW)                      # and the kept roll flies at its close
    assert ROLL_LINE.search(plain(await bob.expect(" = ")))


# --- 2. a deferred leave shows the deciding roll ---------------------------------
async def test_solo_deferred_leave_shows_the_deciding_roll(casino_factory):
    """Problem 2 (solo): `leave` with a pass bet on a point waits for the bet;
    the roll that decides it must still show its dice, the player's settlement
    and "You leave the table." to the leaving player."""
    app = await casino_with(casino_factory, seed=4242)
    ann, _ = await seat(app, "Ann")
    await roll_until_point(ann)
    assert "You will leave once your live bets are decided" in await reply_to(ann, "leave")

    deciding = ""
    for _ in range(100):
        out = plain(await ann.cmd("roll"))
        if not ROLL_LINE.search(out) or "is made" in out or "Seven out" in out:
            deciding = out                          # the hand decided (or the roll was not shown)
            break
    assert ROLL_LINE.search(deciding), f"the deciding roll is not shown: {deciding!r}"
    assert PASS_SETTLED.search(deciding), deciding
    assert "You leave the table." in deciding


async def test_deferred_leave_at_a_busy_table_shows_the_deciding_roll(casino_factory):
    """Problem 2 (multiplayer): Ann has a field bet (one roll) live and types
    `leave`; when Bob rolls, Ann must see the roll, her settlement and "You
    leave the table.", and afterwards she is no longer seated."""
    app = await casino_with(casino_factory, seed=4242)
    bob, _ = await seat(app, "Bob")                 # Bob sits first: he shoots
    ann, _ = await seat(app, "Ann")
    assert "Bet accepted: field 10." in plain(await ann.cmd_expect("bet field 10", "Your bets"))
    assert "You will leave once your live bets are decided" in await reply_to(ann, "leave")
    await tick(app, "bank_craps", WINDOW)
    await drain(bob)
    assert ROLL_LINE.search(plain(await bob.cmd_expect("roll", " = ")))

    seen = await drain(ann)
    assert ROLL_LINE.search(seen), f"Ann did not see the roll that decided her field bet: {seen!r}"
    assert FIELD_SETTLED.search(seen), seen
    assert "You leave the table." in seen
    assert "Ann" not in seated_names(await reply_to(ann, "table"))
    assert SIT_FIRST.search(await reply_to(ann, "roll"))


# --- 3. ghost seat ---------------------------------------------------------------
async def test_leave_without_bets_frees_the_seat_for_another_table(casino_factory):
    """Problem 3: a leave with no bets must free the seat everywhere, or `play`
    at another table says "You are playing at bank_craps" for a table the
    player is no longer at (a ghost seat). (`stop` no longer leaves: issue 38.)"""
    app = await casino_with(casino_factory, seed=4242)
    ann, _ = await seat(app, "Ann")
    stopped = await reply_to(ann, "leave")
    await ann.cmd("south")
    await ann.cmd("down")
    alley = await reply_to(ann, "play alley")

    assert "You are playing at" not in alley, alley
    assert "buy-in" in alley and "Ann sits down at the alley craps table." in alley
    assert "You leave the table." in stopped


# --- 4. silent leave -------------------------------------------------------------
async def test_leave_without_bets_at_bank_craps_says_so(casino_factory):
    """Problem 4: `leave` with no bets at bank craps answers "You leave the table."."""
    app = await casino_with(casino_factory, seed=4242)
    ann, _ = await seat(app, "Ann")
    assert "You leave the table." in await reply_to(ann, "leave")


async def test_leave_without_bets_at_simplified_craps_says_so(casino_factory):
    """Problem 4: `leave` with no bets at simplified craps answers "You leave the table."."""
    app = await casino_with(casino_factory, seed=4242)
    ann, out = await seat(app, "Ann", path=("south",))
    assert "You sit down at simple_craps" in out
    assert "You leave the table." in await reply_to(ann, "leave")


async def test_stop_without_autoroll_at_bank_craps_says_so_and_keeps_the_seat(casino_factory):
    """Problem 4, as issue 38 decided: `stop` with no autoroll running says
    there is nothing to stop, and the player stays seated."""
    app = await casino_with(casino_factory, seed=4242)
    ann, _ = await seat(app, "Ann")
    out = await reply_to(ann, "stop")
    assert "Autoroll is not running" in out and "you keep your seat" in out
    assert "You leave the table." not in out


# --- 5. joining mid-hand -----------------------------------------------------------
async def test_shooter_who_inherits_a_point_is_told_it(casino_factory):
    """Problem 5: Ann, alone, sets a point and drops; Bob, seated meanwhile,
    gets the dice mid-hand. The message that gives him the dice must say the
    point and that come bets are open; `bet come 10` is then accepted."""
    app = await casino_with(casino_factory, seed=4242)
    ann, _ = await seat(app, "Ann")
    point, _ = await roll_until_point(ann)
    bob, _ = await seat(app, "Bob")
    await drain(bob)
    await disconnect(app, ann, "Ann")

    block = await block_with(bob, "You have the dice")
    assert f"The point is {point}" in block, block
    assert COME.search(block), block
    assert "Bet accepted: come 10." in plain(await bob.cmd_expect("bet come 10", "Your bets"))


async def test_player_sitting_down_mid_hand_is_told_the_point(casino_factory):
    """Problem 5: Ann, alone, sets a point and drops; Bob sits down afterwards
    and gets the dice mid-hand. His reply must say the point and that come bets
    are open; `bet come 10` is then accepted."""
    app = await casino_with(casino_factory, seed=4242)
    ann, _ = await seat(app, "Ann")
    point, _ = await roll_until_point(ann)
    await disconnect(app, ann, "Ann")

    bob, out = await seat(app, "Bob")
    assert "You have the dice" in out
    assert f"The point is {point}" in out, out
    assert COME.search(out), out
    assert "Bet accepted: come 10." in plain(await bob.cmd_expect("bet come 10", "Your bets"))


# --- 6. Pig: start plays the ready -------------------------------------------------
async def _pig_game_then_bob_waits(casino_factory):
    """Amy plays the computer; Bob sits down during that game; the game is
    played out. Returns the app and both clients, everything read."""
    app = await casino_with(casino_factory, seed=3003)
    amy, out = await seat(app, "Amy", game="pig", path=("west",))
    assert "Type 'start' to play the computer" in out
    out = await reply_to(amy, "start")
    assert "Turn order: Amy, computer." in out and "Your turn" in out
    bob, out = await seat(app, "Bob", game="pig", path=("west",))
    assert "you play in the next one" in out
    await drain(amy)                                 # Bob's arrival; still Amy's first turn
    seen = await finish_pig_game(app, amy)
    assert "computer wins!" in seen                  # Amy only ever holds
    await drain(bob)
    return app, amy, bob


async def test_pig_start_does_not_drag_in_idle_players(casino_factory):
    """Problem 6: `start` plays only the players who are ready.

    Rule being introduced: a seated player is in the next game only when ready.
    Sitting down at a table with no game running makes you ready; after a game
    ends, or if you sit down during a game, you type `ready` (or `start`) to play
    in the next one.

    Bob sat down during Amy's game against the computer and has typed nothing
    since; when Amy types `start` after that game she plays the computer again
    at once, and Bob is not in the game."""
    app, amy, bob = await _pig_game_then_bob_waits(casino_factory)
    out = await reply_to(amy, "start")
    order = re.search(r"Turn order: ([^\r\n]*)", out)
    assert order and order.group(1) == "Amy, computer.", out
    assert "Your turn: 'roll' or 'hold'" in out
    assert "You play in the next game" in await reply_to(bob, "roll")


async def test_pig_ready_player_is_in_the_next_game(casino_factory):
    """Problem 6: after a game, a player who types `ready` is in the next one.

    Rule being introduced: a seated player is in the next game only when ready.
    Sitting down at a table with no game running makes you ready; after a game
    ends, or if you sit down during a game, you type `ready` (or `start`) to play
    in the next one.

    Bob sat down during Amy's game against the computer; after it he types
    `ready`, then Amy types `start`: the game is between Amy and Bob."""
    app, amy, bob = await _pig_game_then_bob_waits(casino_factory)
    ready = await reply_to(bob, "ready")
    assert "No such command" not in ready and "has no 'ready'" not in ready, ready
    out = await reply_to(amy, "start")
    order = re.search(r"Turn order: ([^\r\n]*)", out)
    assert order and order.group(1) == "Amy, Bob.", out
    assert "It is Amy's turn." in await reply_to(bob, "roll")

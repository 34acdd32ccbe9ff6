"""What a craps variant's player reads about their own table (issue 38,
item 8): the stickman's call, Die Rich's loss by the 1, a bet from another
variant, and `unbet` of a one-roll bet on a number; over real telnet with
seeded dice."""
from __future__ import annotations

import re

from support.telnet import Client, login, plain

SEED = 4242
FAST = {"commands_per_second": 1000}
CALLED = re.compile(r"^(.*)! \((\d) \+ (\d) = (\d+)\)\r?$", re.M)


async def seated(app, name: str, word: str, *path: str) -> Client:
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    for step in path:
        await c.cmd(step)
    await c.cmd_expect(f"play {word}", "joins the table")
    return c


async def test_crapless_never_calls_a_craps_and_bank_craps_still_does(casino_factory):
    """A 2, 3 or 12 at crapless craps is a point, never "craps"; the same
    totals at bank craps keep the stickman's craps call."""
    app = await casino_factory(seed=SEED, limits=FAST)
    ann = await seated(app, "ann", "crapless", "north", "west")
    bob = await seated(app, "bob", "craps", "north")
    seen: dict[str, dict[int, str]] = {"crapless": {}, "craps": {}}
    for _ in range(150):
        for word, c in (("crapless", ann), ("craps", bob)):
            await c.cmd_expect("bet field 5", "Your bets")
            out = plain(await c.cmd_expect("roll", " = "))
            for words, _d1, _d2, total in CALLED.findall(out):
                seen[word][int(total)] = words
        if all(t in seen[w] for w in seen for t in (2, 3, 12)):
            break
    crapless, bank = seen["crapless"], seen["craps"]
    assert {2, 3, 12} <= crapless.keys() and {2, 3, 12} <= bank.keys(), seen
    assert not any("craps" in crapless[t].lower() for t in crapless), crapless
    assert (crapless[2], crapless[3], crapless[12]) == ("Two, aces", "Three, ace-deuce", "Twelve, boxcars")
    assert (bank[2], bank[3], bank[12]) == ("Craps two, aces", "Ace-deuce, three craps", "Boxcars, twelve craps")


async def test_die_rich_says_the_1_lost_the_hand_not_a_missed_point(casino_factory):
    """A 1 after the point loses at once, and the line says so; "No 4 ..."
    is only said when the fourth roll missed."""
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["die_rich"]
    ann = await seated(app, "ann", "dierich", "north", "west")
    by_the_one = missed = ""
    for _ in range(300):
        if not host.dealer.has_live_bets("ann"):
            await ann.cmd_expect("bet pass 10", "Your bets")
        point = host.dealer.state.point
        out = plain(await ann.cmd_expect("roll", "the die shows"))
        if "Line away:" not in out or not point:
            continue
        line = next(x for x in out.splitlines() if x.startswith("Line away:"))
        if "One! (the die shows 1)" in out:
            by_the_one = by_the_one or line
            assert f"No {point}" not in line, line
        else:
            missed = missed or line
        if by_the_one and missed:
            break
    assert re.fullmatch(r"Line away: A 1 on the (second|third|fourth) roll loses at once: pass loses "
                        r"\(the point was [2-5]\)\. The die moves on\.", by_the_one), by_the_one
    assert re.fullmatch(r"Line away: No [2-5] by the fourth roll: pass loses\. The die moves on\.",
                        missed), missed


async def test_another_variants_bet_is_unknown_here_with_the_list_of_this_tables_bets(casino_factory):
    app = await casino_factory(seed=SEED)
    bank = await seated(app, "ann", "craps", "north")
    out = " ".join(plain(await bank.cmd_expect("bet face 3 5", "Refused")).split())
    assert "Refused: unknown bet 'face' at bank craps (it is a Die Rich bet). Bets here: pass, dontpass," in out
    assert "hop, fire, small, tall, all." in out
    ny = await seated(app, "bob", "newyork", "north", "west")
    out = " ".join(plain(await ny.cmd_expect("bet high 10", "Refused")).split())
    assert ("Refused: unknown bet 'high' at New York craps (it is a High Point craps bet). "
            "Bets here: pass, dontpass, odds, buy, lay, hard, field, any7, anycraps, 2, 3, 11, 12, horn, hop.") in out
    out = " ".join(plain(await ny.cmd_expect("bet roulette 10", "Refused")).split())
    assert "Refused: unknown bet 'roulette': 'help newyork' lists the kinds of bet." in out
    assert not host_bets(app, "bank_craps", "ann") and not host_bets(app, "new_york_craps", "bob")


def host_bets(app, table: str, player: str) -> list:
    return app.tables[table].dealer.state.bets_of(player)


async def test_unbet_2_and_12_take_down_the_one_roll_bets_by_name_and_say_so(casino_factory):
    """With bets numbered 1) field 2) 12 3) hard6 4) 2, `unbet 2` is the bet
    on 2 (its name wins over bet number 2) and `unbet 12` is the bet on 12;
    a plain number with no bet of that name is still the numbered bet."""
    app = await casino_factory(seed=SEED)
    host = app.tables["bank_craps"]
    ann = await seated(app, "ann", "craps", "north")
    for words in ("bet field 5", "bet 12 5", "bet hard 6 5", "bet 2 5"):
        await ann.cmd_expect(words, "Your bets")
    assert "1) field 5  2) 12 5  3) hard6 5  4) 2 5" in plain(await ann.cmd("bets"))
    out = plain(await ann.cmd_expect("unbet 2", "Taken down"))
    assert "Taken down: your one-roll bet on 2 (2), 5 back to your wallet." in out
    assert "Your bets: 1) field 5  2) 12 5  3) hard6 5" in out
    out = plain(await ann.cmd_expect("unbet 12", "Taken down"))
    assert "Taken down: your one-roll bet on 12 (12), 5 back to your wallet." in out
    assert "Your bets: 1) field 5  2) hard6 5" in out
    out = plain(await ann.cmd_expect("unbet 2", "Taken down"))      # no bet named 2 now: bet number 2
    assert "Taken down: hard6, 5 back to your wallet." in out and "Your bets: 1) field 5\r" in out
    assert [w.name for w in host.dealer.state.bets_of("ann")] == ["field"]
    assert "a bet's name wins over its number" in " ".join(plain(await ann.cmd("help unbet")).split())


async def test_the_shooter_reads_the_dealers_roll_as_for_you(casino_factory):
    """Issue 38 item 6: when the shooter lets the deadline pass, the shooter
    reads "The dealer rolls for you." and everyone else the shooter's name."""
    app = await casino_factory(seed=SEED)
    host = app.tables["bank_craps"]
    ann = await seated(app, "ann", "craps", "north")
    bob = await seated(app, "bob", "craps", "north")
    await bob.cmd_expect("bet field 5", "Your bets")
    assert host.dealer.shooter() == "ann"
    for seconds in (7, 3, 60):
        app.manager.tick_elapsed(app.manager.seconds(seconds))
        await host.idle()
    mine = plain(await ann.expect("The dealer rolls"))
    assert "The dealer rolls for you." in mine and "for ann" not in mine
    assert "The dealer rolls for ann." in plain(await bob.expect("The dealer rolls"))

"""Roulette input a newcomer types (issue 28 item 10), over telnet: a corner
named by one number twice, the American double zero, a stake over the table
maximum, a negative number, and the cents note as a sentence."""
from __future__ import annotations

import pytest
from support.telnet import Client, login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

FAST = {"commands_per_second": 1000}


@pytest.fixture
async def at_wheel(casino_factory):
    app = await casino_factory(seed=5, limits=FAST)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "rita")
    for step in ("north", "east", "play roulette"):
        await c.cmd(step)

    async def say(line: str) -> str:
        return " ".join(plain(await c.cmd(line)).replace("\r\n", "\n").split())
    yield say
    await c.close()


@pytest.mark.parametrize("n, corner", [(1, "corner 1 5"), (3, "corner 2 6"), (34, "corner 31 35"),
                                       (36, "corner 32 36")])
async def test_a_corner_of_one_number_twice_is_refused(at_wheel, n, corner):
    out = await at_wheel(f"bet corner {n} {n} 5")
    assert "Bet accepted" not in out
    assert f"Refused: a corner names two different numbers on a diagonal (or all four), e.g. {corner}." in out
    assert "You have no bets on the layout." in await at_wheel("bets")


async def test_the_double_zero_is_refused_by_name(at_wheel):
    for line in ("bet straight 00 5", "bet 00 5"):
        out = await at_wheel(line)
        assert "Refused: 00 is the American wheel's double zero; this is a single-zero wheel, with only 0." in out
    assert "You have no bets on the layout." in await at_wheel("bets")


async def test_over_the_table_maximum_names_the_maximum_not_the_wallet(at_wheel):
    out = await at_wheel("bet straight 17 10001")
    assert "Refused: the table maximum is 10000 a wager." in out and "wallet" not in out
    assert "more than your wallet (1000 chips)" in await at_wheel("bet straight 17 5000")


async def test_a_negative_number_is_off_the_layout(at_wheel):
    out = await at_wheel("bet straight -1 5")
    assert "Refused: -1 is not on the layout: the numbers are 0 to 36." in out
    assert "digits 0-9" not in out


async def test_the_cents_note_is_a_sentence(at_wheel):
    out = await at_wheel("bet red 10.5")
    assert "0.50 returned, your wager is 10. Bet accepted: red 10." in out

"""Alley craps in `stats`, `statement` and `top` (issue 38 item 5): the ledger holds a
player's whole table bankroll and settles it after every pass, but what they wagered
is what each pass put at risk. ann shoots three passes for 20, 50 and 30 and bob
fades each in full; then bob leaves, which ends the game. Over telnet each reads
3 rounds and 100 wagered in `stats`, "staked 20", "staked 50", "staked 30" in
`statement` (then the bankroll that came back to the wallet), and 100 on `top
wagered`; `ledger check` is ok after."""
from __future__ import annotations

import re

import pytest
from support.telnet import Client, login, plain

from server.ledger import check
from tests.e2e.test_stats import stats_rows
from tests.e2e.test_top import board, top

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

SEED = 6006
FAST = {"commands_per_second": 1000}
AMOUNTS = (20, 50, 30)
# a settlement's memo: the pass, then the bankroll back to the wallet when that differs
PASS = re.compile(r"([+-]\d+)\s+alley_craps: (won|lost): staked (\d+), paid back (\d+)"
                  r"(?:; table bankroll (\d+) to your wallet)?$")


async def arrive(app, name: str) -> Client:
    c = await Client.open(app.port, ttype="dumb", cols=80)
    await login(c, name)
    await c.cmd_expect("down", "Back Alley")
    await c.cmd_expect("play alley", "sits down at the alley craps table")
    return c


async def settle(app, host) -> None:
    """Let the table apply what it has been given (its intents reach the ledger)."""
    await host.idle()


async def one_pass(app, host, ann: Client, bob: Client, amount: int) -> int:
    """ann shoots a pass for `amount`, bob fades it all; the dice decide. ann's gain."""
    before = host.dealer.engine.bankrolls["ann"]
    await ann.cmd_expect(f"bet {amount}", f"You bet {amount}.")
    await bob.expect(f"How much of the {amount} action do you want?")
    await bob.cmd_expect(f"fade {amount}", f"You take {amount} of the action")
    for _ in range(200):
        await settle(app, host)
        engine = host.dealer.engine
        if engine is None or engine.phase.value != "rolling":
            break
        await ann.cmd_expect("roll", "You roll")
    else:
        raise AssertionError("the pass was not decided within the bound")
    await settle(app, host)
    engine = host.dealer.engine
    assert engine is not None and engine.phase.value == "choosing", "a pass of at most 50 ends no game"
    return engine.bankrolls["ann"] - before


async def test_three_passes_read_as_what_they_risked(casino_factory):
    app = await casino_factory(seed=SEED, limits=FAST)
    host = app.tables["alley_craps"]
    ann = await arrive(app, "ann")
    bob = await arrive(app, "bob")
    await ann.cmd_expect("start", "ann, you are the shooter!")
    gains = [await one_pass(app, host, ann, bob, amount) for amount in AMOUNTS]
    assert [abs(g) for g in gains] == list(AMOUNTS)
    await bob.cmd_expect("leave", "You leave")               # the game ends: every bankroll goes home
    await settle(app, host)
    assert host.dealer.engine is None
    for c in (ann, bob):
        c.take_text()

    for c, name, sign in ((ann, "ann", 1), (bob, "bob", -1)):
        mine = [sign * g for g in gains]
        out = plain(await c.cmd_expect("statement 20", "chip movement")).replace("\xa0", " ")
        # a movement wraps at 80 columns under a hanging indent: each one on a line again
        lines = [line.rstrip() for line in re.sub(r"\n {4,}", " ", out.replace("\r", "")).split("\n")]
        passes = [m for m in map(PASS.search, lines) if m]
        assert len(passes) == 3, out
        bank = 100
        for m, amount, gain in zip(reversed(passes), AMOUNTS, mine):     # newest first
            bank += gain
            assert (m[2], int(m[3]), int(m[4])) == ("won" if gain > 0 else "lost", amount,
                                                    amount + gain), m[0]
            # the wallet's movement is the bankroll that came back, said when it is not the pass's
            assert int(m[1]) == bank and int(m[5] or m[4]) == bank, m[0]
        assert any(line.endswith(f"alley_craps: table bankroll {bank} to your wallet") for line in lines), out
        assert "staked 100" not in out and "staked 1" + "20" not in out
        # a bankroll held (the buy-in, and again after each pass) is no wager placed
        assert "wager placed" not in out and re.search(r"-100\s+alley_craps: table bankroll 100 from your wallet$",
                                                       "\n".join(lines), re.M), out

        row = stats_rows(await c.cmd_expect("stats", "Total"))["Alley craps"]
        won, lost = sum(g for g in mine if g > 0), -sum(g for g in mine if g < 0)
        assert (row["rounds"], row["wagered"], row["won"], row["lost"], row["net"]) == (
            "3", "100", str(won), str(lost), f"{won - lost:+d}"), (name, row)

        rows = board(await top(c, "top wagered"))
        assert [(r[2], r[3]) for r in rows if r[2] in ("ann", "bob")] == [("ann", 100), ("bob", 100)], rows
    await ann.close()
    await bob.close()
    assert check(app.database).ok

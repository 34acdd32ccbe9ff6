"""Simplified craps over telnet, and provably fair dice re-derived by `casino verify`."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from support.telnet import Client, login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

ROOT = Path(__file__).resolve().parents[2]
ROLLED = re.compile(r"You rolled (\d) and (\d): (\d+)\.")


async def sit_at_solo(connect, name):
    a = await connect(ttype="dumb")
    await login(a, name)
    await a.cmd("south")
    out = plain(await a.cmd("play craps"))
    assert "You sit down at simple_craps" in out
    return a


async def test_seed_roll_fair_new_and_verify_every_roll(casino_factory):
    app = await casino_factory(seed=11)              # deterministic: the game's length is fixed

    async def connect(**kw):
        return await Client.open(app.port, **kw)
    a = await sit_at_solo(connect, "vic")
    assert "Client seed set to 'lucky-seven'" in await a.cmd("seed lucky-seven")
    before = plain(await a.cmd("fair"))
    commitment = re.search(r"Server seed commitment \(SHA-256\):\s+([0-9a-f]{64})", before).group(1)
    rolls: list[tuple[int, int]] = []
    out = plain(await a.cmd("bet pass 10"))
    assert "You bet 10 on the pass line" in out
    for _ in range(200):
        out = plain(await a.cmd("roll"))
        rolls += [(int(m[0]), int(m[1])) for m in ROLLED.findall(out)]
        if "won" in out or "lost" in out or "Push" in out:
            break
    assert rolls and "Wallet:" in out
    # The game's end rotated the seed: the one that served these rolls is revealed.
    shown = plain(await a.cmd("fair"))
    revealed = re.search(r"Revealed server seeds, newest first:\s+([0-9a-f]{64})\s+commitment ([0-9a-f]{64})", shown)
    assert revealed.group(2) == commitment
    verify = subprocess.run(
        [sys.executable, "-m", "server.cli", "verify", "--server-seed", revealed.group(1),
         "--client-seed", "lucky-seven", "--nonce", "0", "--count", str(len(rolls))],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    derived = [(int(x), int(y)) for x, y in re.findall(r"nonce \d+: (\d) (\d)", verify)]
    assert derived == rolls
    assert commitment in verify

    # fair new: the seed that served a roll is revealed at once (if the roll did
    # not end the game, which rotates by itself, `fair new` is what reveals it).
    committed = re.search(r"\(SHA-256\):\s+([0-9a-f]{64})", plain(await a.cmd("fair"))).group(1)
    await a.cmd("bet pass 10")
    out = plain(await a.cmd("roll"))
    first = [(int(m[0]), int(m[1])) for m in ROLLED.findall(out)]
    out = plain(await a.cmd("fair new"))
    pairs = re.findall(r"\n\s+([0-9a-f]{64})\s+commitment ([0-9a-f]{64})", out)
    seed = next(server for server, commit in pairs if commit == committed)
    verify = subprocess.run(
        [sys.executable, "-m", "server.cli", "verify", "--server-seed", seed,
         "--client-seed", "lucky-seven", "--nonce", "0"],
        cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert [(int(x), int(y)) for x, y in re.findall(r"nonce \d+: (\d) (\d)", verify)] == first


async def test_cents_returned_refusals_and_wallet(casino, connect):
    a = await sit_at_solo(connect, "wes")
    assert "0.36 returned, your wager is 10.\r\n" in await a.cmd("bet pass 10.36")   # its own sentence
    assert "already bet" in await a.cmd("bet pass 10")
    b = await sit_at_solo_second(connect)
    assert "table for one" in b
    await a.cmd_expect("leave", "You will leave once your live bets are decided")
    bal = plain(await a.cmd("balance"))
    assert "Wallet: 990 chips." in bal and "Held at simple_craps: 10" in bal


async def sit_at_solo_second(connect):
    b = await connect(ttype="dumb")
    await login(b, "xia")
    await b.cmd("south")
    return plain(await b.cmd("play craps"))


async def test_refusals_change_nothing(casino, connect):
    a = await sit_at_solo(connect, "yan")
    assert "minimum bet is 5" in await a.cmd("bet pass 3")
    assert "not an amount" in await a.cmd("bet pass lots")
    assert "negative" in await a.cmd("bet pass -5")
    assert "table maximum" in await a.cmd("bet pass 5000")
    assert "Bet first" in await a.cmd("roll")
    assert "press only once a point" in await a.cmd("press")
    assert "Wallet: 1000 chips." in await a.cmd("balance")


async def test_disconnect_forfeits_and_shutdown_refunds(casino_factory):
    app = await casino_factory()
    a = await Client.open(app.port, ttype="dumb")
    await login(a, "zed")
    await a.cmd("south")
    await a.cmd("play craps")
    await a.cmd("bet dontpass 20")
    await a.close()
    async with app.presence:                  # the server has handled the disconnect
        await app.presence.wait_for(lambda: "zed" not in app.online)
    bal = await app.ledger.balance("zed")
    assert bal.wallet == 980 and not any(bal.held.values())      # the 20 was forfeited

    b = await Client.open(app.port, ttype="dumb")
    await login(b, "zed", create=False)
    await b.cmd("south")
    await b.cmd("play craps")
    await b.cmd("bet pass 30")
    assert (await app.ledger.balance("zed")).wallet == 950
    await app.stop("Test shutdown.")
    assert "refunded" in plain(await b.read_until_closed())
    from server.ledger import Ledger
    ledger = await Ledger.open(app.database)
    try:
        assert (await ledger.balance("zed")).wallet == 980
    finally:
        await ledger.close()


async def test_a_seed_is_asked_once_as_play_starts_and_seed_changes_it_at_any_time(casino_factory):
    """Spec 001 asks for the seed once, at the start (issue 28: it was asked
    again after every bet, in place of the prompt); `seed <text>` after that,
    and the next player is offered the table's own seed, not the last one's."""
    app = await casino_factory(limits={"commands_per_second": 1000})
    a = await Client.open(app.port, ttype="dumb")
    await login(a, "sela")
    await a.cmd("south")
    out = plain(await a.cmd("play craps"))
    assert "Choose a seed for your dice" in out
    assert out.endswith("Seed (Enter to skip): ")           # the prompt asks
    out = plain(await a.cmd(""))                              # Enter skips
    assert "No new seed: the dice keep 'simple_craps'." in out and out.endswith("\n> ")
    out = plain(await a.cmd("bet pass 10"))                   # a game starts: no question now
    assert "You bet 10 on the pass line" in out and out.endswith("\n> ")
    out = plain(await a.cmd("seed lucky 7"))
    assert "Client seed set to 'lucky 7'" in out and out.endswith("\n> ")
    assert "Client seed:" in plain(await a.cmd("fair")) and "lucky 7" in plain(await a.cmd("fair"))
    for _ in range(100):                                      # play the game out
        if "Wallet:" in plain(await a.cmd("roll")):
            break
    out = plain(await a.cmd("bet dontpass 5"))
    assert out.endswith("\n> ") and "Seed (Enter to skip)" not in out
    out = plain(await a.cmd("roll"))
    assert "You rolled" in out and "Seed set" not in out
    for _ in range(100):                                      # play it out, then make way
        if "Wallet:" in out:
            break
        out = plain(await a.cmd("roll"))
    await a.cmd("leave")
    b = await Client.open(app.port, ttype="dumb")
    await login(b, "tova")
    await b.cmd("south")
    out = plain(await b.cmd("play craps"))
    assert "Enter to keep 'simple_craps'" in out and "lucky 7" not in out
    assert out.endswith("Seed (Enter to skip): ")
    await b.cmd("")
    await a.close()
    await b.close()

"""`top` and `set leaderboard` over telnet, on both stores: boards after real play,
paging, the asker's own rank, operators and hidden players never listed, and one-line
reasons for bad words. (The casino fixture's ledger check proves afterwards that the
totals equal the settlements.)"""
from __future__ import annotations

import re

import pytest
from support.telnet import Client, login, plain

from server.ledger.check import check

pytestmark = pytest.mark.both_stores

LINE = re.compile(r"^([ *])\s*(\d+)\. (\S+)\s+(-?\d+)$")


async def player(app, name: str) -> Client:
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    return c


async def top(c: Client, line: str = "top") -> str:
    """The board `line` shows, whatever other players' news arrived before it."""
    out = plain(await c.cmd_expect(line, "Top "))
    return out[out.index("Top "):]


def board(out: str) -> list[tuple[bool, int, str, int]]:
    """(mine, rank, name, figure) of each ranked line."""
    rows = []
    for line in plain(out).splitlines():
        m = LINE.match(line)
        if m:
            rows.append((m[1] == "*", int(m[2]), m[3], int(m[4])))
    return rows


async def test_top_after_real_play_pages_and_ranks(casino_factory):
    app = await casino_factory(seed=5, operators=("admin",))
    from server.accounts.create import create_account
    await create_account(app.accounts, app.ledger, app.passwords, "admin", "secret123", 1000)
    admin = await Client.open(app.port, ttype="dumb")
    await login(admin, "admin", create=False)
    start = app.config.settings.starting_chips
    # twelve players; the ledger grants them different extra chips, so wealth has an order
    names = [f"pl{i:02}" for i in range(12)]
    clients = {n: await player(app, n) for n in names}
    for i, n in enumerate(names):
        await app.ledger.mint(f"extra-{n}", n, 10 * i + 1, "test grant")
    await app.ledger.mint("extra-admin", "admin", 10**6, "test grant")   # richest, never listed

    out = await top(clients["pl00"], "top")
    rows = board(out)
    assert plain(out).startswith("Top wealth (wallet chips), page 1:")
    assert [r[2] for r in rows[:10]] == [f"pl{i:02}" for i in range(11, 1, -1)]
    assert rows[0][3] == start + 111
    # pl00 is 12th: its own line comes below the page, marked
    assert rows[10] == (True, 12, "pl00", start + 1) and len(rows) == 11
    assert "admin" not in plain(out) and "house" not in plain(out)
    page2 = board(await top(clients["pl00"], "top wealth 2"))
    assert page2 == [(False, 11, "pl01", start + 11), (True, 12, "pl00", start + 1)]
    assert all(len(line) <= 40 for line in plain(out).splitlines())

    # real play: pl05 bets at craps until a settlement; the boards of totals then list it
    c = clients["pl05"]
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    await c.cmd_expect("bet field 5", "Your bets")
    await c.cmd_expect("roll", "Settlement")
    wagered = board(await top(c, "top wagered"))
    assert wagered[0] == (True, 1, "pl05", 5)
    net = board(await top(clients["pl00"], "TOP NET"))
    assert [r[2] for r in net] == ["pl05"] and net[0][3] in (-5, 5, 10)
    assert "Nobody this far down" in await top(c, "top net 3")
    assert check(app.database).ok

    # hiding: pl11 leaves every board, and comes back
    await clients["pl11"].cmd_expect("set leaderboard off", "off the leaderboards")
    out = await top(clients["pl11"], "top")
    assert "pl11" not in plain(out) and board(out)[0][2] == "pl10"
    assert re.search(r"board\s+off\s+set by you", plain(await clients["pl11"].cmd_expect("set", "Change:")))
    await clients["pl11"].cmd_expect("set leaderboard on", "on the leaderboards again")
    assert board(await top(clients["pl00"], "top"))[0][2] == "pl11"

    # the operator sees the boards but is not on them
    out = await top(admin, "top")
    assert "admin" not in plain(out) and not any(r[0] for r in board(out))


async def test_bad_board_or_page_gets_one_line(casino_factory):
    app = await casino_factory(seed=5)
    c = await player(app, "picky")
    for line in ("top luck", "top 0", "top 101", "top wins x", "top 2 wins"):
        out = [x for x in plain(await c.cmd(line)).strip().splitlines() if x.strip() != ">"]
        assert len(out) == 1 and "top [wealth|wins|wagered|net] [page 1-100]" in out[0], (line, out)
    out = [x for x in plain(await c.cmd("set leaderboard maybe")).strip().splitlines() if x.strip() != ">"]
    assert out == ["Use: set leaderboard on|off (off: top never lists you)."]
    assert "leaderboards" in plain(await c.cmd("help top"))

"""Issue 38 item 12: what an operator reads from `ledger check` and `tables`.

`ledger check` in the game says the CLI's one line (`casino ledger check`),
not a Python repr. `tables` lines its rows up in columns as wide as the
longest table id, game and room, every line within 80 columns, and a closed
room's table is listed as closed rather than dropped.
"""
from __future__ import annotations

import re

from support.telnet import Client, login, plain

from server.cli.ledger import report_lines
from server.ledger import check
from server.render.width import display_width

FAST = {"commands_per_second": 1000}
CLI_LINE = re.compile(r"ledger check: ok open_holds=\d+ minted=\d+ balances=\d+ house=-?\d+ accounts=\d+"
                      r" operations=\d+ pending_outcomes=\d+")


async def operator(app, cols: int = 80) -> Client:
    from server.accounts.create import create_account
    await create_account(app.accounts, app.ledger, app.passwords, "admin", "secret123", 1000)
    c = await Client.open(app.port, ttype="dumb", cols=cols)
    await login(c, "admin", create=False)
    return c


def rows(text: str) -> list[str]:
    return [line for line in plain(text).split("\r\n") if line and not line.startswith(">")]


async def test_ledger_check_in_game_says_the_clis_line(casino_factory):
    app = await casino_factory(operators=("admin",), limits=FAST)
    op = await operator(app, cols=250)          # the line is wider than 80; narrower, it wraps as prose does
    out = rows(await op.cmd_expect("ledger check", "ledger check:"))
    assert "CheckReport(" not in "".join(out)
    assert len(out) == 1 and CLI_LINE.fullmatch(out[0]), out
    assert out == report_lines(check(app.database))          # the very lines the CLI prints
    await op.close()


async def test_tables_rows_line_up_within_80_columns_and_a_closed_room_is_listed(casino_factory):
    app = await casino_factory(operators=("admin",), limits=FAST)
    op = await operator(app)
    out = rows(await op.cmd_expect("tables", "players:"))
    assert all(display_width(line) <= 80 for line in out), out
    heads = [line for line in out if not line.startswith(" ")]
    assert {line.split()[0] for line in heads} == set(app.tables)      # one row a table, none broken in two
    assert len(out) == 2 * len(heads) and all(line.lstrip().split(";")[0] for line in out[1::2])
    for column in ("room ", "stakes "):                                 # every row's columns start together
        assert len({line.index(column) for line in heads}) == 1, (column, heads)
    alley = next(line for line in heads if line.startswith("alley_craps "))
    assert "room alley" in alley and "stakes 0 in 0 hold(s)" in alley
    under = out[out.index(alley) + 1]
    assert "waiting for players (0 seated); players: nobody" in under and under.startswith(" ")

    assert "Room 6185 closed" in plain(await op.cmd_expect("close 6185", "Room 6185"))
    out = rows(await op.cmd_expect("tables", "players:"))
    heads = [line for line in out if not line.startswith(" ")]
    bank = next(line for line in heads if line.startswith("bank_craps "))
    assert "room 6185" in bank and "closed with its room until reload" in bank
    assert len({line.index("room ") for line in heads}) == 1, heads
    assert all(display_width(line) <= 80 for line in out), out
    await op.close()

"""Every registered command, fed odd Unicode, answers with a reason, never
"Something went wrong": superscripts and other scripts' digits pass
str.isdigit() but not int(), combining marks ride on digits, and bidi
overrides and zero-width characters never reach another player.
"""
from __future__ import annotations

import logging

import pytest
from support.telnet import Client, login, plain

from server.commands.registry import REGISTRY

ODD = [
    "²", "¹²", "٣", "३", "１０", "𝟙𝟘", "Ⅻ", "½", "e\u0301", "5\u0301", "1\u200b0",
    "\u202e01", "-1", "1e3", "10.5", "٣ ²", "pass ²", "field ٣", "² ² ²", "0", "9" * 40,
]
FAILED = "Something went wrong"


def reply_lines(text: str) -> list[str]:
    return [line for line in plain(text).splitlines() if line.strip() and line.strip() != ">"]


async def sweep(c: Client, words: list[str], caplog) -> None:
    for word in words:
        for odd in ODD:
            out = await c.cmd(f"{word} {odd}")
            assert FAILED not in out, (word, odd, out)
            assert reply_lines(out), (word, odd, out)         # a reason, not silence
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


@pytest.fixture
async def fast(casino_factory):
    return await casino_factory(seed=21, operators=("admin",), limits={"commands_per_second": 1000})


def words(*topics: str, operator: bool = False) -> list[str]:
    return [c.name for c in REGISTRY.commands.values()
            if c.topic in topics and c.operator == operator and c.name not in ("quit", "leave")]


async def test_every_command_in_the_lobby(fast, caplog):
    c = await Client.open(fast.port)
    await login(c, "oddball")
    await sweep(c, words("general", "table"), caplog)
    for direction in words("movement"):           # these may move: come back each time
        for odd in ODD:
            out = await c.cmd(f"{direction} {odd}")
            assert FAILED not in out and reply_lines(out), (direction, odd)
            fast.world.place(fast.online["oddball"], "lobby")
    assert "statement" in words("general")
    assert reply_lines(await c.cmd("statement ²")) == ["Give a number from 1 to 100, e.g. statement 20."]


async def test_every_operator_command(fast, caplog):
    from server.accounts.create import create_account
    await create_account(fast.accounts, fast.ledger, fast.passwords, "admin", "secret123", 1000)
    c = await Client.open(fast.port)
    await login(c, "admin", create=False)
    await sweep(c, words("operator", operator=True), caplog)


@pytest.mark.parametrize("room, game", [("6185", "craps"), ("solo", "craps"), ("alley", "alley"),
                                        ("parlour", "pig")])
async def test_every_table_word_at_each_game(fast, caplog, room, game):
    c = await Client.open(fast.port)
    await login(c, f"odd{game}{room}"[:20])
    fast.world.place(fast.online[f"odd{game}{room}"[:20]], room)
    await c.cmd_expect(f"play {game}", {"6185": "joins", "solo": "You sit down"}.get(room, "sits"))
    if game == "alley":                          # a second player, and a game running
        other = await Client.open(fast.port)
        await login(other, "alleymate")
        fast.world.place(fast.online["alleymate"], room)
        await other.cmd_expect("play alley", "sits")
        await c.cmd_expect("start", "shoot")
    await sweep(c, words("table"), caplog)


async def test_bidi_and_zero_width_characters_never_reach_others(fast):
    a, b = await Client.open(fast.port), await Client.open(fast.port)
    await login(a, "sneaky")
    await login(b, "reader")
    await a.cmd("say pay\u202eyap\u200b\u200d\u2066x\u2069\ufeff \u00adend\u2028line")
    heard = await b.read_until_prompt()
    assert 'sneaky says, "payyapx end line"' in plain(heard)
    for ch in "\u202e\u200b\u200d\u2066\u2069\ufeff\u00ad\u2028":
        assert ch not in heard

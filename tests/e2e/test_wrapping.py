"""Wrapped prose on a real screen (inetutils telnet in tmux): help and
`table rules` keep each paragraph whole with its hanging indent, and no label
is ever parted from its number ("net -17", "straight 0 -5", "lost 23")."""
from __future__ import annotations

import asyncio
import re

import pytest
from support.screen import CLIENTS, Screen, require_tools

FAST = {"commands_per_second": 1000}
SIGNED_START = re.compile(r"^\s*\(?[+-]\d")            # a line that starts with an amount
LABEL_END = re.compile(r"(\bnet|\bwon|\blost|\bstraight|\bstraight \d+|\bspin)$")


def block(lines: list[str], command: str, seen: int) -> list[str] | None:
    """The screen lines of the reply to the `seen`-th `command` typed, once
    its prompt has come (None before)."""
    at = [i for i, line in enumerate(lines) if line == f"> {command}"]
    if len(at) < seen:
        return None
    rest = lines[at[seen - 1] + 1:]
    end = next((i for i, line in enumerate(rest) if line.startswith(">")), None)
    return None if end is None else rest[:end]


async def typed(screen: Screen, command: str) -> list[str]:
    """Type `command`; its whole reply as the screen shows it."""
    seen = screen.lines().count(f"> {command}") + 1
    screen.type(command)
    for _ in range(200):
        reply = block(screen.lines(), command, seen)
        if reply is not None:
            return reply
        await asyncio.sleep(0.05)        # the client draws in its own time
    raise AssertionError(f"no reply to {command!r}:\n{screen.text()}")


def assert_filled(lines: list[str], width: int) -> None:
    """Greedy wrapping: a line continued on the next ("  " hang) could not
    have taken that line's first word."""
    for line, nxt in zip(lines, lines[1:]):
        if not line.strip() or line.endswith((".", ":")) or not nxt.startswith("  "):
            continue        # a paragraph's end, or items under a heading
        indent = len(line) - len(line.lstrip(" "))
        if indent != len(nxt) - len(nxt.lstrip(" ")) - 2:
            continue
        first = nxt.split()[0]
        assert len(line) + 1 + len(first) > width, f"ragged: {line!r} / {nxt!r}"


@pytest.fixture
async def screen(casino_factory):
    require_tools("tmux", "telnet")
    app = await casino_factory(seed=3, limits=FAST)
    s = Screen(CLIENTS["telnet"](app.port), width=80, height=60)
    await s.wait_for(r"^Name:")
    s.type("create wes secret123")
    await s.wait_for(r"^Exits: ")
    s.app = app
    yield s
    s.close()


async def test_help_and_rules_keep_each_paragraph_whole_at_80_columns(screen):
    pig = await typed(screen, "help pig")
    assert "  where the" not in pig and "  table has a stake, everyone antes it" not in " ".join(pig)
    assert any(line.startswith("  where the table has a stake") for line in pig), pig
    assert_filled(pig, 80)
    alley = await typed(screen, "help alley")
    assert not {"  point,", "  even money", "  is the point,"} & {line.strip() and line for line in alley}, alley
    assert_filled(alley, 80)
    await typed(screen, "north")
    assert any(line.startswith("You have the dice") for line in await typed(screen, "play craps"))
    rules = await typed(screen, "table rules")
    assert "  point," not in rules, rules
    assert any(line.startswith("  point, which must come again before a 7.") for line in rules), rules
    assert_filled(rules, 80)


async def test_a_label_keeps_its_number_at_40_columns(screen):
    screen.resize(40)
    for step in ("north", "east", "play roulette", "bet straight 0 5", "bet red 5", "bet odd 5", "bet 17 3",
                 "bet dozen 1 5", "bet corner 1 5"):
        await typed(screen, step)
    await typed(screen, "spin")
    screen.app.manager.tick_elapsed(100)         # the ball drops: game time moved by hand
    await screen.wait_for(r"net [+-]\d+\.", timeout=15)
    shown = screen.lines()
    lines = [line for line in shown[shown.index("> play roulette"):] if line and not line.startswith(">")]
    assert any(re.search(r"net [+-]\d+\.", line) for line in lines), lines
    assert not [line for line in lines if SIGNED_START.match(line)], lines
    assert not [line for line in lines if LABEL_END.search(line)], lines
    assert not [line for line in lines if line.rstrip().endswith(")") and re.search(r"\s\d+\)$", line)], lines

"""`help` over telnet: every word a player can type has an entry, each game's
help lists its bets with what they pay, and a table word is explained for
every game that has it."""
from __future__ import annotations

import re

import pytest
from support.telnet import login, plain

from server.commands.registry import REGISTRY
from server.games.catalogue import GAMES
from server.games.craps.parse import KIND_WORDS

FAST = {"commands_per_second": 1000}   # these tests type fast; the throttle is not under test


@pytest.fixture
async def casino(casino_factory):
    return await casino_factory(limits=FAST)


NO_HELP = re.compile(r"No help for")
RATIO = re.compile(r"\b\d+:\d+\b")


async def test_every_registered_word_and_game_word_has_help(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "hana")
    words = {w for c in REGISTRY.visible(False) for w in (c.name, *c.aliases)}
    words |= {w for e in GAMES for w in e.words} | {"create", "connect"}
    for word in sorted(words):
        out = plain(await a.cmd(f"help {word}"))
        assert not NO_HELP.search(out), word
        assert len(out.splitlines()) >= 2, word            # at least the entry and the prompt


async def test_create_and_connect_have_help_before_and_after_logging_in(casino, connect):
    a = await connect(ttype="dumb")
    await a.read_until_prompt()
    assert "create <name> <password>" in plain(await a.cmd("help create"))
    assert "connect <name> <password>" in plain(await a.cmd("help connect"))
    await a.cmd("create iris secret123")
    assert "make a new account" in plain(await a.cmd("help create"))
    assert "You are logged in as iris" in plain(await a.cmd("create bob secret123"))


async def test_a_table_word_is_explained_for_every_game_that_has_it(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "jade")
    out = plain(await a.cmd("help roll"))
    labels = [line.split(": roll - ")[0] for line in out.splitlines() if ": roll - " in line]
    for entry in GAMES:                   # a text games share is said once, naming them all (issue 38)
        if "roll" in entry.words:
            assert any(entry.title in label or entry.phrase in label for label in labels), entry.key
    out = plain(await a.cmd("help start"))
    assert "Alley craps: start - " in out and "Pig: start - " in out
    out = plain(await a.cmd("help pass"))                  # alley's word, and a bet at both crapses
    assert "Alley craps: pass - " in out
    assert re.search(r"Bank craps[^:\n]*: bet pass <n>", out) and "Simplified craps: bet pass <n>" in out
    listing = plain(await a.cmd("help"))
    for entry in GAMES:                                     # never one game's meaning for all
        assert f"{entry.title}: " + " ".join(entry.words) in listing


async def test_help_for_each_game_lists_its_bets_with_payouts(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "kira")
    for entry in GAMES:
        out = plain(await a.cmd(f"help {entry.word}"))
        assert "what they pay" in out, entry.key
        assert RATIO.search(out) or "pot" in out, entry.key
    craps = plain(await a.cmd("help craps"))
    for kind in KIND_WORDS:                                 # every bank craps bet kind, with a payout
        out = plain(await a.cmd(f"help {kind}"))
        assert re.search(r"Bank craps[^:\n]*: bet ", out) and (RATIO.search(out) or "pays as that bet" in out), kind
    for ratio in ("9:5", "7:6", "7:1", "9:1", "30:1", "15:1", "4:1", "34:1", "175:1", "999:1"):
        assert ratio in craps, ratio


async def test_help_on_an_unknown_word_suggests_the_nearest_topics(casino, connect):
    """Issue 28 item 4: `help <unknown>` names the nearest topics, games and bets too."""
    a = await connect(ttype="dumb")
    await login(a, "ursula")
    out = " ".join(plain(await a.cmd("help crapz")).split())
    assert "No help for 'crapz'. Nearest topics: 'help craps'" in out
    out = " ".join(plain(await a.cmd("help rolette")).split())
    assert "Nearest topics: 'help roulette'" in out
    out = " ".join(plain(await a.cmd("help xyzzy")).split())
    assert "No help for 'xyzzy'. 'help' lists every command and game." in out


async def test_help_craps_is_bank_craps_and_each_craps_game_has_its_own_page(casino, connect):
    """Issue 28 item 4: `help craps` covers bank craps only; each variant and
    the simplified table have a page of their own, which `help craps` names."""
    a = await connect(ttype="dumb")
    await login(a, "vera")
    craps = " ".join(plain(await a.cmd("help craps")).split())
    assert craps.startswith("Bank craps (") and "Simplified craps" not in craps
    assert "practice table" not in craps and "Crapless craps (" not in craps
    assert ("Other craps games have their own page: 'help simplified', 'help crapless', "
            "'help newyork', 'help diceless', 'help highpoint', 'help dierich'.") in craps
    simplified = " ".join(plain(await a.cmd("help simplified")).split())
    assert simplified.startswith("Simplified craps (") and "Bank craps" not in simplified
    assert "A classic-dice table (dice: classic) is a practice table" in simplified
    assert "'help craps'" in simplified                      # back to bank craps
    for word, title in (("crapless", "Crapless craps"), ("newyork", "New York craps"),
                        ("diceless", "Diceless craps"), ("bank", "Bank craps")):
        page = " ".join(plain(await a.cmd(f"help {word}")).split())
        assert page.startswith(f"{title} (") and "what they pay" in page, word
        assert all(f"{other} (" not in page for other in ("Simplified craps", "Bank craps")
                   if other != title), word
    listing = " ".join(plain(await a.cmd("help")).split())
    assert "(help simplified)" in listing and "(help craps)" in listing


async def test_help_craps_at_a_simplified_table_is_that_table_s_game(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "wynn")
    await a.cmd("south")                                     # the solo room: simplified tables
    await a.cmd_expect("play craps", "Seed")
    await a.cmd("")
    page = " ".join(plain(await a.cmd("help craps")).split())
    assert page.startswith("Simplified craps (") and "Bank craps (" not in page
    assert "'help craps'" in page

"""Screen-reader mode as a blind player's client hears it (issue 39).

A client whose MTTS has bit 64 (TinTin++ with `#config {screen reader} on`
sends MTTS 335) gets the mode with no command typed; then every game is
played and every common command typed at 80 and 40 columns, and what
arrives is measured: no box-drawing or block character, no decoration run,
no column padding, and symbols other than letters, digits and ordinary
punctuation under 5% of the text. The same round's GMCP data and words
agree, and espeak-ng (to a WAV file, timed with sox) speaks a bank-craps
round and a roulette spin in at most 60% of the drawn mode's time.
"""
from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import telnetlib3

from support.screen import CLIENTS, TINTIN, Screen, require_tools
from support.siblings import sibling
from support.telnet import Client, login, plain

gmcp = sibling("gmcp_helpers", Path(__file__).with_name("test_gmcp.py"))
ScriptingClient, command, packages, until = gmcp.ScriptingClient, gmcp.command, gmcp.packages, gmcp.until

FAST = {"commands_per_second": 1000}
READER = "MTTS 335"          # TinTin++'s third TTYPE with its screen-reader setting on
DRAWING = re.compile("[\u2500-\u25ff\u2680-\u2685]")
DECORATION = re.compile(r"([-=*_~#+|])\1{2,}")
PROMPTS = re.compile(r"^(> |Seed \(Enter to skip\): )+")    # a reply read after the prompt before it
TICK = "(the ball drops)"     # in WALK: the table clock moves on 5 s, and the spin is read
DEAL = "(the cards come out)"
DEALER = "(the dealer plays)"
WAITS = {TICK: (5, "Settlement, spin"), DEAL: (0.1, "the dealer shows"), DEALER: (5, "Settlement, round")}
ORDINARY = set(".,;:!?'\"()-/+%")

# Every game, and the commands a player types there (seed 5 makes every roll the same each run).
WALK: tuple[tuple[str, ...], ...] = (
    ("look", "set", "help", "help craps", "help screenreader", "who", "balance", "screenreader"),
    ("up", "play blackjack", "table", "bet 10", DEAL, "table", "hint", "hit", "stand", DEALER, "table", "table rules",
     "leave", "down"),
    ("north", "play craps", "table", "bet pass 10", "roll", "bet place 6 12", "bet field 5", "roll",
     "roll", "table", "bets", "table rules", "leave"),
    ("east", "play roulette", "table", "bet red 10", "bet 17 5", "bet dozen 2 5", "spin", TICK, "table", "leave", "west"),
    ("west", "play crapless", "bet field 5", "roll", "table", "leave",      # one-roll bets: 'leave' gets up
     "play diceless", "bet field 5", "roll", "table", "leave",
     "play dierich", "bet face 3 5", "roll", "table", "leave", "look slate", "east", "south"),
    ("west", "play pig", "start", "roll", "roll", "hold", "table", "leave", "east"),
    ("south", "play craps", "bet pass 10", "roll", "roll", "table", "leave", "north"),
    ("down", "play alley", "table", "leave", "up"),
    ("stats", "statement", "top", "who", "fair"),
)


def symbol_share(text: str) -> float:
    """Characters a screen reader names as symbols, as a share of what it reads."""
    said = [c for c in text if not c.isspace()]
    odd = [c for c in said if not (c.isalnum() or c in ORDINARY)]
    return len(odd) / max(1, len(said))


async def played(app, name: str, ttype: str, cols: int) -> str:
    """Everything one player reads walking every game of WALK, colour codes aside."""
    c = await Client.open(app.port, ttype=ttype, cols=cols)
    seen = [await login(c, name)]
    for room in WALK:
        for line in room:
            if line in WAITS:
                seconds, until = WAITS[line]
                app.manager.tick_elapsed(app.manager.seconds(seconds))
                seen.append(await c.read_until_text(until))
                continue
            seen.append(await c.cmd(line, timeout=15))
    await c.close()
    return plain("".join(seen))


@pytest.mark.parametrize("cols", [80, 40])
async def test_every_game_and_command_is_said_in_words(casino_factory, cols, tmp_path):
    app = await casino_factory(seed=5, limits=FAST)
    text = await played(app, "vera", READER, cols)
    (tmp_path / "heard.txt").write_text(text)          # to read when this fails
    assert "Screen reader mode is on; 'set screenreader off' for the drawn tables." in " ".join(text.split())
    lines = [PROMPTS.sub("", line) for line in text.replace("\r\n", "\n").split("\n")]
    lines = [line for line in lines if line.strip()]
    assert not [line for line in lines if DRAWING.search(line)]
    assert not [line for line in lines if DECORATION.search(line)]
    padded = [line for line in lines if "  " in line.strip()]
    assert not padded, padded[:5]
    assert all(len(line) <= cols for line in lines), [line for line in lines if len(line) > cols][:3]
    share = symbol_share(text)
    assert share < 0.05, share
    # it heard every game: dice in words, a pocket and its colour, the cards by name
    for said in ("Point: off.", "Your bets: 1) pass 10", "Last spins, newest first:", "of hearts",
                 "Round score:", "Alley craps at", "Bank craps:", "(you):"):
        assert said in " ".join(text.split()), said
    assert re.search(r"(One|Two|Three|Four|Five|Six) and (one|two|three|four|five|six), \w+\.", text)
    assert re.search(r"the dealer shows \w+ of \w+ and a card face down\.", " ".join(text.split()))
    assert re.search(r"^Settlement, round 1: dealer ", text.replace("\r\n", "\n"), re.M)
    assert "Table: blackjack, blackjack." in text and "<-" not in text       # no arrow marks a turn
    assert "Round 1: your turn (hand 1)." in " ".join(text.split())           # one's own turn as "your"
    assert not re.search(r"(won|lost) [+-]\d", text)                          # a word says the sign, not both
    assert "split, insurance n or no, hint, table rules, leave" in " ".join(text.split())   # a wrapped list keeps its commas
    assert re.search(r"Basic strategy: (hard|soft) \d+ against an? \w+: \w+", " ".join(text.split()))   # hint
    assert "screenreader on or off - words instead of drawings" in " ".join(text.split())   # its help
    assert "vera: The Lobby." in text                                  # who, one name a line
    assert re.search(r"^[+-]\d+, \w+: .+; \d\d:\d\d\.$", text.replace("\r\n", "\n"), re.M)   # statement: amount first
    # a roll ends with what it did to the player: no bets summary after the settlement
    assert not re.search(r"^Settlement: .*\n(Your bets|You have no bets)", text.replace("\r\n", "\n"), re.M)


async def test_the_drawn_mode_is_what_the_reader_mode_replaces(casino_factory):
    """The same walk in the drawn mode has the drawings the reader is spared (so
    the measure above could fail), and `set screenreader off` brings them back."""
    app = await casino_factory(seed=5, limits=FAST)
    drawn = await played(app, "walt", "xterm-256color", 80)
    assert DRAWING.search(drawn) and symbol_share(drawn) > 0.05
    c = await Client.open(app.port, ttype=READER, cols=80)
    await login(c, "vera")
    assert "Screen reader mode is on: tables" in plain(await c.cmd("set screenreader on"))
    assert "screenreader is now off." in await c.cmd("set screenreader off")
    await c.cmd("north")
    assert DRAWING.search(await c.cmd("table"))
    assert "Screen reader mode is off" in await c.cmd("screenreader")
    await c.close()
    c = await Client.open(app.port, ttype=READER, cols=80)
    assert "Screen reader mode is on" not in await login(c, "vera", create=False)   # the choice is kept
    await c.close()


async def test_the_rolls_gmcp_data_and_its_words_agree(casino_factory):
    app = await casino_factory(seed=11, limits=FAST)
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", app.port, client_factory=ScriptingClient, connect_minwait=0.05,
        connect_maxwait=1.0, encoding="utf8", term=READER)
    client = writer.protocol
    words = "zero one two three four five six seven eight nine ten eleven twelve".split()
    try:
        await until(reader, "Name:")
        await command(reader, writer, "create gina secret123", "Exits:")
        await command(reader, writer, "north", "Exits:")
        await command(reader, writer, "play craps")
        await command(reader, writer, "bet pass 10")
        for _ in range(3):
            said = await command(reader, writer, "roll")
            await asyncio.sleep(0)          # the data that follows the text
            roll = packages(client, "Casino.Roll")[-1]
            d1, d2 = roll["dice"]
            assert f"{words[d1].capitalize()} and {words[d2]}, {words[d1 + d2]}." in said, said
            assert not DRAWING.search(said)
    finally:
        writer.close()


def speaking_seconds(text: str, tmp_path, name: str) -> float:
    """How long espeak-ng takes to say `text` (its WAV file's length, by sox)."""
    wav = tmp_path / f"{name}.wav"
    subprocess.run(["espeak-ng", "-w", str(wav), "--stdin"], input=text.encode(), check=True)
    return float(subprocess.run(["soxi", "-D", str(wav)], capture_output=True, text=True, check=True).stdout)


SEATS = ("north", "play craps")
CRAPS_ROUND = ("table", "bet pass 10", "bet field 5", "roll", "roll", "table")
SPIN = ("leave", "east", "play roulette")
ROULETTE_ROUND = ("table", "bet red 10", "bet 17 5", "spin")


async def heard_round(casino_factory, name: str, ttype: str) -> str:
    """What one player hears of a bank-craps round and a roulette spin (the
    walk and the sitting down not counted), on a casino of its own with seed 5
    (so both modes hear the same dice)."""
    app = await casino_factory(seed=5, limits=FAST)
    c = await Client.open(app.port, ttype=ttype, cols=80)
    await login(c, name)
    for line in SEATS:
        await c.cmd(line)
    heard = [await c.cmd(line) for line in CRAPS_ROUND]
    for line in SPIN:
        await c.cmd(line)
    heard += [await c.cmd(line) for line in ROULETTE_ROUND]
    app.manager.tick_elapsed(app.manager.seconds(5))       # the ball drops
    heard.append(await c.read_until_text("Settlement, spin"))
    heard.append(await c.cmd("table"))
    await c.close()
    await app.stop()            # the next mode's casino opens the same database
    return plain("".join(heard))


async def test_a_reader_hears_a_round_and_a_spin_in_at_most_60_percent_of_the_time(casino_factory, tmp_path):
    if not (shutil.which("espeak-ng") and shutil.which("soxi")):
        pytest.fail("espeak-ng and sox are test packages (.ci/test-packages): run make test-packages")
    heard = {mode: await heard_round(casino_factory, f"ear{mode}", ttype)
             for mode, ttype in (("drawn", "xterm-256color"), ("reader", READER))}
    assert "Spin 1:" in heard["reader"] and "Spin 1:" in heard["drawn"]
    assert re.findall(r"Settlement.*", heard["reader"]) == re.findall(r"Settlement.*", heard["drawn"])
    drawn = speaking_seconds(heard["drawn"], tmp_path, "drawn")
    reader = speaking_seconds(heard["reader"], tmp_path, "reader")
    (tmp_path / "drawn.txt").write_text(heard["drawn"])
    (tmp_path / "reader.txt").write_text(heard["reader"])
    assert reader <= 0.6 * drawn, (reader, drawn)


async def test_tintin_with_its_screen_reader_setting_gets_the_mode_unasked(casino_factory):
    require_tools("tmux", "tt++")
    app = await casino_factory(seed=5, limits=FAST)
    command_line = CLIENTS["tintin"](app.port).replace("-e '", "-e '#config {screen reader} on;")
    assert TINTIN and "#config {screen reader} on;#session" in command_line
    screen = Screen(command_line, width=80)
    try:
        await screen.create_account("tess", until=r"Screen reader mode is on")
        screen.type("north")
        await screen.wait_for(r"^Exits: east, west, south")
        screen.type("table")
        await screen.wait_for(r"^Point: off\.")
        assert not DRAWING.search(screen.text())
    finally:
        screen.close()

"""Wrapped lines keep the hanging indent of their block (issue 38 item 14):
every table's `table rules`, alley craps' `table` and roulette's `table`,
read over real telnet at 80, 60 and 40 columns.

A paragraph is what a 250-column screen shows on one line. At a narrower
width it must come back as its first line at the paragraph's own indent,
then continuation lines two columns deeper, with the same words in order:
no continuation flush left, none deeper than its neighbours."""
from __future__ import annotations

from support.telnet import Client, login, plain

WIDTHS = (80, 60, 40)
WIDE = 250
# room path from the lobby -> the tables' words there
TABLES = {("north",): ("craps",), ("north", "west"): ("crapless", "newyork", "diceless", "highpoint", "dierich"),
          ("north", "east"): ("roulette",), ("down",): ("alley",), ("west",): ("pig",),
          ("south",): ("craps", "classic_craps")}


def indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def reply(out: str) -> list[str]:
    """The reply's lines, without the prompt and the echo of nothing."""
    lines = [line.removeprefix("> ").rstrip() for line in plain(out).replace("\r", "").split("\n")]
    return [line for line in lines if line.strip() and line.strip() != ">"]


def joined(wide: list[str]) -> list[str]:
    """The paragraphs of a 250-column screen: a line two columns deeper right
    after a full one (one of more than 250 columns) continues it."""
    out: list[str] = []
    for line in wide:
        if out and len(out[-1].split("\n")[-1]) > WIDE - 30 and indent(line) == indent(out[-1]) + 2:
            out[-1] += "\n" + line
        else:
            out.append(line)
    return [" " * indent(p) + " ".join(p.split()) for p in out]


def check_hanging(paragraphs: list[str], shown: list[str], width: int) -> None:
    """`shown` (at `width`) is `paragraphs` (one a line) each wrapped with a
    hanging indent of two more columns than its first line."""
    at = 0
    for paragraph in paragraphs:
        first = shown[at]
        assert indent(first) == indent(paragraph), (width, paragraph, first)
        words, at = first.split(), at + 1
        while len(words) < len(paragraph.split()):
            line = shown[at]
            assert indent(line) == indent(paragraph) + 2, (width, paragraph, line)
            words += line.split()
            at += 1
        assert words == paragraph.split(), (width, paragraph, words)
    assert at == len(shown), (width, shown[at:])
    assert all(len(line) <= width for line in shown), (width, shown)


async def walker(app) -> Client:
    c = await Client.open(app.port, ttype="dumb", cols=80)
    await login(c, "wanda")
    return c


async def test_every_tables_rules_keep_their_hanging_indent(casino_factory):
    app = await casino_factory(seed=7, limits={"commands_per_second": 1000})
    c = await walker(app)
    for path, words in TABLES.items():
        for step in path:
            await c.cmd(step)
        for word in words:
            await c.cmd(f"set width {WIDE}")
            paragraphs = joined(reply(await c.cmd(f"table {word} rules")))
            assert len(paragraphs) >= 3, (word, paragraphs)
            for width in WIDTHS:
                await c.cmd(f"set width {width}")
                check_hanging(paragraphs, reply(await c.cmd(f"table {word} rules")), width)
        await c.cmd("set width 80")
        for step in reversed(path):
            await c.cmd({"north": "south", "south": "north", "east": "west", "west": "east",
                         "up": "down", "down": "up"}[step])


async def test_die_rich_rules_read_as_one_pass_paragraph_at_40_columns(casino_factory):
    """The case the issue saw: Die Rich's rule for the point is one block at 40
    columns, its continuation two columns in, the fourth roll's 2:1 kept in it."""
    app = await casino_factory(seed=7, limits={"commands_per_second": 1000})
    c = await walker(app)
    await c.cmd("north")
    await c.cmd("west")
    await c.cmd("set width 40")
    shown = reply(await c.cmd("table dierich rules"))
    start = next(i for i, line in enumerate(shown) if line.startswith("The shooter then"))
    end = next(i for i, line in enumerate(shown) if line.startswith("Face:"))
    block = shown[start + 1:end]
    assert block and all(indent(line) == 2 for line in block), shown
    assert "on the fourth 2:1; a 1 loses" in " ".join(" ".join(shown[start:end]).split())


async def test_alley_and_roulette_tables_wrap_with_a_hanging_indent(casino_factory):
    """Alley craps' `table` and roulette's (its narrow board at 40 columns):
    the text under the art wraps two columns in, never flush left."""
    app = await casino_factory(seed=7, limits={"commands_per_second": 1000})
    ann = await walker(app)
    bob = await Client.open(app.port, ttype="dumb")
    await login(bob, "bob")
    for c in (ann, bob):
        await c.cmd("down")
        await c.cmd_expect("play alley", "sits down")
    heads = ("Alley craps at ", "No game is running.", "Commands: ")
    for width in WIDTHS:
        await ann.cmd(f"set width {width}")
        shown = reply(await ann.cmd_expect("table", "Alley craps at"))
        shown = shown[next(i for i, line in enumerate(shown) if line.startswith(heads[0])):]
        assert [line for line in shown if not line.startswith(heads + ("  ",))] == [], (width, shown)
        assert all(len(line) <= width for line in shown), (width, shown)
        assert sum(line.startswith(heads) for line in shown) == 3, (width, shown)
    await ann.cmd("leave")
    for step in ("up", "north", "east"):
        await ann.cmd(step)
    await ann.cmd_expect("play roulette", "sits down")
    await ann.cmd_expect("bet red 5", "Your bets")
    heads = ("Last 20:", "Spin 1:", "Seated:", "Your bets:", "Fair:", "Commands:")
    for width in WIDTHS:
        await ann.cmd(f"set width {width}")
        shown = reply(await ann.cmd("table"))
        text = shown[next(i for i, line in enumerate(shown) if line.startswith("Last 20:")):]
        assert [line for line in text if not line.startswith(heads + ("  ",))] == [], (width, text)
        assert all(len(line) <= width for line in shown), (width, shown)
        assert "Alone at the wheel, 'spin' when you are ready." in " ".join(" ".join(text).split())

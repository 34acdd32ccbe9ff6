"""Spec 002's runs, reproduced over telnet at the shipped classic-dice table.

Each run below is quoted from spec 002 (its prompts for typed amounts left
out: here they are `bet pass <n>` and `odds <n>`), and played at
classic_craps after `seed msvc <n>` ("on Windows PC") or `seed mac <n>` ("on
Mac"). The table speaks in the casino's one voice ("You rolled 3 and 1: 4.",
"You won 10 (point made, 4) on the pass line."), not 002's (issue 38, item
9); what must be exact is the run: told back in 002's words (`in_002s_words`),
the table's lines must read 002's text roll for roll, every amount included.
A classic table moves no chips: the ledger wallet stays at 1000 throughout,
and the practice bankroll counts the bets.
"""
from __future__ import annotations

import re

import pytest

from support.telnet import login, plain

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

# The table's lines that tell a run: the rolls, the point, the decision and what each part won.
FACTS = re.compile(
    r"You rolled (?P<d1>\d) and (?P<d2>\d): (?P<total>\d+)\."
    r"|The point is (?P<point>\d+)\."
    r"|You (?P<result>won|lost) (?P<net>[\d,]+) \((?P<how>[a-z ]+), \d+\) on the pass line\."
    r"|The pass line won (?P<flat_win>[\d,]+) and the odds won (?P<odds_win>[\d,]+)\.")

# How 002 says each decision.
SAYS_002 = {("won", "natural"): "You won! Congratulations!", ("lost", "craps"): "Craps! You lost!",
            ("won", "point made"): "The point was made! You won!", ("lost", "seven out"): "Seven'd out! You lost!"}


def in_002s_words(seen: str, flat: int, odds: int, amounts: bool = True) -> str:
    """The run the table told, in 002's words: its money in dollars, a win with
    the stakes included ("You won $20.00" for a 10 that won 10)."""
    said: list[str] = []
    for m in FACTS.finditer(seen):
        if m["d1"]:
            said.append(f"Roll: {m['d1']} + {m['d2']} = {m['total']}")
        elif m["point"]:
            said.append(f"The point is {m['point']}")
        elif m["result"]:
            said.append(SAYS_002[(m["result"], m["how"])])
            net = int(m["net"].replace(",", ""))
            if amounts:
                said.append(f"You {m['result']} ${net + flat + odds if m['result'] == 'won' else net:,}.00")
        elif amounts:                   # 002 prints the parts before the whole
            parts = f"Pass Line Win: ${flat + int(m['flat_win']):,}.00 Odds Payout: ${odds + int(m['odds_win']):,}.00"
            said.insert(len(said) - 1, parts)
    return " ".join(said)


def squeeze(text: str) -> str:
    """002's text lost its line breaks ("= 12Roll:", "6+ 6"): compare without spaces."""
    return re.sub(r"\s+", "", text)


# (program, seed, flat bet, odds typed (None: none), 002's text of the run)
PLAIN_RUNS = [
    ("msvc", 11, "Roll: 3 + 1 = 4 The point is 4 Roll: 5 + 4 = 9 Roll: 6 + 6 = 12Roll: 1 + 2 = 3 Roll: 3 + 2 = 5 "
                 "Roll: 3 + 2 = 5 Roll: 1 + 1 = 2Roll: 6 + 1 = 7 Seven'd out! You lost!"),
    ("msvc", 14, "Roll: 1 + 6 = 7 You won! Congratulations!"),
    ("msvc", 22, "Roll: 3 + 1 = 4 The point is 4 Roll: 5 + 1 = 6 Roll: 4 + 4 = 8Roll: 6 + 6 = 12 Roll: 4 + 4 = 8 "
                 "Roll: 2 + 1 = 3 Roll: 5 + 1 = 6Roll: 2 + 4 = 6 Roll: 3 + 5 = 8 Roll: 5 + 3 = 8 Roll: 2 + 1 = 3"
                 "Roll: 2 + 2 = 4 The point was made! You won!"),
    ("msvc", 1, "Roll: 6 + 6 = 12 Craps! You lost!"),
    ("mac", 11, "Roll: 6 + 5 = 11 You won! Congratulations!"),
    ("mac", 22, "Roll: 5 + 3 = 8 The point is 8 Roll: 5 + 5 = 10 Roll: 6 + 5 = 11Roll: 6 + 1 = 7 "
                "Seven'd out! You lost!"),
    ("mac", 1, "Roll: 2 + 2 = 4 The point is 4 Roll: 6 + 3 = 9 Roll: 5 + 3 = 8Roll: 1 + 3 = 4 "
               "The point was made! You won!"),
    ("mac", 5, "Roll: 6 + 6 = 12 Craps! You lost!"),
]

# The extra-credit runs whose rolls 002 shows, with their wagers (and odds).
WAGER_RUNS = [
    # Extra Credit 1 Output 1 using srand(11); on Windows PC - wager 10.00
    ("msvc", 11, "10.00", None,
     "Roll: 3 + 1 = 4 The point is 4 Roll: 5 + 4 = 9 Roll: 6+ 6 = 12 Roll: 1 + 2 = 3 Roll: 3 + 2 = 5 "
     "Roll: 3 + 2 = 5 Roll: 1 +1 = 2 Roll: 6 + 1 = 7 Seven'd out! You lost! You lost $10.00"),
    # Extra Credit 1 Output 2 using srand(22); on Windows PC - wager 10.00
    ("msvc", 22, "10.00", None,
     "Roll: 3 + 1 = 4 The point is 4 Roll: 5 + 1 = 6 Roll: 4+ 4 = 8 Roll: 6 + 6 = 12 Roll: 4 + 4 = 8 "
     "Roll: 2 + 1 = 3 Roll: 5 +1 = 6 Roll: 2 + 4 = 6 Roll: 3 + 5 = 8 Roll: 5 + 3 = 8 Roll: 2 + 1 =3 "
     "Roll: 2 + 2 = 4 The point was made! You won! You won $20.00"),
    # Extra Credit 1 Output 3 using srand(15); on Windows PC - 2.50 and 1.00 refused, 5.36 -> 5
    ("msvc", 15, "5.36", None,
     "Roll: 4 + 6 = 10 The point is 10Roll: 3 + 5 = 8 Roll: 6 + 3 = 9 Roll: 1 + 1 = 2 Roll: 3 + 4 = 7"
     "Seven'd out! You lost! You lost $5.00"),
    # Extra Credit 1 Output 1 using srand(1); on Mac - wager 5.00
    ("mac", 1, "5.00", None,
     "Roll: 2 + 2 = 4 The point is 4 Roll: 6 + 3 = 9 Roll: 5+ 3 = 8 Roll: 1 + 3 = 4 The point was made! "
     "You won! You won$10.00"),
    # Extra Credit 1 Output 2 using srand(5); on Mac - wager 5
    ("mac", 5, "5", None, "Roll: 6 + 6 = 12 Craps! You lost! You lost $5.00"),
    # Extra Credit 1 Output 3 using srand(22); on Mac - wager 5.00
    ("mac", 22, "5.00", None,
     "Roll: 5 + 3 = 8 The point is 8 Roll: 5 + 5 = 10 Roll: 6+ 5 = 11 Roll: 6 + 1 = 7 Seven'd out! "
     "You lost! You lost $5.00"),
    # Extra Credit 2 Output 1 using srand(22); on Windows PC - wager 10.00, odds 30.00
    ("msvc", 22, "10.00", "30.00",
     "Roll: 3 + 1 = 4 The point is 4 Roll: 5 + 1 = 6 Roll: 4 + 4 = 8 Roll: 6+ 6 = 12 Roll: 4 + 4 = 8 "
     "Roll: 2 + 1 = 3 Roll: 5 + 1 = 6 Roll: 2 +4 = 6 Roll: 3 + 5 = 8 Roll: 5 + 3 = 8 Roll: 2 + 1 = 3 "
     "Roll: 2 + 2 =4 The point was made! You won! Pass Line Win: $20.00 Odds Payout:$90.00 You won $110.00"),
    # Extra Credit 2 Output 2 using srand(4); on Windows PC - wager 5.00, odds 1.25 refused, 10.36 -> 10
    ("msvc", 4, "5.00", "10.36",
     "Roll: 4 + 6 = 10 The point is 10 Roll: 4 + 3 = 7 Seven'd out! You lost! You lost $15.00"),
    # Extra Credit 2 Output 1 using srand(1); on Mac - wager 5.00, odds 10.00
    ("mac", 1, "5.00", "10.00",
     "Roll: 2 + 2 = 4 The point is 4 Roll: 6 + 3 = 9 Roll: 5 + 3 = 8 Roll: 1+ 3 = 4 The point was made! "
     "You won! Pass Line Win: $10.00 OddsPayout: $30.00 You won $40.00"),
]


async def sit_at_classic(connect, name):
    a = await connect(ttype="dumb")
    await login(a, name)
    await a.cmd("south")
    out = plain(await a.cmd("play classic_craps"))
    assert "You sit down at classic_craps, a practice table with classic dice" in out
    return a, out


async def play_run(a, program, seed, wager, odds=None):
    """Seed, bet, take odds once the point is set, roll the game out: every line seen."""
    seen = plain(await a.cmd(f"seed {program} {seed}"))
    assert f"Seeded: {program} {seed}, as " in seen
    seen += plain(await a.cmd(f"bet pass {wager}"))
    for _ in range(100):
        out = plain(await a.cmd("roll"))
        seen += out
        if odds is not None and "The point is" in out:
            if odds == "10.36":         # 002: "1.25 You can't bet $1.25. The minimum bet is 5.00."
                assert "minimum bet is 5" in plain(await a.cmd("odds 1.25"))
            out = plain(await a.cmd(f"odds {odds}"))
            seen += out
        if "Practice bankroll:" in out:
            return seen
    raise AssertionError(seen)


@pytest.mark.parametrize("program,seed,text", PLAIN_RUNS, ids=[f"{p}-{s}" for p, s, _ in PLAIN_RUNS])
async def test_002_plain_runs_roll_for_roll(casino, connect, program, seed, text):
    a, _ = await sit_at_classic(connect, f"p{program}{seed}")
    seen = await play_run(a, program, seed, "5")
    assert squeeze(in_002s_words(seen, 5, 0, amounts=False)) == squeeze(text)
    assert "You rolled " in seen and "Wallet: 1000 chips." in plain(await a.cmd("balance"))


@pytest.mark.parametrize("program,seed,wager,odds,text", WAGER_RUNS,
                         ids=[f"{p}-{s}-{w}-{o}" for p, s, w, o, _ in WAGER_RUNS])
async def test_002_extra_credit_runs_with_wagers_and_odds(casino, connect, program, seed, wager, odds, text):
    a, _ = await sit_at_classic(connect, f"w{program}{seed}{'o' if odds else ''}")
    if wager == "5.36":                 # 002: 2.50 and 1.00 refused, then 5.36 with 0.36 back
        assert "You can't bet 2.50: the minimum bet is 5." in plain(await a.cmd("bet pass 2.50"))
        assert "You can't bet 1: the minimum bet is 5." in plain(await a.cmd("bet pass 1.00"))
    seen = await play_run(a, program, seed, wager, odds)
    flat, taken = int(float(wager)), int(float(odds)) if odds else 0
    assert squeeze(in_002s_words(seen, flat, taken)) == squeeze(text)
    assert "$" not in seen and "Roll:" not in seen            # the casino's voice, not 002's
    if wager == "5.36":
        assert "0.36 returned, your wager is 5" in seen
    if odds == "10.36":
        assert "0.36 returned, your odds bet is 10" in seen
    # The practice bankroll moved by the game; the wallet in the ledger did not.
    won = re.search(r"You (won|lost) ([\d,]+) \(", seen)
    expected = 1000 + (int(won.group(2)) if won.group(1) == "won" else -int(won.group(2)))
    assert f"Practice bankroll: {expected:,}" in seen
    assert "Wallet: 1000 chips." in plain(await a.cmd("balance"))


async def test_a_practice_table_says_so_and_never_touches_the_ledger(casino, connect):
    a, sat = await sit_at_classic(connect, "prac")
    assert "predictable by design, so no chips move here: you play a practice bankroll of 1,000" in sat
    assert "seed msvc <n>, seed mac <n> or seed glibc <n>" in sat
    assert not sat.endswith("Seed (Enter to skip): ")         # no seed question: `seed` seeds once
    table = " ".join(plain(await a.cmd("table")).split())
    assert "Classic dice" in table and "no chips move" in table and "Practice bankroll: 1,000." in table
    assert "no seed yet" in table
    helped = " ".join(plain(await a.cmd("help craps")).split())
    assert "A classic-dice table (dice: classic) is a practice table" in helped
    assert "no chips move" in helped
    rules = " ".join(plain(await a.cmd("table rules")).split())
    assert "Predictable by design, so no chips move" in rules
    await a.cmd("bet pass 100")
    assert "Classic dice need a seed first: seed msvc <n>" in plain(await a.cmd("roll"))
    assert "Classic dice take seed msvc <n>" in plain(await a.cmd("seed lucky 7"))
    assert "Seeded: glibc 42, as srandom(42) on" in plain(await a.cmd("seed glibc 42"))
    out = plain(await a.cmd("roll"))
    # glibc 2.36, srandom(42): random() % 6 + 1 = 1 and 1 (tests/dice/test_classic.py): craps
    assert "srandom(42) on Linux" in out and "You rolled 1 and 1: 2." in out
    assert "You lost 100 (craps, 2) on the pass line." in out
    assert "Practice bankroll: 900" in out and "Wallet:" not in out
    fair = plain(await a.cmd("fair"))
    assert "not fair, predictable by design" in fair and "commitment" not in fair
    assert "Seeded with glibc 42: srandom(42)" in fair
    bal = await casino.ledger.balance("prac")
    assert bal.wallet == 1000 and not any(bal.held.values())
    assert "Held at" not in plain(await a.cmd("balance"))
    await a.cmd("bet pass 50")
    assert "You leave the table." in plain(await a.cmd("leave"))   # practice chips hold nobody
    assert (await casino.ledger.balance("prac")).wallet == 1000


async def test_the_docs_replay_of_002_is_what_the_table_prints(casino, connect):
    """docs/play-simplified-craps.md's classic example: every line it shows the
    table printing (not the `>` lines typed, nor the `...` it skips) is printed."""
    from pathlib import Path
    doc = (Path(__file__).resolve().parents[2] / "docs" / "play-simplified-craps.md").read_text()
    block = doc.split("## Classic dice")[1].split("```")[1]
    shown = [line for line in block.splitlines()[1:] if line and not line.startswith((">", "..."))]
    a, sat = await sit_at_classic(connect, "docs")
    seen = sat + await play_run(a, "msvc", 22, "10", "30")
    printed = {line.removeprefix("> ") for line in seen.splitlines()}    # replies follow the last prompt
    assert shown and [line for line in shown if line not in printed] == []


async def test_look_tells_how_to_sit_at_each_of_two_tables_of_one_game(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "twin")
    look = " ".join(plain(await a.cmd("south")).split())
    assert "(simple_craps): 'play craps' to sit." in look      # the room's first craps table
    assert "(classic_craps): 'play classic_craps' to sit." in look
    assert "You sit down at classic_craps" in plain(await a.cmd("play classic_craps"))


async def test_two_tables_of_one_game_are_named_apart_by_fair_and_a_full_table(casino, connect):
    """In the solo room `fair` asks which table by the words that sit there,
    and a full practice table suggests watching it by its own word."""
    a, _ = await sit_at_classic(connect, "solo")
    b = await connect(ttype="dumb")
    await login(b, "duo")
    await b.cmd("south")
    assert "Which game? craps, classic_craps" in plain(await b.cmd("fair"))
    assert "Try 'watch classic_craps'." in " ".join(plain(await b.cmd("play classic_craps")).split())

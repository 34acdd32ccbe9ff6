"""The words of the Quiet Table (issue 38, item 14): what a player reads at
simplified craps and at the practice table with classic dice says what a
player understands - no spec numbers, no backticks, the classic table named
as what it is, and `collect` saying the chips are in the wallet already."""
from __future__ import annotations

from support.telnet import Client, login, plain


def words(text: str) -> str:
    """The reply as one line: wrapping is not what these tests read."""
    return " ".join(plain(text).split())


async def test_the_quiet_table_names_its_two_tables_as_what_they_are(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "lamp")
    look = words(await a.cmd("south"))
    assert "A simplified craps table is here (simple_craps): 'play craps' to sit." in look
    assert ("A practice craps table with classic dice is here (classic_craps): "
            "'play classic_craps' to sit.") in look
    assert "A simplified craps table is here (classic_craps)" not in look


async def test_the_classic_table_speaks_without_spec_numbers_or_backticks(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "reader")
    await a.cmd("south")
    seen = [await a.cmd("play classic_craps")]
    sat = words(seen[0])
    assert "(for example: seed msvc 22)" in sat
    await a.cmd("bet pass 10")
    seen.append(await a.cmd("roll"))
    assert "Classic dice need a seed first: seed msvc <n>, seed mac <n> or seed glibc <n> " \
           "(for example: seed msvc 22)." in words(seen[-1])
    seen.append(await a.cmd("seed lucky 7"))
    assert "(for example: seed msvc 22)" in words(seen[-1])
    for line in ("help simplified", "help craps", "table", "table rules", "fair", "help seed", "help collect"):
        seen.append(await a.cmd(line))
    said = words("".join(seen))
    assert "002" not in said and "spec" not in said.lower()
    assert "`" not in said


async def test_collect_at_the_classic_table_keeps_the_chips_in_the_practice_bankroll(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "keeper")
    await a.cmd("south")
    await a.cmd("play classic_craps")
    await a.cmd("seed msvc 14")                 # 002's run: 1 + 6 = 7, a natural
    await a.cmd("bet pass 10")
    won = words(await a.cmd("roll"))
    assert "You won 10 (natural, 7) on the pass line." in won and "Type 'ride' to bet 20 again, 'collect'" in won
    out = words(await a.cmd("collect"))
    assert "Your 20 chips stay in your practice bankroll, where the win already put them" in out
    assert "collected" not in out


async def test_collect_says_the_chips_are_in_the_wallet_already(casino_factory):
    app = await casino_factory(seed=11, limits={"commands_per_second": 1000})   # fixed dice, many rolls
    a = await Client.open(app.port, ttype="dumb")
    await login(a, "saver")
    await a.cmd("south")
    seen = [await a.cmd("play craps")]
    for _ in range(60):                              # games until one is won
        seen.append(await a.cmd("bet pass 10"))
        out = ""
        for _ in range(200):
            out = await a.cmd("roll")
            seen.append(out)
            if "Wallet:" in out:                     # the game is decided
                break
        if "Type 'ride'" in out:
            break
    else:
        raise AssertionError("no game was won")
    paid = int(words(out).split("Type 'ride' to bet ")[1].split()[0])
    wallet = words(await a.cmd("balance"))
    out = words(await a.cmd("collect"))
    assert f"Your {paid} chips stay in your wallet, where the win already put them; nothing rides." in out
    assert "collected" not in out
    assert wallet.split("Wallet: ")[1].split()[0] in words(await a.cmd("balance"))   # collect moved nothing
    for line in ("table", "table rules", "help simplified", "fair", "help collect", "help ride"):
        seen.append(await a.cmd(line))
    said = words("".join(seen))
    assert "`" not in said and "002" not in said


async def test_classic_dice_speak_in_the_casinos_voice_with_the_c_programs_numbers(casino_factory):
    """Issue 38, item 9: 002's run 3 (srand(22) on Windows) reads as any roll
    in the casino reads - the dice drawn, "You rolled", a full stop, a line
    for a roll that decides nothing, winnings in chips as simplified craps
    counts them (what was won, not the stake with it) - and its rolls are
    still the C program's."""
    app = await casino_factory(limits={"commands_per_second": 1000})
    a = await Client.open(app.port, ttype="dumb")
    await login(a, "voice")
    await a.cmd("south")
    await a.cmd("play classic_craps")
    await a.cmd("seed msvc 22")
    await a.cmd("bet pass 10")
    first = plain(await a.cmd("roll"))
    assert "+-------+" in first                                   # the dice, drawn
    assert "You rolled 3 and 1: 4.\r\n" in first and "The point is 4." in first
    second = plain(await a.cmd("roll"))
    assert "You rolled 5 and 1: 6." in second
    assert "No decision; the point is still 4. Roll again." in second
    seen = first + second
    for _ in range(20):
        out = plain(await a.cmd("roll"))
        seen += out
        if "Practice bankroll:" in out:
            break
    assert "You rolled 2 and 2: 4." in out
    assert "You won 10 (point made, 4) on the pass line." in out
    assert "Type 'ride' to bet 20 again" in out and "Practice bankroll: 1,010" in out
    assert "$" not in seen and "Roll:" not in seen and "Congratulations" not in seen

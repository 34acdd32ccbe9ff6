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
    assert "You won! Congratulations!" in won and "Type 'ride' to bet 20 again, 'collect'" in won
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

"""Issue 38 item 2: at an alley craps table between games, a refused `roll`
or `bet 10` is answered to the one who typed it, not to the whole table.

Before, the reminder "Seated: ... Anyone seated can type 'start' to begin."
that follows "No game is running." was addressed to everyone, so every
refused command of one player landed on every other seated player's screen.
"""
from __future__ import annotations

from support.telnet import Client, login, plain

FAST = {"commands_per_second": 1000}
HINT = "Anyone seated can type 'start' to begin."


class Player:
    def __init__(self, name: str, client: Client) -> None:
        self.name, self.client, self.seen = name, client, ""

    async def until(self, phrase: str, count: int = 1) -> None:
        while self.seen.count(phrase) < count:
            self.seen += plain(await self.client.read_until_prompt())

    async def do(self, line: str, phrase: str) -> str:
        """Send `line`; return what arrived until `phrase` came once more."""
        start, want = len(self.seen), self.seen.count(phrase) + 1
        await self.client.send(line)
        await self.until(phrase, want)
        return self.seen[start:]


async def arrive(app, name: str) -> Player:
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    p = Player(name, c)
    await p.do("down", "Back Alley")
    await p.do("play alley", "sits down at the alley craps table")
    return p


async def test_a_refused_command_after_a_game_is_told_to_its_typer_only(casino_factory):
    app = await casino_factory(seed=6006, limits=FAST)
    host = app.tables["alley_craps"]
    ann = await arrive(app, "ann")
    bob = await arrive(app, "bob")
    await bob.do("start", "total game money")
    cat = await arrive(app, "cat")                 # waits for the next game
    await bob.do("leave", "You leave")             # ann is the last with money: the game ends
    await host.idle()
    assert host.dealer.engine is None and host.dealer.last_result is not None
    ended = f"Seated: ann, cat. {HINT}"            # the table's news when the game ends: for everyone
    await ann.until(ended)
    await cat.until(ended)
    ann_mark = len(ann.seen)

    out = await cat.do("roll", HINT)
    assert "No game is running." in out and ended in out
    out = await cat.do("bet 10", HINT)
    assert "No game is running." in out and ended in out
    await host.idle()

    view = await ann.do("table", "Commands:")      # what the table sent ann before this has arrived
    since = ann.seen[ann_mark:]                     # (the reads may have caught it up in `view`)
    assert "No game is running." in view            # ann's own `table` answer, read to its end
    assert HINT not in since, since
    assert since.count("Seated:") == 1, since       # the one in ann's `table` view
    for p in (ann, bob, cat):
        await p.client.close()

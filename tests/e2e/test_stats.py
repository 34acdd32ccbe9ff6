"""`stats` over telnet (issue 31): random sessions at every game that moves
chips, then every money figure `stats` prints, per game and in total, must
equal what the player's own `statement` says happened; time at the tables
counts the casino's ticks while seated and survives a restart; another
player's stats, bad input, the narrow screens; GMCP Char.Stats."""
from __future__ import annotations

import asyncio
import dataclasses
import random
import re

import pytest
import telnetlib3
from support.telnet import Client, login, plain

from server.commands.stats import duration
from server.render.width import display_width

pytestmark = pytest.mark.both_stores      # the same play, on SQLite and on PostgreSQL

FAST = {"commands_per_second": 1000}
MEMO = re.compile(r"^\s+\S+ \S+\s+([+-]\d+)\s+(\w+): (.*)$")
TITLES = {"bank_craps": "Bank craps", "roulette": "Single-zero roulette", "simple_craps": "Simplified craps",
          "crapless_craps": "Crapless craps"}


def expected_from_statement(text: str) -> dict[str, dict[str, int]]:
    """Each table's figures, and the total, worked out from `statement`'s lines alone."""
    # a movement wrapped at 80 columns continues under a hanging indent: one line again
    text = re.sub(r"\n {4,}", " ", plain(text).replace("\r", "").replace("\xa0", " "))
    rows = [MEMO.match(line) for line in text.split("\n")]
    rounds = []                                   # (table, staked, net), oldest first
    charges: list[tuple[str, int]] = []           # (table, charge): chips lost, not a round
    for m in reversed([r for r in rows if r]):
        table, memo = m.group(2), m.group(3)
        decided = re.match(r"(?:won|lost|push): staked (\d+), paid back (\d+)", memo)
        forfeited = re.match(r"(?:\d+ bets|bet) of (\d+) forfeited", memo)
        pot = re.match(r"paid (\d+) from other players' stakes", memo)
        charge = re.match(r"charge (\d+) on a bet of \d+", memo)
        if charge:
            charges.append((table, int(charge[1])))
        elif decided:
            rounds.append((table, int(decided[1]), int(decided[2]) - int(decided[1])))
        elif forfeited:
            rounds.append((table, int(forfeited[1]), -int(forfeited[1])))
        elif pot:                                 # a pot won with no stake of one's own in it
            rounds.append((table, 0, int(pot[1])))
        elif memo.startswith("table bankroll "):  # alley craps: a bankroll held, or paid out with no pass decided
            pass
        else:
            assert memo == "wager placed" or "refunded" in memo, memo
    out: dict[str, dict[str, int]] = {}
    for key in [*sorted({t for t, _, _ in rounds} | {t for t, _ in charges}), "total"]:
        mine = [(s, n) for t, s, n in rounds if key in ("total", t)]
        charged = sum(c for t, c in charges if key in ("total", t))
        streak = best_streak = 0
        for _, n in mine:
            streak = streak + 1 if n > 0 else 0
            best_streak = max(best_streak, streak)
        out[key] = {"rounds": len(mine), "wagered": sum(s for s, _ in mine),
                    "won": sum(n for _, n in mine if n > 0), "lost": -sum(n for _, n in mine if n < 0) + charged,
                    "net": sum(n for _, n in mine) - charged, "best": max([0, *(n for _, n in mine)]),
                    "streak": best_streak}
    return out


ROW = re.compile(r"^(.*?)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+([+-]\d+)\s+(\d+)\s+(\d+)\s+(\S+)$")
COLUMNS = ("rounds", "wagered", "won", "lost", "net", "best", "streak", "time")


def stats_rows(text: str) -> dict[str, dict[str, str]]:
    """`stats`' table at 80 columns: title -> column -> cell."""
    lines = plain(text).replace("\r", "").split("\n")
    assert any(line.split() == ["game", *COLUMNS] for line in lines), lines
    return {m[1]: dict(zip(COLUMNS, m.groups()[1:])) for m in map(ROW.match, lines) if m}


async def seated_for(app, c: Client, ticks: int) -> None:
    """Let `ticks` of the casino's clock pass while seated."""
    app.manager.tick_elapsed(ticks)
    for host in app.tables.values():
        await host.idle()
    c.take_text()


async def test_random_sessions_at_every_game_agree_with_the_statement(casino_factory):
    app = await casino_factory(seed=31, limits=FAST)
    rng = random.Random(31)
    c = await Client.open(app.port, ttype="dumb", cols=80)
    await login(c, "rex")
    seated: dict[str, int] = {}

    async def visit(table: str, play) -> None:
        start = app.manager.ticks
        await play()
        await seated_for(app, c, rng.randint(1, 400))
        assert "You leave the table" in plain(await c.cmd_expect("leave", "leave"))
        seated[table] = seated.get(table, 0) + app.manager.ticks - start

    async def dice_table(word: str = "craps") -> None:
        await c.cmd_expect(f"play {word}", "joins the table")
        for _ in range(rng.randint(2, 6)):
            await c.cmd_expect(f"bet field {rng.randint(1, 40)}", "Your bets")
            if rng.random() < 0.5:
                await c.cmd_expect(f"bet any7 {rng.randint(1, 10)}", "Your bets")
            await c.cmd_expect("roll", "Settlement")

    async def roulette() -> None:
        await c.cmd_expect("play roulette", "Welcome to roulette")
        for _ in range(rng.randint(2, 5)):
            await c.cmd(f"bet red {rng.randint(1, 30)}")
            if rng.random() < 0.6:
                await c.cmd(f"bet straight {rng.randint(0, 36)} {rng.randint(1, 5)}")
            await c.cmd("spin")
            app.manager.tick_elapsed(app.manager.seconds(10))        # the ball drops
            await app.tables["roulette"].idle()
            await c.expect("net ")
            c.take_text()

    async def simplified() -> None:
        assert "You sit down at simple_craps" in plain(await c.cmd("play craps"))
        for _ in range(rng.randint(1, 3)):
            await c.cmd_expect(f"bet {rng.choice(['pass', 'dontpass'])} {rng.randint(5, 50)}", "You bet")
            for _ in range(200):
                if "Wallet:" in plain(await c.cmd("roll")):
                    break

    await c.cmd("north")
    await visit("bank_craps", dice_table)
    await c.cmd("west")
    await visit("crapless_craps", lambda: dice_table("crapless"))
    await c.cmd("east")
    await c.cmd("east")
    await visit("roulette", roulette)
    await c.cmd("west")
    await visit("bank_craps", dice_table)           # a second visit adds to the first
    for step in ("south", "south"):
        await c.cmd(step)
    await visit("simple_craps", simplified)

    expected = expected_from_statement(await c.cmd("statement 100"))
    assert set(expected) == {*TITLES, "total"} and expected["total"]["rounds"] >= 10
    shown = stats_rows(await c.cmd("stats"))
    assert set(shown) == {*TITLES.values(), "Total"}
    for table, title in [*TITLES.items(), ("total", "Total")]:
        row = shown[title]
        want = expected[table]
        assert {k: int(row[k]) for k in ("rounds", "wagered", "won", "lost", "net", "best", "streak")} == want
        ticks = sum(seated.values()) if table == "total" else seated[table]
        assert row["time"] == duration(ticks * 1000 // app.manager.tick_hz)
    # ... and the ledger's own read says the same as the table
    stats = await app.ledger.stats("rex")
    assert stats.total.net == expected["total"]["net"] and stats.total.rounds == expected["total"]["rounds"]
    await c.close()


async def test_time_at_the_table_counts_ticks_seated_and_survives_a_restart(casino_factory):
    app = await casino_factory(seed=2)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "tess")
    assert "You have not played yet." in plain(await c.cmd("stats"))
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    await seated_for(app, c, app.manager.seconds(75))
    out = plain(await c.cmd("stats"))         # the visit going on counts, with no round yet
    assert re.search(r"Bank craps\s+0\s+0\s+0\s+0\s+\+0\s+0\s+0\s+1m15s", out), out
    await c.close()                                     # a dropped connection ends the seat
    await app.tables["bank_craps"].idle()
    await asyncio.sleep(0)
    await app.stop()

    again = await casino_factory(seed=2)
    c = await Client.open(again.port, ttype="dumb")
    await login(c, "tess", create=False)
    out = plain(await c.cmd("stats"))
    assert re.search(r"Total\s+0\s+0\s+0\s+0\s+\+0\s+0\s+0\s+1m15s", out), out
    await c.close()


async def ann_played(app) -> Client:
    """ann, logged in, after one field bet of 7 at bank craps was rolled."""
    ann = await Client.open(app.port, ttype="dumb")
    await login(ann, "ann")
    await ann.cmd("north")
    await ann.cmd_expect("play craps", "joins the table")
    await ann.cmd_expect("bet field 7", "Your bets")
    await ann.cmd_expect("roll", "Settlement")
    return ann


async def test_another_players_stats_and_bad_input(casino_factory):
    app = await casino_factory(seed=4, limits=FAST)
    ann = await ann_played(app)
    bob = await Client.open(app.port, ttype="dumb")
    await login(bob, "bob")
    out = plain(await bob.cmd("stats ANN"))
    assert out.startswith("Stats for ann:")
    assert re.search(r"Bank craps\s+1\s+7\s", out) and "Total" in out
    assert "There is no player named nobody." in plain(await bob.cmd("stats nobody"))
    assert "Give one player's name" in plain(await bob.cmd("stats ann bob"))
    assert "You have not played yet." in plain(await bob.cmd("stats"))
    assert "wagered" in plain(await bob.cmd("help stats"))
    await ann.close()
    await bob.close()


def replies(text: str) -> list[str]:
    """The reply's lines, less the prompt."""
    return [x for x in plain(text).strip().splitlines() if x.strip() not in (">", "")]


async def test_stats_of_a_player_off_the_leaderboards_show_no_figure(casino_factory):
    """Issue 42: `set leaderboard off` hides a player from `stats NAME` as from `top`:
    one line that names no figure (not even whether they played); they still read
    their own, and `set leaderboard on` shows them to others again."""
    app = await casino_factory(seed=4, limits=FAST)
    ann = await ann_played(app)
    assert "off the leaderboards" in plain(await ann.cmd_expect("set leaderboard off", "leaderboards"))
    bob = await Client.open(app.port, ttype="dumb")
    await login(bob, "bob")
    for asked in ("stats ann", "stats ANN"):
        assert replies(await bob.cmd(asked)) == ["ann keeps their results to themselves (off the leaderboards)."]
    top_out = plain(await bob.cmd_expect("top wagered", "Top "))
    assert "ann" not in top_out
    own = plain(await ann.cmd_expect("stats", "Total"))
    assert own.startswith("Your stats:") and re.search(r"Bank craps\s+1\s+7\s", own), own
    await ann.cmd_expect("set leaderboard on", "on the leaderboards again")
    shown = plain(await bob.cmd("stats ann"))
    assert shown.startswith("Stats for ann:") and re.search(r"Bank craps\s+1\s+7\s", shown), shown
    await ann.close()
    await bob.close()


@pytest.mark.parametrize("width", [80, 60, 40])
async def test_stats_fit_the_width(casino_factory, width):
    app = await casino_factory(seed=6, limits=FAST)
    c = await Client.open(app.port, ttype="dumb", cols=width)
    await login(c, "wes")
    for step in ("north", "play craps", "bet field 25", "roll", "bet field 900", "roll", "leave", "east",
                 "play roulette"):
        await c.cmd(step)
    await seated_for(app, c, app.manager.seconds(200))        # 3m20s at the wheel
    out = plain(await c.cmd("stats")).replace("\r", "")
    lines = out.split("\n")
    assert all(display_width(line) <= width for line in lines), lines
    assert "Bank craps" in out and "Single-zero roulette" in out and "Total" in out and "3m20s" in out
    if width == 80:
        assert any(line.startswith("game ") for line in lines)        # one row a game
    else:
        assert "Bank craps: 2 rounds" in out and "longest streak" in out   # a block a game
    await c.close()


class Scripted(telnetlib3.TelnetClient):
    def __init__(self, *args, **kwargs):
        kwargs.setdefault("gmcp_modules", ["Char 1"])
        super().__init__(*args, **kwargs)
        self.messages: list[tuple[str, object]] = []

    def on_gmcp(self, package, data):
        super().on_gmcp(package, data)
        self.messages.append((package, data))


async def test_char_stats_at_login_and_after_stats(casino_factory):
    app = await casino_factory(seed=8, limits=FAST)
    reader, writer = await telnetlib3.open_connection(
        "127.0.0.1", app.port, client_factory=Scripted, connect_minwait=0.05, connect_maxwait=1.0,
        encoding="utf8")
    client = writer.protocol

    async def command(line: str, text: str = "> ") -> str:
        writer.write(line + "\r\n")
        seen = ""
        while text not in seen:
            seen += await asyncio.wait_for(reader.read(65536), 10)
        await asyncio.sleep(0)
        return seen

    def stats() -> list:
        return [d for p, d in client.messages if p == "Char.Stats"]
    try:
        seen = ""
        while "Name:" not in seen:
            seen += await asyncio.wait_for(reader.read(65536), 10)
        await command("create gina secret123", "Exits:")
        assert stats() == [{"name": "gina", "games": [], "total": {
            "game": "total", "title": "Total", "rounds": 0, "wagered": 0, "won": 0, "lost": 0, "net": 0,
            "biggest_win": 0, "longest_streak": 0, "seconds": 0}}]
        await command("north", "Exits:")
        await command("play craps")
        await command("bet field 10")
        text = await command("roll", "Settlement")
        await command("stats", "Total")
        data = stats()[-1]
        [game] = data["games"]
        net = int(re.search(r"net ([+-]\d+)", plain(text))[1])
        assert game["game"] == "bank_craps" and game["rounds"] == 1 and game["wagered"] == 10
        assert game["net"] == net == data["total"]["net"]
    finally:
        writer.close()


TITLES_ELSEWHERE = {"new_york_craps": "New York craps", "diceless_craps": "Diceless craps",
                    "high_point_craps": "High Point craps", "die_rich": "Die Rich", "alley_craps": "Alley craps",
                    "pig": "Pig"}


class Seat:
    """A player at a table with others: a transcript of everything it was
    sent, read until the phrase its command must bring has come once more
    (others' broadcasts arrive in between, so a bare read would be stale)."""

    def __init__(self, name: str, client: Client) -> None:
        self.name, self.client, self.seen = name, client, ""

    async def do(self, line: str, phrase: str) -> str:
        start, want = len(self.seen), self.seen.count(phrase) + 1
        await self.client.send(line)
        while self.seen.count(phrase) < want:
            self.seen += plain(await self.client.read_until_prompt())
        return self.seen[start:]


async def agrees_with_statement(c: Client, titles: dict[str, str]) -> tuple[dict, dict]:
    """The player's `stats` money figures equal their `statement`'s, per game
    and in total; the statement must be whole (its first movement, the opening
    grant, within the 100 it shows). Returns (expected, shown)."""
    text = await c.cmd_expect("statement 100", "chip movement")
    heading = re.search(r"Your last (\d+) chip movement", plain(text))
    assert heading and int(heading[1]) < 100, "the session is too long for one statement: the check would miss its start"
    expected = expected_from_statement(text)
    assert set(expected) == {*titles, "total"}, (sorted(expected), sorted(titles))
    shown = stats_rows(await c.cmd_expect("stats", "Total"))
    assert set(shown) >= {*titles.values(), "Total"}
    for table, title in [*titles.items(), ("total", "Total")]:
        assert {k: int(shown[title][k]) for k in ("rounds", "wagered", "won", "lost", "net", "best", "streak")} \
            == expected[table], (title, shown[title], expected[table])
    return expected, shown


async def test_random_sessions_at_the_other_games_agree_with_the_statement(casino_factory):
    """The rest of the games that move chips, played at random (seeded): New
    York, diceless, High Point and Die Rich craps alone; alley craps among three
    players (a buy-in held, re-held after every pass, players leaving with their
    bankrolls, the last one paid the pot); staked Pig between two (the shipped
    table's stake is 0: this one antes, and a game ends by a win and by a
    leave). Each player's `stats` must equal their own `statement`. Classic
    dice is left out: its practice chips never reach the ledger, so `stats`
    has nothing of it to show."""
    app = await casino_factory(seed=3131, limits=FAST)
    rng = random.Random(3131)
    pig = app.tables["pig"]
    cfg = pig.dealer.config
    pig.install(dataclasses.replace(cfg, options=dataclasses.replace(
        cfg.options, stake=rng.choice([10, 25, 40]), target=30)))
    c = await Client.open(app.port, ttype="dumb", cols=80)
    await login(c, "rex")
    seated: dict[str, int] = {}

    async def visit(table: str, play) -> None:
        start = app.manager.ticks
        await play()
        await seated_for(app, c, rng.randint(1, 400))
        assert "You leave the table" in plain(await c.cmd_expect("leave", "You leave the table"))
        seated[table] = seated.get(table, 0) + app.manager.ticks - start

    async def alone(table: str, word: str, bets) -> None:
        """Rounds of `bets()` (each a list of bet commands), rolled until nothing is live."""
        host = app.tables[table]
        await c.cmd_expect(f"play {word}", "joins the table")
        for _ in range(rng.randint(2, 5)):
            for line in bets():
                await c.cmd_expect(line, "Your bets")
            await c.cmd_expect("roll", "You ")
            for _ in range(100):
                if not host.dealer.has_live_bets("rex"):
                    break
                if table == "new_york_craps" and rng.random() < 0.3:
                    await c.cmd("unbet all")                # a buy taken down: refunded, not a round
                    continue
                await c.cmd_expect("roll", "You ")
        await host.idle()
        c.take_text()

    def n(top: int = 30) -> int:
        return rng.randint(1, top)

    await c.cmd("north")
    await c.cmd("west")
    await visit("new_york_craps", lambda: alone("new_york_craps", "newyork", lambda: [
        f"bet field {n()}", *([f"bet buy 6 {rng.randint(1, 5) * 20}"] if rng.random() < 0.5 else [])]))
    await visit("diceless_craps", lambda: alone("diceless_craps", "diceless", lambda: [
        f"bet field {n()}", *([f"bet any7 {n(10)}"] if rng.random() < 0.5 else [])]))
    await visit("high_point_craps", lambda: alone("high_point_craps", "highpoint", lambda: [f"bet high {n()}"]))
    await visit("die_rich", lambda: alone("die_rich", "dierich", lambda: [
        f"bet pass {n()}", *([f"bet face {rng.randint(1, 6)} {n(10)}"] if rng.random() < 0.5 else [])]))
    await c.cmd("east")
    await c.cmd("south")

    # Alley craps: rex, sam and tom; sam and tom may walk off with their bankrolls between passes.
    others = {}
    for name in ("sam", "tom"):
        o = await Client.open(app.port, ttype="dumb", cols=80)
        await login(o, name)
        others[name] = o
    players = {"rex": Seat("rex", c), **{k: Seat(k, o) for k, o in others.items()}}
    alley = app.tables["alley_craps"]

    def at_alley(name: str) -> bool:
        return any(s.player == name for s in alley.seats())

    async def alley_games() -> None:
        for p in players.values():
            await p.do("down", "Back Alley")
        for leaving in (False, True):          # played to the last player with money; then with leavers
            for p in players.values():
                if not at_alley(p.name):
                    await p.do("play alley", "sits down at the alley craps table")
            await players[rng.choice(list(players))].do("start", "total game money")
            await alley_game(leaving)

    async def alley_game(leaving: bool) -> None:
        for step in range(400):
            engine = alley.dealer.engine
            if engine is None:
                break
            v = engine.view()
            phase, bank = v.phase.value, engine.bankrolls
            seated_others = [q for q in ("sam", "tom") if at_alley(q)]
            if leaving and phase in ("betting", "choosing") and seated_others and (rng.random() < 0.1 or step > 30):
                await players[rng.choice(seated_others)].do("leave", "You leave")
            elif phase == "betting":         # without leavers, big bets: someone is cleaned out soon
                top = bank[v.shooter] // 10
                await players[v.shooter].do(f"bet {10 * (top if not leaving else rng.randint(1, top))}", "You bet ")
            elif phase == "fading":
                room = min(v.action - sum(a for _, a in v.fades), bank[v.waiting_for]) // 10
                await players[v.waiting_for].do(f"fade {10 * (room if not leaving else rng.randint(1, room))}",
                                                "You take ")
            elif phase == "rolling":
                await players[v.shooter].do("roll", "You roll")
            elif phase == "choosing" and rng.random() < 0.3:
                await players[v.shooter].do("pass", "You pass the bones to")
            elif phase == "choosing":
                await players[v.shooter].do("roll", f"{v.shooter}, you are the shooter!")
            await alley.idle()
        assert alley.dealer.engine is None, "the alley game did not end within the bound"
        await alley.idle()
        c.take_text()

    await visit("alley_craps", alley_games)
    for name in others:
        if at_alley(name):
            await players[name].do("leave", "You leave")
    await alley.idle()

    # Pig between rex and sam: one game played out, one that sam leaves part way.
    sam = players["sam"]

    async def pig_games() -> None:
        for p in (players["rex"], sam):
            await p.do("up", "The Lobby")
            await p.do("west", "The Pig Parlour")
        await players["rex"].do("play pig", "ante of")
        await sam.do("play pig", "ante of")
        for game in range(rng.randint(2, 4)):
            if "sam" not in pig.dealer.seating.names():
                await sam.do("play pig", "ante of")
            elif game:
                await sam.do("ready", "is ready")
            await players["rex"].do("start", "Turn order")
            hold_at = {"rex": rng.randint(5, 20), "sam": rng.randint(5, 20)}
            leave_after = rng.randint(1, 6) if game == 1 or game and rng.random() < 0.5 else None
            for turn in range(500):
                state = pig.dealer.game
                if pig.dealer.phase() != "playing":
                    break
                if leave_after is not None and turn >= leave_after:
                    await sam.do("leave", "You leave")
                    break
                who = players[state.current]
                if state.round_score < hold_at[who.name]:
                    await who.do("roll", "You roll:")
                else:
                    await who.do("hold", "You hold")
                await pig.idle()
            await pig.idle()
            assert pig.dealer.phase() == "waiting"
        c.take_text()

    await visit("pig", pig_games)

    expected, shown = await agrees_with_statement(c, TITLES_ELSEWHERE)
    assert all(expected[t]["rounds"] >= 2 for t in TITLES_ELSEWHERE), expected
    for table, title in [*TITLES_ELSEWHERE.items(), ("total", "Total")]:
        ticks = sum(seated.values()) if table == "total" else seated[table]
        assert shown[title]["time"] == duration(ticks * 1000 // app.manager.tick_hz)
    await agrees_with_statement(others["sam"], {"alley_craps": "Alley craps", "pig": "Pig"})
    await agrees_with_statement(others["tom"], {"alley_craps": "Alley craps"})
    for client in (c, *others.values()):
        await client.close()

"""`stats [player]`: rounds, chips and time at the tables, per game and in total.

Every money figure is the ledger's own (server.ledger.stats derives them
from the rows that closed the player's stakes), so `stats` can never
disagree with `statement`; time at the tables is kept beside the ledger
(server.accounts.table_time) plus the visit going on now, and so are the
rounds that moved no chips (a game of Pig against the computer is a round).

Anyone's stats may be read, as a leaderboard's would be: they show results,
never a wallet or a live stake. A player who chose `set leaderboard off` is
off every board, so `stats NAME` of them shows nothing more than `top` does:
one line that they keep their results to themselves, no figure, not even
whether they have played (issue 42). They still read their own.

The same figures go to GMCP clients as Char.Stats (docs/gmcp.md), after
`stats` and at login to a client that named the Char module.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Protocol

from server.commands.prefs import LEADERBOARD
from server.commands.registry import REGISTRY, Context
from server.config.model import CasinoConfig
from server.games.catalogue import entry_for
from server.ledger import Ledger, PlayerStats, Results
from server.net.session import LoggedIn, Session
from server.render.width import display_width
from server.tables.table import Table
from server.tables.manager import Manager
from server.accounts.store import AccountStore
from server.accounts.table_time import TableTimeStore

COLUMNS = ("game", "rounds", "wagered", "won", "lost", "net", "best", "streak", "time")


class StatsApp(Protocol):
    """What `stats` reads of the casino (server.app.Casino): the config names
    the games, the ledger gives the money, the store and the tables the time."""

    @property
    def config(self) -> CasinoConfig: ...

    @property
    def ledger(self) -> Ledger: ...

    @property
    def table_time(self) -> TableTimeStore: ...

    @property
    def tables(self) -> Mapping[str, Table]: ...

    @property
    def manager(self) -> Manager: ...


class StatsCommandApp(StatsApp, Protocol):
    """`stats <player>` also finds the player's account."""

    @property
    def accounts(self) -> AccountStore: ...


@dataclass
class Line:
    """One game's (or the total's) figures, as shown and as sent."""
    game: str            # the catalogue key; a table removed from the config: its id
    title: str           # what the player reads
    results: Results
    millis: int

    def to_dict(self) -> dict[str, object]:
        return {"game": self.game, "title": self.title, **self.results.to_dict(),
                "seconds": self.millis // 1000}


def groups(app: StatsApp) -> dict[str, tuple[str, str]]:
    """Each configured table id -> (game key, title): tables of one game are one line."""
    out = {}
    for table_id, config in app.config.tables.items():
        entry = entry_for(config)
        out[table_id] = (entry.key, entry.title)
    return out


async def gather(app: StatsApp, key: str) -> tuple[list[Line], Line]:
    """The player's lines per game, by title, and the total."""
    by_game = groups(app)
    label = {table_id: game for table_id, (game, _) in by_game.items()}
    titles: dict[str, str] = dict(by_game.values())
    stats: PlayerStats = await app.ledger.stats(key, label)
    for table_id, rounds in (await app.table_time.rounds(key)).items():    # played for no chips
        stats.by_group.setdefault(label.get(table_id, table_id), Results()).played(rounds)
        stats.total.played(rounds)
    millis = await app.table_time.read(key)
    for table in app.tables.values():              # the visit going on now counts too
        ticks = table.seated_ticks(key)
        if ticks:
            millis[table.id] = millis.get(table.id, 0) + ticks * 1000 // app.manager.tick_hz
    time_by: dict[str, int] = {}
    for table_id, ms in millis.items():
        group = label.get(table_id, table_id)
        time_by[group] = time_by.get(group, 0) + ms
    names = sorted(stats.by_group.keys() | time_by.keys(), key=lambda g: str(titles.get(g, g)).lower())
    lines = [Line(g, titles.get(g, g), stats.by_group.get(g, Results()), time_by.get(g, 0)) for g in names]
    return lines, Line("total", "Total", stats.total, sum(time_by.values()))


def duration(millis: int) -> str:
    """Compact time: 45s, 4m10s, 2h05m."""
    s = millis // 1000
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


def _cells(line: Line) -> list[str]:
    r = line.results
    return [line.title, str(r.rounds), str(r.wagered), str(r.won), str(r.lost), f"{r.net:+d}",
            str(r.biggest_win), str(r.longest_streak), duration(line.millis)]


def spoken_duration(millis: int) -> str:
    """Time as a screen reader should say it: "4 minutes 10 seconds"."""
    s = millis // 1000
    parts = [(s // 3600, "hour"), (s % 3600 // 60, "minute"), (s % 60, "second")]
    said = [f"{n} {unit}{'' if n == 1 else 's'}" for n, unit in parts if n]
    return " ".join(said[:2]) or "0 seconds"


def render(lines: list[Line], total: Line, width: int, spoken: bool = False) -> list[str]:
    """A table of one row per game where it fits the width, else a short block per game;
    for a screen reader one sentence per game, every figure named."""
    if spoken:
        return [f"{x.title}: {x.results.rounds} round{'' if x.results.rounds == 1 else 's'}, "
                f"wagered {x.results.wagered}, won {x.results.won}, lost {x.results.lost}, "
                f"net {x.results.net:+d}, biggest win {x.results.biggest_win}, longest streak "
                f"{x.results.longest_streak}, {spoken_duration(x.millis)} at the tables."
                for x in (*lines, total)]
    rows = [list(COLUMNS), *(_cells(x) for x in (*lines, total))]
    widths = [max(display_width(row[i]) for row in rows) for i in range(len(COLUMNS))]
    if sum(widths) + len(widths) - 1 <= width:
        return [" ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                         for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]
    out = []
    for x in (*lines, total):
        r = x.results
        out += [f"{x.title}: {r.rounds} round{'' if r.rounds == 1 else 's'}, {duration(x.millis)} at the tables",
                f"  wagered {r.wagered}, net {r.net:+d}",
                f"  won {r.won}, lost {r.lost}",
                f"  biggest win {r.biggest_win}, longest streak {r.longest_streak}"]
    return out


@REGISTRY.command("stats", help="""stats [player] - rounds played, chips wagered, won, lost and net, biggest win, longest winning streak and time at the tables, per game and in total: yours, or another player's.
Columns: rounds (each roll or spin that decided your bets; a game of Pig), wagered (the stakes decided;
a refund is not a wager), won and lost (what rounds gained or lost beyond the stakes),
net (won minus lost), best (biggest win of one round), streak (most winning rounds
in a row), time (seated at the tables). Every chip figure comes from the ledger,
so it agrees with your statement.""")
async def stats(ctx: Context[StatsCommandApp]) -> None:
    if len(ctx.argv) > 1:
        ctx.tell("Give one player's name, e.g. stats bob, or none for your own.")
        return
    key, name = ctx.session.key, None
    if ctx.argv:
        account = await ctx.app.accounts.get(ctx.argv[0])
        if account is None:
            ctx.tell(f"There is no player named {ctx.argv[0][:20]}.")
            return
        key, name = account.key, account.name
        if key != ctx.session.key and account.prefs.get(LEADERBOARD) is False:
            ctx.tell(f"{name} keeps their results to themselves (off the leaderboards).")
            return
    lines, total = await gather(ctx.app, key)
    if ctx.session.key == key:
        send_gmcp(ctx.session, ctx.session.name, lines, total)
    if not lines:
        ctx.tell(f"{name} has not played yet." if name else "You have not played yet.")
        return
    ctx.tell(f"Stats for {name}:" if name else "Your stats:")
    ctx.tell(*render(lines, total, ctx.session.prefs.width, ctx.session.prefs.screenreader))


def stats_data(name: str, lines: list[Line], total: Line) -> dict[str, object]:
    """GMCP Char.Stats: the same figures as `stats` shows."""
    return {"name": name, "games": [x.to_dict() for x in lines], "total": total.to_dict()}


def send_gmcp(session: Session, name: str, lines: list[Line], total: Line) -> None:
    """Char.Stats to a GMCP client, and to the browser page (its stats view)."""
    from server.net import mud
    data = stats_data(name, lines, total)
    mud.send(session, "Char.Stats", data)
    session.page_data("Char.Stats", data)


async def login_gmcp(app: StatsApp, session: LoggedIn) -> None:
    """Char.Stats at login, to a client that named the Char module (Core.Supports):
    a client that named none gets it after `stats` only, so a crowd's logins
    do not each read a whole history."""
    from server.net import mud
    channel = mud.gmcp_of(session)
    if channel is None or channel.modules is None or "char" not in channel.modules:
        return
    lines, total = await gather(app, session.key)
    send_gmcp(session, session.name, lines, total)

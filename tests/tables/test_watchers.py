"""A crowd of watchers (issue 16): the host renders a fact once for each group
of watchers with the same Prefs, and alone for a watcher the fact names, and
every watcher is told exactly what rendering each of them alone tells them.

Each scenario is played twice, with the same dice and inputs, through a real
Table and ledger file: once by the host as it is, once by a reference
host that renders every fact for every viewer on their own; each person's
lines must be the same in both.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

from server.config.load import load_config
from server.dice.source import FixedDice, FixedDraws
from server.games.craps.bets import Bet, Kind
from server.games.craps.events import BetRefused, Travelled, Wager
from server.games.seam import Note, Viewer, names_in
from server.render.prefs import Prefs
from server.tables.delivery import Audience, Delivery
from server.tables.table import Table

ROOT = Path(__file__).resolve().parents[2]
HZ = 10
COLOR_40 = Prefs(color=True, width=40)
RAIL = BetRefused("dan", "no bets from the rail")      # a fact that names a watcher


class Session:
    def __init__(self, name: str, prefs: Prefs = Prefs()) -> None:
        self.name, self.key, self.prefs, self.closed, self.lines = name, name.lower(), prefs, False, []

    def tell(self, *lines: str) -> None:
        self.lines.extend(lines)


class Wheel(FixedDraws):
    """Fixed pockets that rotate as the table's fair draws do after a spin."""

    def rotate(self) -> None:
        pass


class App:
    """What a Table needs of the casino: ledger, online sessions, the clock."""

    def __init__(self, ledger: Any, sessions: list[Session]) -> None:
        from server.tables.manager import Manager
        self.ledger, self.run_id, self.seed = ledger, "test", None
        self.manager = Manager(HZ)
        self.online = {s.key: s for s in sessions}
        self.table_time = NoClock()


class NoClock:
    """Time at the table, not counted here."""

    async def add(self, player: str, table: str, millis: int) -> None:
        pass

    async def add_round(self, player: str, table: str) -> None:
        pass


class OneByOneDelivery(Delivery):
    """The reference: every fact rendered for every viewer on their own."""

    def show(self, core: Any, event: Any, audience: Audience) -> None:
        if isinstance(event, Note) and event.to is not None:
            return super().show(core, event, audience)
        for viewer, session in self.viewers(core):
            lines = core.dealer.render(event, viewer)
            if lines:
                self.tell(session, *lines)


class OneByOne(Table):
    """A table host whose delivery is the reference."""

    def __init__(self, app: Any, config: Any) -> None:
        super().__init__(app, config)
        self.delivery = self.applier.delivery = OneByOneDelivery(config.id, app.online, self.delivery.status)


def people() -> list[Session]:
    return ([Session(p) for p in ("ann", "bob", "cat")]
            + [Session(f"Watcher{i:02d}") for i in range(20)]
            + [Session("vic", COLOR_40), Session("dan")])


async def open_table(tmp_path: Path, host_class: type, table: str, dice: Any, seated: list[str]) -> tuple:
    """`table` (the shipped config) with `seated` at it and everyone else watching;
    the dealer's render calls for watchers recorded as (fact, watcher)."""
    from server.ledger import Ledger
    ledger = await Ledger.open(tmp_path / f"{host_class.__name__}.db")
    sessions = people()
    for s in sessions:
        await ledger.mint(f"start:{s.key}", s.key, 1000, "starting chips")
    app = App(ledger, sessions)
    host = host_class(app, load_config(ROOT / "config", ROOT / "rooms").tables[table])
    host.dice = dice
    host.install(host.dealer.config)
    for s in sessions:
        if s.name in seated:
            await host.run(lambda s=s: host.sit(s, 1000))
        else:
            host.watch(s)
    watched: list[tuple[Any, str]] = []
    render = host.dealer.render

    def counting(event: Any, viewer: Viewer) -> list[str]:
        if not viewer.seated:
            watched.append((event, viewer.key))
        return render(event, viewer)
    host.dealer.render = counting
    return app, host, watched


async def act(host: Table, player: str, *words: str) -> None:
    await host.run(lambda: host.apply(host.dealer.act(player, list(words), 1000)))


async def craps_rolls(tmp_path: Path, host_class: type) -> tuple:
    """Three players bet and roll twice (the point is set, then made) with 22
    watchers; then a fact that names the watcher dan, and one for everyone."""
    dice = FixedDice([(2, 4), (3, 3)])
    app, host, watched = await open_table(tmp_path, host_class, "bank_craps", dice, ["ann", "bob", "cat"])
    for _ in range(2):
        for player, bet in (("ann", "pass 10"), ("bob", "field 5"), ("cat", "place 6 12")):
            await act(host, player, "bet", *bet.split())
        host.advance(host.dealer.pacing.left)       # the betting window closes
        await host.idle()
        await act(host, host.dealer.shooter(), "roll")
    await host.run(lambda: host.apply([RAIL, Note(None, "The table is watched.")]))
    host.stop()
    await app.ledger.close()
    return app, watched


async def test_a_craps_roll_renders_each_fact_once_a_prefs_group_and_tells_every_watcher_the_same(tmp_path):
    app, watched = await craps_rolls(tmp_path, Table)
    reference, _ = await craps_rolls(tmp_path, OneByOne)
    for key, session in reference.online.items():
        assert app.online[key].lines == session.lines, key
    per_fact = Counter(id(event) for event, _ in watched)      # the facts stay alive in `watched`
    refused = next(event for event, _ in watched if event == RAIL)
    assert max(n for fact, n in per_fact.items() if fact != id(refused)) == 2    # two Prefs groups
    assert len(per_fact) > 20                                   # the rolls' facts were all shown
    assert [event for event, who in watched if who == "dan"] == [refused]
    assert per_fact[id(refused)] == 3                           # the two groups, and dan alone
    lines = {key: s.lines for key, s in app.online.items()}
    assert all(lines[f"watcher{i:02d}"] == lines["watcher00"] for i in range(20))
    assert "Refused: no bets from the rail." in lines["dan"]
    assert "Refused: no bets from the rail." not in lines["watcher00"]
    assert [line for line in lines["dan"] if line != "Refused: no bets from the rail."] == lines["watcher00"]
    assert "\x1b[" in "\n".join(lines["vic"]) and "\x1b[" not in "\n".join(lines["watcher00"])
    assert "The table is watched." in lines["vic"] and "ann rolls:" in lines["watcher00"]


async def roulette_rider(tmp_path: Path, host_class: type) -> tuple:
    """ann bets, leaves (her bet rides) and watches: the spin's settlement names her."""
    app, host, _ = await open_table(tmp_path, host_class, "roulette", Wheel([1]), ["ann", "bob"])
    await act(host, "ann", "bet", "red", "10")
    await act(host, "bob", "bet", "black", "10")
    await host.run(lambda: host.leave("ann"))
    host.watch(app.online["ann"])
    host.advance(1000 * HZ)                          # the window, the spin, the drop
    await host.idle()
    host.stop()
    await app.ledger.close()
    return app, host


async def test_a_watcher_a_fact_names_is_rendered_alone_and_reads_it_as_theirs(tmp_path):
    app, host = await roulette_rider(tmp_path, Table)
    reference, _ = await roulette_rider(tmp_path, OneByOne)
    for key, session in reference.online.items():
        assert app.online[key].lines == session.lines, key
    assert "ann" in host.seating.watchers
    ann = "\n".join(app.online["ann"].lines)
    assert "Settlement, spin 1: won 10 (red +10); net +10." in ann
    assert "Settlement" not in "\n".join(app.online["dan"].lines)


def test_the_names_a_fact_carries_are_found_at_any_depth():
    fact = Travelled(Wager("h:1", "ann", Bet(Kind.COME, 0, 10), "come"), 6)
    assert {"ann", "h:1", "come"} <= names_in(fact)
    assert {"bob", "cat"} <= names_in(Note(("bob",), "hi")) | names_in((["x", {"k": "cat"}],))

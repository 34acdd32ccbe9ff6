"""What each kind of process reads at a scrape, besides its counts: the game
process (or the one process) its sessions, tables and ledger; the portal its
connections and its links to the game processes. Both duck-type the app they are
given, so this module imports nothing of the casino (the portal loads no game)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sized
from typing import Protocol

from prometheus_client.core import GaugeMetricFamily, Metric

from server.metrics import players

LEDGER_PLACES = ("wallets", "tables", "house")


def edge_of(session: object) -> str:
    """telnet or web: the Writer of a browser's session says `edge = "web"`."""
    return str(getattr(getattr(session, "writer", None), "edge", "telnet"))


def by_labels(name: str, doc: str, labels: list[str], counts: Mapping[tuple[str, ...], int],
              every: Iterable[tuple[str, ...]] = ()) -> GaugeMetricFamily:
    """A gauge family from counts by label values; `every` are shown even at 0
    (a series that vanishes cannot be graphed or alerted on going to 0)."""
    family = GaugeMetricFamily(name, doc, labels=labels)
    for key in sorted({*every, *counts}):
        family.add_metric(list(key), counts.get(key, 0))
    return family


def start_time(started_at: float) -> GaugeMetricFamily:
    return GaugeMetricFamily("casino_start_time_seconds", "When this process's casino or portal started,"
                             " seconds since the epoch (MSSP's UPTIME).", value=started_at)


class _Session(Protocol):
    @property
    def account(self) -> object: ...


class _Table(Protocol):
    @property
    def config(self) -> object: ...
    def watching(self) -> Mapping[str, str]: ...
    def seated_keys(self) -> set[str]: ...
    @property
    def pending(self) -> Sized: ...


class _Ledger(Protocol):
    async def figures(self) -> dict[str, int]: ...


class CasinoApp(Protocol):
    """What a casino's scrape reads (server.app.Casino)."""

    @property
    def sessions(self) -> Iterable[_Session]: ...
    @property
    def online(self) -> Sized: ...
    @property
    def tables(self) -> Mapping[str, _Table]: ...
    @property
    def ledger(self) -> _Ledger: ...
    @property
    def portal(self) -> object: ...
    @property
    def started_at(self) -> float: ...


class CasinoLive:
    """A casino's live gauges: sessions, tables, the ledger's figures."""

    def __init__(self, app: CasinoApp) -> None:
        self.app = app
        self.ledger: dict[str, int] = {}

    async def refresh(self) -> None:
        self.ledger = {}
        self.ledger = await self.app.ledger.figures()

    def collect(self) -> Iterator[Metric]:
        app = self.app
        sessions: Counter[tuple[str, ...]] = Counter(
            (edge_of(s), "no" if s.account is None else "yes") for s in app.sessions)
        every = [(e, y) for e in ("telnet", "web") for y in ("yes", "no")]
        yield GaugeMetricFamily("casino_players", "Players logged in (MSSP's PLAYERS).", value=players(app.online))
        yield start_time(app.started_at)
        yield by_labels("casino_sessions", "Sessions served by this process, by edge and logged in or not.",
                        ["edge", "logged_in"], sessions, every)
        if app.portal is None:           # one process: the connections are its sessions
            connections: Counter[tuple[str, ...]] = Counter((e,) for e, _ in sessions.elements())
            yield by_labels("casino_connections", "Open connections held by this process, by edge.",
                            ["edge"], connections, [("telnet",), ("web",)])
        seated: Counter[tuple[str, ...]] = Counter()
        watchers: Counter[tuple[str, ...]] = Counter()
        tables: Counter[tuple[str, ...]] = Counter()
        pending: Counter[tuple[str, ...]] = Counter()
        for table in app.tables.values():
            game = (str(getattr(table.config, "game", "")),)
            tables[game] += 1
            seated[game] += len(table.seated_keys())
            watchers[game] += len(table.watching())
            pending[game] += len(table.pending)
        yield by_labels("casino_tables", "Tables open, by game.", ["game"], tables)
        yield by_labels("casino_table_players", "Players seated at tables, by game.", ["game"], seated, tables)
        yield by_labels("casino_table_watchers", "Players watching tables, by game.", ["game"], watchers, tables)
        yield by_labels("casino_table_pending_settlements", "Settlements the ledger could not write yet,"
                        " kept and retried (players read 'pending recovery'), by game.", ["game"], pending, tables)
        figures = self.ledger
        if not figures:
            return
        yield by_labels("casino_ledger_chips", "Chips in the ledger now, by place: players' wallets, stakes"
                        " at tables, the house.", ["place"], {(p,): figures[p] for p in LEDGER_PLACES})
        yield GaugeMetricFamily("casino_ledger_minted_chips", "Chips ever created (starting chips, grants,"
                                " relief).", value=figures["minted"])
        yield GaugeMetricFamily("casino_ledger_imbalance_chips", "The sum of every balance, the mint's"
                                " included: 0 while chips are conserved.", value=figures["imbalance"])
        yield GaugeMetricFamily("casino_ledger_open_holds", "Stakes held and not yet settled, refunded or"
                                " forfeited.", value=figures["open_holds"])
        yield GaugeMetricFamily("casino_ledger_pending_outcomes", "Closing operations whose commit failed,"
                                " kept for recovery.", value=figures["pending_outcomes"])


class _Shard(Protocol):
    @property
    def serving(self) -> object: ...


class PortalApp(Protocol):
    """What a portal's scrape reads (server.portal.portal.Portal)."""

    @property
    def online(self) -> Sized: ...
    @property
    def shards(self) -> Mapping[str, _Shard]: ...
    @property
    def handed(self) -> object: ...
    @property
    def clients(self) -> object: ...
    @property
    def started_at(self) -> float: ...


class PortalLive:
    """A portal's live gauges: its connections, and each game process's link."""

    def __init__(self, portal: PortalApp) -> None:
        self.portal = portal

    async def refresh(self) -> None:
        return None

    def collect(self) -> Iterator[Metric]:
        portal = self.portal
        counts: Counter[tuple[str, ...]] = Counter()
        for edge, held in (("telnet", portal.handed), ("web", portal.clients)):
            conns = getattr(held, "sockets", None) if edge == "telnet" else getattr(held, "sessions", None)
            online: set[int] = getattr(held, "online", set())
            for cid in conns or ():
                counts[edge, "yes" if cid in online else "no"] += 1
        every = [(e, y) for e in ("telnet", "web") for y in ("yes", "no")]
        yield start_time(portal.started_at)
        yield by_labels("casino_connections", "Open connections held by this portal, by edge and logged in"
                        " or not.", ["edge", "logged_in"], counts, every)
        up = GaugeMetricFamily("casino_game_up", "1 while the shard's game process is ready, else 0.",
                               labels=["shard"])
        queue = GaugeMetricFamily("casino_link_queue_bytes", "Bytes written to the shard's game process and"
                                  " not yet taken by it.", labels=["shard"])
        for name, shard in sorted(portal.shards.items()):
            game = shard.serving
            up.add_metric([name], 1 if game is not None else 0)
            transport = getattr(getattr(game, "writer", None), "transport", None)
            queue.add_metric([name], transport.get_write_buffer_size() if transport is not None else 0)
        yield up
        yield queue

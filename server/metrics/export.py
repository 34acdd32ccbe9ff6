"""`/metrics` in the Prometheus text format, with the prometheus-client library.

Imported only by a process whose config has `server.metrics` (the portal keeps
ssl out unless it serves metrics: server/portal/main.py). Each scrape first lets
the process's `Live` read what it reads at that moment (the ledger's figures,
on the ledger's reader thread), then the library writes every family: this
process's counts (server.metrics.COUNTS), its live gauges, and the library's own
process, platform and garbage-collector collectors. Served by aiohttp on the
process's event loop, so what is read live is read between two of its turns,
never from another thread."""
from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator, Mapping
from typing import Protocol

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.gc_collector import GCCollector
from prometheus_client.platform_collector import PlatformCollector
from prometheus_client.process_collector import ProcessCollector
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

from server import logs
from server.metrics import COUNTS, Buckets, Counts

log = logging.getLogger("casino.metrics")


class Live(Protocol):
    """What one process reads at each scrape, besides its counts."""

    async def refresh(self) -> None: ...          # read what must be awaited (the ledger)

    def collect(self) -> Iterable[Metric]: ...


def _le(bound: float) -> str:
    """A bucket's bound as the library writes one (+Inf, 0.005, 1.0)."""
    return str(floatToGoString(bound))  # type: ignore[no-untyped-call]   # the library leaves it untyped


def histogram(name: str, doc: str, buckets: Buckets) -> HistogramMetricFamily:
    cumulative = buckets.cumulative()
    return HistogramMetricFamily(name, doc, buckets=[(_le(le), n) for le, n in cumulative],
                                 sum_value=buckets.sum)


def counter(name: str, doc: str, labels: tuple[str, ...], values: Mapping[str, int] | Mapping[tuple[str, str], int]
            ) -> CounterMetricFamily:
    family = CounterMetricFamily(name, doc, labels=list(labels))
    for key, n in sorted(values.items()):
        family.add_metric([str(k) for k in key] if isinstance(key, tuple) else [str(key)], n)
    return family


def from_counts(c: Counts) -> Iterator[Metric]:
    """Every count as its family; the names are Prometheus' conventions (base units,
    `_total` counters, `_seconds` histograms) and docs/operating.md lists them."""
    yield counter("casino_commands", "Lines handled, by command word and result (ok, error, table_closed;"
                  " (unknown) for no such command, (login) for a line before logging in).",
                  ("word", "result"), c.commands)
    yield histogram("casino_reply_seconds", "From a line read to its reply's prompt written.", c.reply)
    yield counter("casino_refusals", "Connections, lines and logins refused, by cause (the setting that"
                  " refused it, or closing).", ("cause",), c.refusals)
    yield counter("casino_disconnects", "Connections ended, by cause (hangup: the client's end).",
                  ("cause",), c.disconnects)
    yield counter("casino_rounds", "Settlements written, by game: several bets decided by one roll are one.",
                  ("game",), c.rounds)
    yield counter("casino_chips_wagered", "Chips held as stakes, by game.", ("game",), c.wagered)
    yield counter("casino_chips_settled", "Chips of stakes a settlement decided, by game.", ("game",), c.settled)
    yield counter("casino_chips_paid", "Chips settlements paid back to wallets, by game.", ("game",), c.paid)
    yield gauge_total("casino_ledger_batches", "Ledger batches committed (one durable transaction each).",
                      c.ledger_batches)
    yield gauge_total("casino_ledger_failed_batches", "Ledger batches whose commit failed.",
                      c.ledger_failed_batches)
    yield gauge_total("casino_ledger_operations", "Ledger operations (one idempotency key: a mint, hold,"
                      " settle, refund or forfeit, one or more transfers) in committed batches.", c.ledger_items)
    yield histogram("casino_ledger_batch_operations", "Operations in one committed batch.", c.ledger_batch)
    yield histogram("casino_ledger_commit_seconds", "From a batch taken to it being durable.", c.ledger_commit)
    yield counter("casino_link_messages", "Messages between the portal and a game process, by direction.",
                  ("direction",), c.link_messages)
    yield counter("casino_game_restarts", "Game processes started again (a restart or a crash), by shard.",
                  ("shard",), c.restarts)
    yield histogram("casino_event_loop_lag_seconds", "How late the clock's timer fired: the event loop's lag.",
                    c.loop_lag)


def gauge_total(name: str, doc: str, value: int) -> CounterMetricFamily:
    return CounterMetricFamily(name, doc, value=value)


class _Collected(Collector):
    def __init__(self, live: Live) -> None:
        self.live = live

    def collect(self) -> Iterable[Metric]:
        yield from from_counts(COUNTS)
        yield from self.live.collect()


def registry(live: Live) -> CollectorRegistry:
    """This process's families: its counts, its live gauges, and the library's own."""
    out = CollectorRegistry(auto_describe=False)
    out.register(_Collected(live))
    ProcessCollector(registry=out)
    PlatformCollector(registry=out)
    GCCollector(registry=out)
    return out


class Exporter:
    """`/metrics` on host:port (0: any free port), until `close`."""

    def __init__(self, live: Live) -> None:
        self.live = live
        self.registry = registry(live)
        self._runner: web.AppRunner | None = None
        self.port = 0

    async def _metrics(self, request: web.Request) -> web.Response:
        try:
            await self.live.refresh()
        except Exception as err:      # the ledger away: the rest is still worth scraping
            logs.once(set(), log, "metrics_refresh_failed", type(err).__name__)
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    async def start(self, host: str, port: int, what: str, **told: object) -> int:
        """Listen; the port listened on (logged: `metrics`, with `what` this process is
        and `told`, its shard or index)."""
        app = web.Application()
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port, reuse_address=True)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else port
        logs.event(log, "metrics", host=host, port=self.port, process=what, **told, path="/metrics")
        return self.port

    async def close(self) -> None:
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

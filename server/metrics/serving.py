"""Start a process's `/metrics`, or say why not: a port that cannot be had is
logged (`metrics_unavailable`) and the casino serves on without it: its players
matter more than its graphs. Imports the library only when called."""
from __future__ import annotations

import argparse
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from server import logs
from server.config.model import Metrics

if TYPE_CHECKING:
    from server.metrics.export import Exporter, Live

log = logging.getLogger("casino.metrics")


async def serve_metrics(live: Callable[[], Live], host: str, port: int, what: str,
                        **told: object) -> Exporter | None:
    """`/metrics` of this process (`what`: casino, game, portal, supervisor) on host:port;
    `told`: what else the log says of it (a game process's shard, a portal's index)."""
    from server.metrics.export import Exporter
    exporter = Exporter(live())
    try:
        await exporter.start(host, port, what, **told)
    except OSError as e:
        await exporter.close()
        logs.event(log, "metrics_unavailable", host=host, port=port, process=what, **told,
                   error=e.strerror or str(e))
        return None
    return exporter


def game_port(port: int, index: int) -> int:
    """The metrics port of the `index`th game process (0-based) behind a portal on
    `port`: the ports after it, so each is known before it starts (0: any free port)."""
    return port + 1 + index if port else 0


def portal_port(port: int, games: int, index: int) -> int:
    """With several portals (server.portals), the `index`th portal's (0-based): the
    ports after the `games` game processes' (0: any free port). A portal started
    again takes its port again."""
    return port + 1 + games + index if port else 0


def address(text: str) -> Metrics:
    """`--metrics`' value (an argparse type): HOST:PORT, or PORT alone (on 127.0.0.1),
    as `server.metrics` has them."""
    host, _, port = text.rpartition(":")
    try:
        number = int(port)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not HOST:PORT or PORT") from None
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"port {number} is not from 0 to 65535")
    return Metrics(host=host.strip("[]") or Metrics.host, port=number)


def as_argument(metrics: Metrics) -> str:
    """A Metrics as `--metrics` takes it (the portal tells each game process its own)."""
    host = f"[{metrics.host}]" if ":" in metrics.host else metrics.host
    return f"{host}:{metrics.port}"

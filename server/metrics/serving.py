"""Start a process's `/metrics`, or say why not: a port that cannot be had is
logged (`metrics_unavailable`) and the casino serves on without it: its players
matter more than its graphs. Imports the library only when called."""
from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from server import logs

if TYPE_CHECKING:
    from server.metrics.export import Exporter, Live

log = logging.getLogger("casino.metrics")


async def serve_metrics(live: Callable[[], Live], host: str, port: int, what: str) -> Exporter | None:
    """`/metrics` of this process (`what`: casino, game, portal) on host:port."""
    from server.metrics.export import Exporter
    exporter = Exporter(live())
    try:
        await exporter.start(host, port, what)
    except OSError as e:
        await exporter.close()
        logs.event(log, "metrics_unavailable", host=host, port=port, process=what, error=e.strerror or str(e))
        return None
    return exporter


def game_port(port: int, index: int) -> int:
    """The metrics port of the `index`th game process (0-based) behind a portal on
    `port`: the ports after it, so each is known before it starts (0: any free port)."""
    return port + 1 + index if port else 0

"""What the network edges (telnet, web) use of the casino they serve.

Both edges are handed the app (server.app.Casino) and use only this much of
it: whether it is closing and why, the shared connection caps, the config's
limits, the clock, and the three entry points a session's life passes through. Naming
it here keeps the edges from reaching further into the app unnoticed, and
lets a test stand in a small fake.
"""
from __future__ import annotations

from typing import Protocol

from server.config.model import CasinoConfig
from server.net.lines import TooLong
from server.net.session import Session
from server.net.throttle import ConnectionCounter


class Ticking(Protocol):
    """Something the clock advances (the manager's Tickable)."""

    def advance(self, ticks: int) -> None: ...


class Clock(Protocol):
    """The casino's one clock (server.tables.manager.Manager) as an edge uses
    it: deadlines counted in its ticks, so tests move them with tick_elapsed."""

    ticks: int

    def seconds(self, seconds: float) -> int: ...

    def subscribe(self, tickable: Ticking) -> None: ...

    def unsubscribe(self, tickable: Ticking) -> None: ...


class Host(Protocol):
    """The app as a network edge sees it (read-only attributes, as properties)."""

    @property
    def closing(self) -> bool: ...           # refuse new connections: the casino is stopping

    @property
    def stop_reason(self) -> str: ...        # what a refused connection is told then

    @property
    def connections(self) -> ConnectionCounter: ...   # caps shared by telnet and web

    @property
    def config(self) -> CasinoConfig: ...    # settings.limits, connect_maxwait

    @property
    def clock(self) -> Clock: ...            # the manager: HTTP deadlines count its ticks

    async def on_connect(self, session: Session) -> None: ...

    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None: ...

    async def on_disconnect(self, session: Session) -> None: ...


def addresses(host: str, port: int, web_port: int) -> str:
    """Where players connect, for the operator: telnet and (when served, web_port > 0) web."""
    text = f"telnet {host}:{port}"
    if web_port:
        text += f", web http://{host}:{web_port}/"
    return text

"""What the edges (telnet, web, the portal's link) use of the casino they serve.

Both network edges are handed the app (server.app.Casino) and use only this much of
it: whether it is closing and why, the shared connection caps, the config's
limits, the clock, and the three entry points a session's life passes through. Naming
it here keeps the edges from reaching further into the app unnoticed, and
lets a test stand in a small fake. The game process's link to its portal
(server.portal.game) uses the casino's life besides: `LinkApp`.
"""
from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

from server.config.model import CasinoConfig
from server.net.lines import TooLong
from server.net.session import Session
from server.net.throttle import ConnectionCounter

if TYPE_CHECKING:
    from server.portal.protocol import Message


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


class EdgeApp(Protocol):
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


class PortalLink(Protocol):
    """The game process's link to its portal (server.portal.game.GameLink), as the casino uses it."""

    def send(self, message: Message) -> None: ...


class LinkApp(Protocol):
    """The casino as the game process's link to its portal sees it
    (server.portal.game): the sessions' entry points (a kept connection is
    resumed), the casino's life (start without listening, stop, restart,
    reload), and the portal itself, set before the start."""

    portal: PortalLink | None

    @property
    def config(self) -> CasinoConfig: ...    # settings.limits: max_output
    @property
    def closing(self) -> bool: ...
    @property
    def restarting(self) -> bool: ...
    @property
    def stop_reason(self) -> str: ...
    @property
    def stop_requested(self) -> asyncio.Event: ...

    async def start(self, host: str = "127.0.0.1", port: int = 0, *, web_port: int | None = None,
                    run_clock: bool = True, listen: bool = True) -> None: ...
    async def stop(self, reason: str = "The casino is closing.") -> None: ...
    def request_stop(self, reason: str) -> None: ...
    def request_restart(self, reason: str = "") -> str | None: ...
    async def reload(self) -> tuple[bool, list[str]]: ...

    async def on_connect(self, session: Session, *, again: bool = False) -> None: ...
    async def resume(self, session: Session, name: str, room: str | None, why: str | None,
                     via: str | None = None) -> None: ...
    async def on_input(self, session: Session, lines: list[str | TooLong], now: float) -> None: ...
    async def on_disconnect(self, session: Session) -> None: ...


def addresses(host: str, port: int, web_port: int) -> str:
    """Where players connect, for the operator: telnet and (when served, web_port > 0) web."""
    text = f"telnet {host}:{port}"
    if web_port:
        text += f", web http://{host}:{web_port}/"
    return text

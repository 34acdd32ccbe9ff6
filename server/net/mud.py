"""MUD protocols beside the text: GMCP (option 201) and MSSP (option 70).

GMCP carries data for client scripts (Mudlet, TinTin++): the server offers it
to every client and sends only to those that answered DO GMCP, and, once a
client has named the modules it wants (`Core.Supports.Set/Add/Remove`), only
packages of those modules. It never replaces a line of text. MSSP answers a
MUD directory's crawler with the operator's description of the casino and
live figures (players, uptime). Package names and fields: docs/gmcp.md.

telnetlib3 encodes both (`send_gmcp`, `send_mssp`) and refuses to send
either before the client agreed; this module decides what and to whom.
"""
from __future__ import annotations

import logging
from collections.abc import Sized
from typing import TYPE_CHECKING, Protocol

from server.config.model import CasinoConfig
from server.metrics import players

if TYPE_CHECKING:
    from telnetlib3.stream_writer import TelnetWriter

# telnetlib3.telopt's GMCP and MSSP, named here: the portal holds sessions (a
# browser's) and so imports this module, and loads no telnetlib3 (its memory).
GMCP = bytes([201])
MSSP = bytes([70])

log = logging.getLogger("casino.net")


class Channel(Protocol):
    """A session's GMCP channel as the casino uses it: the telnet edge's
    `Gmcp`, or the game process's stand-in for the portal's
    (server.portal.game.RemoteGmcp)."""

    last_table: dict[str, object] | None      # the table state sent last (server.tables.delivery)

    @property
    def enabled(self) -> bool: ...            # the client agreed to GMCP

    @property
    def modules(self) -> set[str] | None: ...  # what it named with Core.Supports (None: never said)

    def wants(self, package: str) -> bool: ...  # on, and the package's module named (or none named)

    def send(self, package: str, data: object) -> None: ...


class Gmcp:
    """One client's GMCP channel: whether it agreed, what it supports, and
    the last table state sent to it (so an unchanged state is not resent)."""

    def __init__(self, writer: TelnetWriter) -> None:
        self.writer = writer
        self.client: dict[str, str] = {}          # Core.Hello: client name and version
        self.modules: set[str] | None = None      # None until the client names its modules
        self.last_table: dict[str, object] | None = None

    @property
    def enabled(self) -> bool:
        option = getattr(self.writer, "local_option", None)
        return bool(option is not None and option.enabled(GMCP))

    def wants(self, package: str) -> bool:
        if not self.enabled:
            return False
        return self.modules is None or package.split(".")[0].lower() in self.modules

    def send(self, package: str, data: object) -> None:
        if self.wants(package):
            self.writer.send_gmcp(package, data)

    def receive(self, package: str, data: object) -> None:
        """Core.Hello and Core.Supports.Set/Add/Remove; anything else is ignored.
        `data` is whatever JSON the client sent (telnetlib3 decodes it)."""
        name = package.lower()
        if name == "core.hello" and isinstance(data, dict):
            self.client = {k: str(v)[:64] for k, v in list(data.items())[:8]}
        elif name.startswith("core.supports.") and isinstance(data, list):
            named = {str(item).split()[0].lower() for item in data[:64] if str(item).strip()}
            if name == "core.supports.set":
                self.modules = named | {"core"}
            elif name == "core.supports.add":
                self.modules = (self.modules or {"core"}) | named
            elif name == "core.supports.remove" and self.modules is not None:
                self.modules -= named


def gmcp_of(session: object) -> Channel | None:
    """The session's GMCP channel if it has one that is on (stand-in sessions have none)."""
    channel: Channel | None = getattr(session, "gmcp", None)
    return channel if channel is not None and channel.enabled else None


def wants(session: object, package: str) -> bool:
    """Whether the session's client takes `package` now: data it would drop is not made."""
    channel = gmcp_of(session)
    return channel is not None and channel.wants(package)


def send(session: object, package: str, data: object) -> None:
    channel = gmcp_of(session)
    if channel is not None:
        channel.send(package, data)


def mssp_enabled(writer: TelnetWriter | None) -> bool:
    option = getattr(writer, "local_option", None)
    return bool(option is not None and option.enabled(MSSP))


class Listed(Protocol):
    """What MSSP reads of the app: the operator's `mssp:` settings and live figures."""

    @property
    def config(self) -> CasinoConfig: ...

    @property
    def online(self) -> Sized: ...           # who is logged in (only counted)

    @property
    def started_at(self) -> float: ...       # epoch seconds, MSSP's UPTIME


def mssp_variables(app: Listed, port: int) -> dict[str, str | list[str]]:
    """What a MUD directory reads: the operator's `mssp:` settings and live figures
    (telnetlib3's send_mssp also takes a list of values for a variable; none is sent)."""
    info = app.config.settings.mssp
    return {
        "NAME": info.name,
        "PLAYERS": str(players(app.online)),        # as casino_players counts them
        "UPTIME": str(int(app.started_at)),
        "CODEBASE": "casino 0.1.0",
        "CONTACT": info.contact,
        "WEBSITE": info.website,
        "LANGUAGE": info.language,
        "LOCATION": info.location,
        "PORT": str(port),
        "GENRE": info.genre,
        "GAMEPLAY": info.gameplay,
        "STATUS": info.status,
        "FAMILY": "Custom",
        "ANSI": "1",
        "UTF-8": "1",
        "VT100": "0",
        "XTERM 256 COLORS": "0",
        "GMCP": "1",
        "MSSP": "1",
        "MCCP": "0",
        "MSDP": "0",
        "MXP": "0",
        "PUEBLO": "0",
        "PAY TO PLAY": "0",
        "PAY FOR PERKS": "0",
        "HIRING BUILDERS": "0",
        "HIRING CODERS": "0",
    }

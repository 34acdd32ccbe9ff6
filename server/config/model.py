"""The validated configuration as plain frozen data.

Loading and validation (server.config.load) turn YAML into these; everything
else in the server reads only these, never raw YAML, so a key is checked once.
Durations are seconds here; the table host turns them into ticks.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Source:
    """Where a value came from, for `file:line: key: problem` messages."""

    file: str
    line: int


@dataclass(frozen=True)
class Limits:
    max_line: int = 512             # characters in one input line; longer lines are dropped
    commands_per_second: int = 20   # per connection, with a burst of the same size
    connections_per_ip: int = 20
    login_timeout: int = 120        # seconds to finish logging in
    idle_timeout: int = 3600        # seconds without input before disconnect
    failed_logins_per_minute: int = 5   # per IP and per name, then throttled


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 4000
    tick_hz: int = 10                   # manager cadence: ticks per second
    starting_chips: int = 1000
    start_room: str = "lobby"
    operators: tuple[str, ...] = ()     # account names (case-insensitive) with operator rights
    connect_maxwait: float = 0.5        # seconds to wait for telnet negotiation before the banner
    limits: Limits = field(default_factory=Limits)


@dataclass(frozen=True)
class TableConfig:
    id: str
    game: str                   # the `game:` value; the catalogue says which package plays it
    max_players: int
    min_bet: int
    max_bet: int
    options: Any                # the game's own options dataclass (server/games/<game>/options.py)
    source: Source | None = None


@dataclass(frozen=True)
class RoomConfig:
    id: str
    name: str
    description: str
    exits: dict[str, str]       # direction word -> room id
    tables: tuple[str, ...] = ()
    source: Source | None = None


@dataclass(frozen=True)
class CasinoConfig:
    settings: Settings
    tables: dict[str, TableConfig]
    rooms: dict[str, RoomConfig]

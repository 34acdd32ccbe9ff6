"""The validated configuration as plain frozen data.

Loading and validation (server.config.load) turn YAML into these; everything
else in the server reads only these, never raw YAML, so a key is checked once.
Durations are seconds here; the table turns them into ticks.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Generic, Protocol, TypeVar


class GameOptions(Protocol):
    """A game's options as the rest of the casino carries them: opaque but for
    `variant`, which the catalogue reads to find the entry that plays a table.
    Only the game reads further, after its entry has narrowed the table's
    config to its own options class (TableConfig.narrowed)."""

    @property
    def variant(self) -> str | None:
        """Which of the game's variants (craps has several), or None."""


O = TypeVar("O", bound=GameOptions, covariant=True)
T = TypeVar("T", bound=GameOptions)


@dataclass(frozen=True)
class Source:
    """Where a value came from, for `file:line: key: problem` messages."""

    file: str
    line: int


@dataclass(frozen=True)
class Limits:
    """What one client may cost the others (docs/operating.md, "Limits")."""

    max_line: int = 512             # characters in one input line; longer lines are dropped
    commands_per_second: int = 20   # per connection, with a burst of the same size; the rest is dropped
    input_bytes_per_second: int = 16384   # bytes read from one connection a second; then reading pauses
    max_output: int = 1 << 20       # bytes queued to a client that does not read; then it is cut off
    connections_per_ip: int = 20    # open sockets from one address
    max_connections: int = 1000     # open sockets in all
    max_login_connections: int = 200   # open sockets not logged in yet
    login_connections_per_ip: int = 5  # of those, from one address
    http_timeout: int = 5           # seconds an HTTP connection to the page may wait for (or after) a request
    login_timeout: int = 120        # seconds from connecting to logging in
    idle_timeout: int = 3600        # seconds without input before disconnect
    failed_logins_per_minute: int = 5   # free failures per address and per (address, name), then delays
    login_delay_max: int = 300      # seconds: the longest wait after repeated failed logins
    accounts_per_ip_per_hour: int = 5   # new accounts from one address an hour
    hash_concurrency: int = 2       # password hashes computed at once (password_hash memory each)
    hash_queue: int = 32            # password checks waiting for a turn; beyond it "busy"
    hashes_per_ip: int = 4          # of those (running or waiting), from one address; beyond it "busy"
    game_silence: int = 15          # seconds a game process may not answer before its players are told


@dataclass(frozen=True)
class Mssp:
    """How the casino describes itself to MUD directories (MSSP, option 70)."""

    name: str = "The Casino"
    contact: str = ""
    website: str = ""
    language: str = "English"
    location: str = ""
    genre: str = "Modern"               # MSSP's list: Adult, Fantasy, Historical, Horror, Modern, ...
    gameplay: str = "Player versus Player"
    status: str = "Alpha"               # Alpha, Closed Beta, Open Beta, Live


@dataclass(frozen=True)
class PasswordHash:
    """Argon2id's cost for new hashes. The default is OWASP's recommended
    minimum (Password Storage Cheat Sheet, Argon2id: m=19 MiB, t=2, p=1);
    RFC 9106's second recommendation is m=65536, t=3, p=4."""

    memory_kib: int = 19456
    time_cost: int = 2
    parallelism: int = 1


@dataclass(frozen=True)
class Relief:
    """A way back from zero (`relief`): chips for a player who cannot make the
    smallest bet anywhere, at most once per `every_hours` (docs/config.md)."""

    amount: int = 100          # chips minted to the player's wallet
    every_hours: int = 24      # hours from one relief to the next, at the soonest


@dataclass(frozen=True)
class Metrics:
    """Where `/metrics` is served in the Prometheus text format (docs/operating.md,
    "Metrics"): the portal's port, and behind it each game process on the ports
    after it. Absent from the config: no metrics served."""

    host: str = "127.0.0.1"
    port: int = 9464


@dataclass(frozen=True)
class Shard:
    """A game process and the rooms it hosts (a table lives where its room is).
    `line` and `room_lines` say where the config names them, for the checks
    that need every room file (server/config/shards.py)."""

    name: str
    rooms: tuple[str, ...]
    line: int = field(default=0, compare=False)
    room_lines: tuple[int, ...] = field(default=(), compare=False)


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 4000
    web_port: int = 4080                # the browser page and its WebSocket (0: not served)
    web_origins: tuple[str, ...] = ()   # host[:port] names the page is reached by, besides `host`
    tick_hz: int = 10                   # manager cadence: ticks per second
    starting_chips: int = 1000
    start_room: str = "lobby"
    operators: tuple[str, ...] = ()     # account names (case-insensitive) with operator rights
    connect_maxwait: float = 0.5        # seconds to wait for telnet negotiation before the banner
    database: str = "sqlite:///data/casino.db"   # where chips and accounts live (server.db.Database)
    shards: tuple[Shard, ...] = ()      # none named: one shard hosting every room
    bus: str = ""                       # nats://host:port, the broker of the words that cross shards
    portals: int = 1                    # processes holding the connections, on one port (SO_REUSEPORT)
    log_format: str = "text"            # "text" (key=value) or "json" (one object a line); --log-json is json
    metrics: Metrics | None = None      # None: no /metrics served
    limits: Limits = field(default_factory=Limits)
    mssp: Mssp = field(default_factory=Mssp)
    password_hash: PasswordHash = field(default_factory=PasswordHash)
    relief: Relief = field(default_factory=Relief)


@dataclass(frozen=True)
class TableConfig(Generic[O]):
    """One table as configured. `options` is its game's own options dataclass
    (server/games/<game>/options.py): the casino carries a TableConfig[GameOptions],
    and the game's entry narrows it (`narrowed`) once, where its dealer is made."""

    id: str
    game: str                   # the `game:` value; the catalogue says which package plays it
    max_players: int
    min_bet: int
    max_bet: int
    options: O
    source: Source | None = None

    def narrowed(self, kind: type[T]) -> "TableConfig[T]":
        """This table with its options typed as `kind`, the game's options class."""
        options = self.options
        if not isinstance(options, kind):
            raise TypeError(f"table {self.id} has {type(options).__name__}, not {kind.__name__}")
        return TableConfig(self.id, self.game, self.max_players, self.min_bet, self.max_bet, options,
                           self.source)


@dataclass(frozen=True)
class RoomConfig:
    id: str
    name: str
    description: str
    exits: dict[str, str]       # direction word -> room id
    tables: tuple[str, ...] = ()
    source: Source | None = None
    things: dict[str, str] = field(default_factory=dict)   # what `look <thing>`/`read <thing>` show: name -> text


@dataclass(frozen=True)
class CasinoConfig:
    settings: Settings
    tables: dict[str, TableConfig[GameOptions]]
    rooms: dict[str, RoomConfig]


D = TypeVar("D")
_PARTS: dict[str, type[Limits] | type[Mssp] | type[PasswordHash] | type[Relief] | type[Metrics]] = {
    "limits": Limits, "mssp": Mssp, "password_hash": PasswordHash, "relief": Relief, "metrics": Metrics}


def plain_settings(settings: Settings) -> dict[str, object]:
    """Settings as JSON's plain values: how the portal is told them (it reads no YAML)."""
    return dataclasses.asdict(settings)


def settings_from_plain(plain: dict[str, object]) -> Settings:
    """plain_settings turned back (JSON's lists are the tuples they were). Its input
    is plain_settings' output, written by this same code: nothing to check."""
    def made(cls: type[D], values: dict[str, object]) -> D:
        fields = {k: tuple(v) if isinstance(v, list) else v for k, v in values.items()}
        return cls(**fields)

    return made(Settings, {k: made(_PARTS[k], v) if k in _PARTS and isinstance(v, dict) else v
                           for k, v in plain.items()})

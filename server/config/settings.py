"""The `server:` section: network, cadence, starting chips, operators, limits."""
from __future__ import annotations

import re

from server.config.errors import Report
from server.config.fields import expect_map, read_fields
from server.config.keys import Field, Problem, as_float, as_id, as_int, as_text, describe
from server.config.model import Limits, Metrics, Mssp, PasswordHash, Relief, Settings
from server.config.shards import as_bus, as_shards, check_settings
from server.config.yamlsrc import YList

NAME_RE = re.compile(r"^[A-Za-z0-9_]{3,20}$")   # account names (docs/running.md "Accounts")


def as_names(value: object, raw: str | None = None) -> tuple[str, ...]:
    """Operator account names, lower-cased: names are unique ignoring case."""
    if not isinstance(value, YList):
        raise Problem(f"must be a list of account names, not {describe(value)}")
    names: list[str] = []
    for item, line in zip(value, value.item_line):
        if not isinstance(item, str) or not NAME_RE.match(item):
            raise Problem(f"{describe(item)} is not an account name (3-20 letters, digits or _)", line)
        if item.lower() in names:
            raise Problem(f"{item!r} is listed twice", line)
        names.append(item.lower())
    return tuple(names)


_ORIGIN_RE = re.compile(r"^[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?$")


def as_origins(value: object, raw: str | None = None) -> tuple[str, ...]:
    """Names (host or host:port, lower-cased) a browser may reach the page by."""
    if not isinstance(value, YList):
        raise Problem(f"must be a list of host names (host or host:port), not {describe(value)}")
    names: list[str] = []
    for item, line in zip(value, value.item_line):
        if not isinstance(item, str) or not _ORIGIN_RE.match(item):
            raise Problem(f"{describe(item)} is not a host name (host or host:port)", line)
        names.append(item.lower())
    return tuple(names)


def as_database(value: object, raw: str | None = None) -> str:
    """A database URL, checked as `casino serve` will read it, so a typo is a
    config error at `validate` or `reload` rather than a failed start."""
    from server.db.url import Database, DatabaseError
    text = as_text(value, raw)
    try:
        Database.parse(text)
    except DatabaseError as exc:
        raise Problem(str(exc)) from None
    return text.strip()


DEFAULT = Settings()
DEFAULT_LIMITS = Limits()

SERVER_FIELDS = (
    Field("host", as_text, DEFAULT.host),
    Field("port", as_int, DEFAULT.port, 0, 65535),
    Field("web_port", as_int, DEFAULT.web_port, 0, 65535),
    Field("web_origins", as_origins, DEFAULT.web_origins),
    Field("tick_hz", as_int, DEFAULT.tick_hz, 1, 100),
    Field("starting_chips", as_int, DEFAULT.starting_chips, 0, 1_000_000_000),
    Field("start_room", as_id, DEFAULT.start_room),
    Field("operators", as_names, DEFAULT.operators),
    Field("connect_maxwait", as_float, DEFAULT.connect_maxwait, 0.0, 10.0),
    Field("database", as_database, DEFAULT.database),
    Field("shards", as_shards, DEFAULT.shards),
    Field("bus", as_bus, DEFAULT.bus),
    Field("portals", as_int, DEFAULT.portals, 1, 16),
    Field("log_format", as_text, DEFAULT.log_format, choices=("text", "json")),
)

LIMIT_FIELDS = (
    Field("max_line", as_int, DEFAULT_LIMITS.max_line, 64, 65536),
    Field("commands_per_second", as_int, DEFAULT_LIMITS.commands_per_second, 1, 1000),
    Field("input_bytes_per_second", as_int, DEFAULT_LIMITS.input_bytes_per_second, 1024, 100_000_000),
    Field("max_output", as_int, DEFAULT_LIMITS.max_output, 65536, 1 << 30),
    Field("connections_per_ip", as_int, DEFAULT_LIMITS.connections_per_ip, 1, 10000),
    Field("max_connections", as_int, DEFAULT_LIMITS.max_connections, 1, 1_000_000),
    Field("max_login_connections", as_int, DEFAULT_LIMITS.max_login_connections, 1, 1_000_000),
    Field("login_connections_per_ip", as_int, DEFAULT_LIMITS.login_connections_per_ip, 1, 10000),
    Field("http_timeout", as_int, DEFAULT_LIMITS.http_timeout, 1, 3600),
    Field("login_timeout", as_int, DEFAULT_LIMITS.login_timeout, 1, 86400),
    Field("idle_timeout", as_int, DEFAULT_LIMITS.idle_timeout, 1, 604800),
    Field("failed_logins_per_minute", as_int, DEFAULT_LIMITS.failed_logins_per_minute, 1, 1000),
    Field("login_delay_max", as_int, DEFAULT_LIMITS.login_delay_max, 1, 86400),
    Field("accounts_per_ip_per_hour", as_int, DEFAULT_LIMITS.accounts_per_ip_per_hour, 1, 100000),
    Field("hash_concurrency", as_int, DEFAULT_LIMITS.hash_concurrency, 1, 64),
    Field("hash_queue", as_int, DEFAULT_LIMITS.hash_queue, 1, 100000),
    Field("hashes_per_ip", as_int, DEFAULT_LIMITS.hashes_per_ip, 1, 100000),
    Field("game_silence", as_int, DEFAULT_LIMITS.game_silence, 1, 3600),
)


DEFAULT_MSSP = Mssp()


def as_words(value: object, raw: str | None = None) -> str:
    """A line of text for a directory listing ('' allowed); no control characters."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise Problem(f"must be text, not {describe(value)}")
    if len(value) > 200 or any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise Problem("must be one line of at most 200 characters")
    return value


MSSP_FIELDS = tuple(Field(name, as_words, getattr(DEFAULT_MSSP, name))
                    for name in ("name", "contact", "website", "language", "location"))
MSSP_FIELDS += (
    Field("genre", as_words, DEFAULT_MSSP.genre,
          choices=("Adult", "Fantasy", "Historical", "Horror", "Modern", "None", "Science Fiction")),
    Field("gameplay", as_words, DEFAULT_MSSP.gameplay),
    Field("status", as_words, DEFAULT_MSSP.status, choices=("Alpha", "Closed Beta", "Open Beta", "Live")),
)


DEFAULT_HASH = PasswordHash()
HASH_FIELDS = (
    Field("memory_kib", as_int, DEFAULT_HASH.memory_kib, 7168, 1_048_576),
    Field("time_cost", as_int, DEFAULT_HASH.time_cost, 1, 20),
    Field("parallelism", as_int, DEFAULT_HASH.parallelism, 1, 16),
)


DEFAULT_RELIEF = Relief()
RELIEF_FIELDS = (
    Field("amount", as_int, DEFAULT_RELIEF.amount, 1, 1_000_000_000),
    Field("every_hours", as_int, DEFAULT_RELIEF.every_hours, 1, 8784),    # a leap year at most
)


DEFAULT_METRICS = Metrics()
METRICS_FIELDS = (
    Field("host", as_text, DEFAULT_METRICS.host),
    Field("port", as_int, DEFAULT_METRICS.port, 0, 65535),
)


def read_settings(report: Report, value: object, line: int) -> tuple[Settings, dict[str, int]]:
    """Settings from the `server:` value, and the line of each key given (the
    checks that need the room files blame start_room's or shards' line)."""
    section = expect_map(report, value, line, "server")
    if section is None:
        return DEFAULT, {}
    values = read_fields(report, section, SERVER_FIELDS, "server", skip=("limits", "mssp", "password_hash", "relief",
                                                                         "metrics"))
    limits = DEFAULT_LIMITS
    if "limits" in section:
        sub = expect_map(report, section["limits"], section.key_line["limits"], "server.limits")
        if sub is not None:
            limits = Limits(**read_fields(report, sub, LIMIT_FIELDS, "server.limits"))
    mssp = DEFAULT_MSSP
    if "mssp" in section:
        sub = expect_map(report, section["mssp"], section.key_line["mssp"], "server.mssp")
        if sub is not None:
            mssp = Mssp(**read_fields(report, sub, MSSP_FIELDS, "server.mssp"))
    cost = DEFAULT_HASH
    if "password_hash" in section:
        sub = expect_map(report, section["password_hash"], section.key_line["password_hash"],
                         "server.password_hash")
        if sub is not None:
            cost = PasswordHash(**read_fields(report, sub, HASH_FIELDS, "server.password_hash"))
    relief = DEFAULT_RELIEF
    if "relief" in section:
        sub = expect_map(report, section["relief"], section.key_line["relief"], "server.relief")
        if sub is not None:
            relief = Relief(**read_fields(report, sub, RELIEF_FIELDS, "server.relief"))
    metrics = None
    if "metrics" in section:
        sub = expect_map(report, section["metrics"], section.key_line["metrics"], "server.metrics")
        metrics = Metrics(**read_fields(report, sub, METRICS_FIELDS, "server.metrics")) if sub is not None else None
    settings = Settings(**values, limits=limits, mssp=mssp, password_hash=cost, relief=relief, metrics=metrics)
    if values.ok("shards", "database", "bus"):
        for at, key, problem in check_settings(settings, section.key_line.get("shards", line)):
            report.error(at, key, problem)
    return settings, dict(section.key_line)

"""`server.shards` and `server.bus`: which game process hosts which rooms.

A shard is a game process that owns a set of rooms, and so their tables
(docs/architecture.md, "Shards"). The operator lays rooms on shards in
config/server.yaml:

    server:
      shards:
        floor: [lobby, bank_craps, roulette_room]
        back: [pig_room, alley]
      bus: nats://127.0.0.1:4222

Naming none is one shard hosting every room: today's casino, on SQLite or
PostgreSQL. More than one needs PostgreSQL (each shard writes the ledger
through its own writer; SQLite has one) and the broker the words that cross
shards travel on. The checks that need every room file (each room on exactly
one shard) run with the rest of the cross-file checks (`check_rooms`).
"""
from __future__ import annotations

from typing import Iterable
from urllib.parse import urlsplit

from server.config.errors import ConfigError
from server.config.keys import ID_RE, Problem, describe, did_you_mean
from server.config.model import Settings, Shard
from server.config.yamlsrc import YList, YMap

ONE = "main"                   # the name of the one shard when none is named
NATS_PORT = 4222               # NATS's own default port


def as_shards(value: object, raw: str | None = None) -> tuple[Shard, ...]:
    """Shard names, each with the room ids it hosts; a room on two shards is refused here."""
    if not isinstance(value, YMap):
        raise Problem(f"must be a mapping of shard names to lists of room ids, not {describe(value)}")
    shards: list[Shard] = []
    where: dict[str, str] = {}
    for name, rooms in value.items():
        line = value.key_line[name]
        if not ID_RE.match(name):
            raise Problem(f"{name!r} is not a shard name: use 1 to 40 letters, digits, _ or -", line)
        if not isinstance(rooms, YList) or not rooms:
            shown = "an empty list" if isinstance(rooms, YList) else describe(rooms)
            raise Problem(f"shard {name!r} must list the room ids it hosts, not {shown}", line)
        ids: list[str] = []
        for i, (room, room_line) in enumerate(zip(rooms, rooms.item_line)):
            room = rooms.raw[i] if isinstance(room, int) and not isinstance(room, bool) else room
            if not isinstance(room, str) or not ID_RE.match(room):
                raise Problem(f"{describe(room)} is not a room id", room_line)
            if room in where:
                raise Problem(f"room {room!r} is on shard {where[room]!r} already; a room is on one shard",
                              room_line)
            where[room] = name
            ids.append(room)
        shards.append(Shard(name, tuple(ids), line, tuple(rooms.item_line)))
    if not shards:
        raise Problem("names no shard; leave server.shards out for one shard hosting every room")
    return tuple(shards)


def as_bus(value: object, raw: str | None = None) -> str:
    """The broker's URL, nats://host[:port] (port 4222 if left out)."""
    if not isinstance(value, str) or not value.strip():
        raise Problem(f"must be a broker URL, nats://host:port, not {describe(value)}")
    text = value.strip()
    parts = urlsplit(text)
    try:
        port = parts.port
    except ValueError:
        raise Problem(f"{text!r}: the port must be a number from 1 to 65535") from None
    if parts.scheme != "nats" or not parts.hostname or parts.path.strip("/") or parts.query:
        raise Problem(f"{text!r} is not a NATS broker URL: write nats://host:port")
    return f"nats://{parts.netloc}" if port else f"nats://{parts.netloc}:{NATS_PORT}"


def sharded(settings: Settings) -> bool:
    """Whether the casino runs on more than one game process."""
    return len(settings.shards) > 1


def sqlite_refusal(settings: Settings) -> str:
    """Why these shards cannot run on SQLite ('' when they can)."""
    if not sharded(settings):
        return ""
    return (f"{len(settings.shards)} shards need PostgreSQL (server.database: postgresql://...): "
            "each shard writes the ledger, and an SQLite file has one writer")


def check_settings(settings: Settings, line: int) -> list[tuple[int, str, str]]:
    """What the shards ask of the other server keys: (line, key, problem) each."""
    from server.db.url import SQLITE, Database, DatabaseError
    problems: list[tuple[int, str, str]] = []
    if not sharded(settings):
        return problems
    try:
        on_sqlite = Database.parse(settings.database).kind == SQLITE
    except DatabaseError:
        on_sqlite = False          # server.database's own error says it
    if on_sqlite:
        problems.append((line, "server.shards", sqlite_refusal(settings)))
    if not settings.bus:
        problems.append((line, "server.shards",
                         f"{len(settings.shards)} shards need server.bus (nats://host:port): "
                         "`who`, `tell` and the operator commands cross shards on it"))
    return problems


def check_rooms(settings: Settings, file: str, line: int, rooms: Iterable[str]) -> list[ConfigError]:
    """Every room on exactly one shard, and every room a shard names exists
    (a room on two shards is `as_shards`'s)."""
    if not settings.shards:
        return []
    known = set(rooms)
    errors: list[ConfigError] = []
    placed: set[str] = set()
    for shard in settings.shards:
        for i, (room, room_line) in enumerate(zip(shard.rooms, shard.room_lines)):
            placed.add(room)
            if room not in known:
                errors.append(ConfigError(file, room_line, f"server.shards.{shard.name}[{i}]",
                                          f"no room {room!r}" + did_you_mean(room, known)))
    missing = sorted(known - placed)
    if missing:
        listed = ", ".join(repr(r) for r in missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
        errors.append(ConfigError(file, line, "server.shards",
                                  f"room{'s' if len(missing) > 1 else ''} {listed} on no shard; "
                                  "list every room under one shard"))
    return errors


def shard_of(settings: Settings, rooms: Iterable[str]) -> dict[str, str]:
    """Each room's shard by name (every room on ONE when no shards are named)."""
    if not settings.shards:
        return {room: ONE for room in rooms}
    return {room: shard.name for shard in settings.shards for room in shard.rooms}


def rooms_of(settings: Settings, shard: str) -> frozenset[str] | None:
    """The rooms `shard` hosts, or None for every room (no shards named)."""
    if not settings.shards:
        return None
    for named in settings.shards:
        if named.name == shard:
            return frozenset(named.rooms)
    return frozenset()


def names(settings: Settings) -> list[str]:
    """The shards' names, in the config's order (ONE when none is named)."""
    return [shard.name for shard in settings.shards] or [ONE]


def door(settings: Settings) -> str:
    """The shard a new connection starts on: the one hosting the start room, where
    everyone logs in (ONE when none or one is named; the first if no shard names it)."""
    if not sharded(settings):
        return ONE
    for shard in settings.shards:
        if settings.start_room in shard.rooms:
            return shard.name
    return names(settings)[0]

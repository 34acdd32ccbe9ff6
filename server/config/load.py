"""Turn config/ and rooms/ into a CasinoConfig, or say everything that is wrong.

    cfg = load_config(Path("config"), Path("rooms"))   # raises ConfigInvalid

Every *.yaml / *.yml file in the config directory may hold the top-level keys
`server` and `casino_tables` (each in one file only); every *.yaml / *.yml
file in the rooms directory is one room. Files are checked one by one, then
together (ids unique, exits lead to a room that has a way back, each table
in exactly one room, each room on exactly one shard, the start room exists). All problems are collected,
sorted by file and line, and raised at once, so the server never starts on a
half-checked casino.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from server.config.errors import ConfigError, ConfigInvalid, Report
from server.config.fields import expect_map
from server.config.keys import did_you_mean
from server.config.model import CasinoConfig, GameOptions, Settings, TableConfig
from server.config.rooms import RoomDraft, read_room
from server.config.settings import read_settings
from server.config.shards import check_rooms
from server.config.yamlsrc import read_yaml

__all__ = ["load_config", "load_settings", "ConfigInvalid", "ConfigError"]

TOP_KEYS = ("server", "casino_tables")
SUFFIXES = (".yaml", ".yml")


def load_config(config_dir: Path | str, rooms_dir: Path | str) -> CasinoConfig:
    """The validated casino, or ConfigInvalid listing every problem found."""
    errors: list[ConfigError] = []
    config = _read_config_dir(Path(config_dir), errors)
    drafts, all_rooms = _read_rooms_dir(Path(rooms_dir), errors)
    rooms = _unique_rooms(drafts, errors)
    _check_together(config, rooms, all_rooms, Path(config_dir), errors)
    settings, tables = config.settings, config.tables
    if errors:
        raise ConfigInvalid(sorted(errors, key=lambda e: (e.file, e.line)))
    return CasinoConfig(settings=settings,
                        tables={t.id: t for t in tables},
                        rooms={d.room.id: d.room for d in rooms.values()})


def load_settings(config_dir: Path | str) -> Settings:
    """The `server:` settings alone, for what needs no rooms or tables (`casino
    ledger check` finds the database this way; the portal listens by them):
    `casino_tables` is not read, so no game module is imported. ConfigInvalid
    lists every problem of the settings and of the files' YAML."""
    errors: list[ConfigError] = []
    config = _read_config_dir(Path(config_dir), errors, tables=False)
    if errors:
        raise ConfigInvalid(sorted(errors, key=lambda e: (e.file, e.line)))
    return config.settings


def _files(directory: Path, errors: list[ConfigError]) -> list[Path]:
    if not directory.is_dir():
        errors.append(ConfigError(str(directory), 0, "(directory)", "not found or not a directory"))
        return []
    return sorted(p for p in directory.iterdir()
                  if p.suffix in SUFFIXES and not p.name.startswith(".") and p.is_file())


@dataclass
class _ConfigDir:
    """What the config directory gave: settings, where start_room was set, tables,
    and whether every table entry was usable (else cross-checks would mislead)."""

    settings: Settings = field(default_factory=Settings)
    start_at: tuple[str, int] | None = None
    shards_at: tuple[str, int] | None = None
    tables: list[TableConfig[GameOptions]] = field(default_factory=list)
    all_tables: bool = True
    complete: bool = True


def _read_config_dir(directory: Path, errors: list[ConfigError], tables: bool = True) -> _ConfigDir:
    seen: dict[str, tuple[str, int]] = {}
    out = _ConfigDir()
    for path in _files(directory, errors):
        report = Report(str(path), errors)
        doc, ok = read_yaml(path, report)
        top = expect_map(report, doc, 1, "") if ok else None
        if top is None:
            out.complete = False    # it may have held the tables or start_room
            continue
        for key, value in top.items():
            line = top.key_line[key]
            if key not in TOP_KEYS:
                report.error(line, key, "unknown top-level key" + did_you_mean(key, TOP_KEYS)
                             + "; a config file holds " + " and ".join(TOP_KEYS))
            elif key in seen:
                first_file, first_line = seen[key]
                report.error(line, key, f"already set in {first_file}:{first_line}; "
                                        "a top-level key may appear in only one file")
            else:
                seen[key] = (report.file, line)
                if key == "server":
                    out.settings, lines = read_settings(report, value, line)
                    out.start_at = (report.file, lines.get("start_room", line))
                    out.shards_at = (report.file, lines.get("shards", line))
                elif tables:
                    from server.config.tables import read_tables   # the game modules: only here
                    read, out.all_tables = read_tables(report, value, line)
                    out.tables = _unique_tables(report, read)
    return out


def _unique_tables(report: Report, tables: list[TableConfig[GameOptions]]) -> list[TableConfig[GameOptions]]:
    kept: dict[str, TableConfig[GameOptions]] = {}
    for table in tables:
        first = kept.get(table.id)
        if first is not None and first.source and table.source:
            report.error(table.source.line, f"casino_tables[{table.id}].id",
                         f"duplicate table id (first at line {first.source.line})")
            continue
        kept[table.id] = table
    return list(kept.values())


def _read_rooms_dir(directory: Path, errors: list[ConfigError]) -> tuple[list[RoomDraft], bool]:
    """The rooms read, and whether every room file gave one."""
    drafts = []
    files = _files(directory, errors)
    if directory.is_dir() and not files:
        errors.append(ConfigError(str(directory), 0, "(directory)", "no room files (*.yaml)"))
    for path in files:
        report = Report(str(path), errors)
        doc, ok = read_yaml(path, report)
        if ok:
            draft = read_room(report, doc)
            if draft is not None:
                drafts.append(draft)
    return drafts, len(drafts) == len(files)


def _unique_rooms(drafts: list[RoomDraft], errors: list[ConfigError]) -> dict[str, RoomDraft]:
    rooms: dict[str, RoomDraft] = {}
    for draft in drafts:
        first = rooms.get(draft.room.id)
        if first is not None:
            errors.append(ConfigError(draft.file, draft.id_line, "id",
                                      f"duplicate room id {draft.room.id!r} "
                                      f"(also in {first.file}:{first.id_line})"))
            continue
        rooms[draft.room.id] = draft
    return rooms


def _check_together(config: _ConfigDir, rooms: dict[str, RoomDraft], all_rooms: bool,
                    config_dir: Path, errors: list[ConfigError]) -> None:
    """The checks that need every file: exits, table placement, the start room.

    A check that needs the complete set of rooms (or tables) is skipped when a
    file could not be read: its errors are already reported, and "no room x"
    for a room whose file merely has a typo would only mislead.
    """
    if all_rooms:
        _check_exits(rooms, errors)
    table_ids = {t.id for t in config.tables}
    placed: dict[str, RoomDraft] = {}
    for draft in rooms.values():
        for i, (table_id, line) in enumerate(zip(draft.room.tables, draft.table_lines)):
            key = f"tables[{i}]"
            if table_id not in table_ids:
                if not (config.all_tables and config.complete):
                    continue
                errors.append(ConfigError(draft.file, line, key,
                                          f"no table {table_id!r} in casino_tables"
                                          + did_you_mean(table_id, table_ids)))
            elif table_id in placed:
                other = placed[table_id]
                errors.append(ConfigError(draft.file, line, key,
                                          f"table {table_id!r} is already in room "
                                          f"{other.room.id!r} ({other.file})"))
            else:
                placed[table_id] = draft
    for table in config.tables:
        if all_rooms and table.id not in placed and table.source is not None:
            errors.append(ConfigError(table.source.file, table.source.line,
                                      f"casino_tables[{table.id}]",
                                      "in no room; list it under tables: in one room file"))
    settings = config.settings
    if all_rooms and config.shards_at is not None:
        errors.extend(check_rooms(settings, *config.shards_at, rooms))
    if rooms and all_rooms and config.complete and settings.start_room not in rooms:
        file, line = config.start_at or (str(config_dir), 0)
        errors.append(ConfigError(file, line, "server.start_room",
                                  f"no room {settings.start_room!r}"
                                  + did_you_mean(settings.start_room, rooms)))


def _check_exits(rooms: dict[str, RoomDraft], errors: list[ConfigError]) -> None:
    """Every exit leads to a room, and that room has an exit back (in any direction).

    A one-way exit strands whoever takes it (players only walk; logging in
    again is the only way back), so it is refused at the line of the exit. The
    way back is not asked of a room whose own exits have a problem (an entry
    that is not an exit, or one to no room): that one may be the way back
    mistyped, and its error is already reported.
    """
    sound = {room_id for room_id, draft in rooms.items()
             if draft.exits_whole and all(t in rooms for t in draft.room.exits.values())}
    for draft in rooms.values():
        here = draft.room.id
        for direction, target in draft.room.exits.items():
            line, key = draft.exit_lines[direction], f"exits.{direction}"
            there = rooms.get(target)
            if there is None:
                errors.append(ConfigError(draft.file, line, key,
                                          f"no room {target!r}" + did_you_mean(target, rooms)))
            elif target in sound and here not in there.room.exits.values():
                errors.append(ConfigError(draft.file, line, key,
                                          f"one-way: room {target!r} has no exit back to {here!r}; "
                                          f"add one in {there.file}"))

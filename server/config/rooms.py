"""One room file: id, name, description, exits, the tables placed in it, and
the things its description names that a player may look at or read
(`things:`, a name -> its text; `look slate`, `read slate`).

Exits are stored under full direction words; the short forms players type
(n, s, e, w, u, d, ne, nw, se, sw) are accepted in files too and widened here,
so the rest of the server only ever sees `north`, never `n`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from server.config.errors import Report
from server.config.fields import expect_list, expect_map, read_fields
from server.config.keys import Field, Problem, as_id, as_text, did_you_mean
from server.config.model import RoomConfig, Source
from server.config.yamlsrc import YMap

DIRECTIONS = ("north", "south", "east", "west", "up", "down",
              "northeast", "northwest", "southeast", "southwest", "in", "out")
ALIASES = {"n": "north", "s": "south", "e": "east", "w": "west", "u": "up", "d": "down",
           "ne": "northeast", "nw": "northwest", "se": "southeast", "sw": "southwest"}


def as_name(value: object, raw: str | None = None) -> str:
    name = as_text(value, raw)
    if "\n" in name.strip() or len(name) > 60:
        raise Problem("must be one line of at most 60 characters")
    return name.strip()


ROOM_FIELDS = (
    Field("id", as_id),
    Field("name", as_name),
    Field("description", as_text),
)


@dataclass(frozen=True)
class RoomDraft:
    """A room and the lines of its parts, for the checks across files."""

    room: RoomConfig
    file: str
    id_line: int
    exit_lines: dict[str, int]      # direction word -> line
    table_lines: tuple[int, ...]    # one per entry of room.tables
    exits_whole: bool = True        # every exit entry was usable (else a way back may be the broken one)


def read_room(report: Report, doc: object) -> RoomDraft | None:
    """The room in one file, or None if it has no usable id."""
    top = expect_map(report, doc, 1, "")
    if top is None:
        return None
    values = read_fields(report, top, ROOM_FIELDS, "", skip=("exits", "tables", "things"))
    exits, exit_lines, exits_whole = _exits(report, top)
    tables, table_lines = _tables(report, top)
    things = _things(report, top)
    if not values.ok("id"):
        return None
    room = RoomConfig(id=values["id"], name=values["name"] or values["id"],
                      description=(values["description"] or "").strip(),
                      exits=exits, tables=tables, source=Source(report.file, top.line), things=things)
    return RoomDraft(room, report.file, top.key_line["id"], exit_lines, table_lines, exits_whole)


def _exits(report: Report, top: YMap) -> tuple[dict[str, str], dict[str, int], bool]:
    """The exits, their lines, and whether every entry was usable."""
    section = expect_map(report, top.get("exits"), top.key_line.get("exits", top.line), "exits")
    exits: dict[str, str] = {}
    lines: dict[str, int] = {}
    if section is None:
        return exits, lines, False
    for word, target in section.items():
        line, key = section.key_line[word], f"exits.{word}"
        direction = ALIASES.get(word.lower(), word.lower())
        if direction not in DIRECTIONS:
            report.error(line, key, "not a direction; use one of " + ", ".join(DIRECTIONS)
                         + did_you_mean(word.lower(), DIRECTIONS))
            continue
        if direction in exits:
            report.error(line, key, f"{direction} is already an exit (line {lines[direction]})")
            continue
        try:
            exits[direction] = as_id(target, section.raw[word])
        except Problem as exc:
            report.error(line, key, str(exc))
            continue
        lines[direction] = line
    return exits, lines, len(exits) == len(section)


def _tables(report: Report, top: YMap) -> tuple[tuple[str, ...], tuple[int, ...]]:
    listed = expect_list(report, top.get("tables"), top.key_line.get("tables", top.line), "tables")
    ids: list[str] = []
    lines: list[int] = []
    if listed is None:
        return (), ()
    for i, item in enumerate(listed):
        line, key = listed.item_line[i], f"tables[{i}]"
        try:
            table_id = as_id(item, listed.raw[i])
        except Problem as exc:
            report.error(line, key, str(exc))
            continue
        if table_id in ids:
            report.error(line, key, f"{table_id!r} is listed twice")
            continue
        ids.append(table_id)
        lines.append(line)
    return tuple(ids), tuple(lines)


THING_NAME = re.compile(r"^[a-z][a-z0-9_-]{0,19}$")


def _things(report: Report, top: YMap) -> dict[str, str]:
    """`things:`: each a name a player types (one lower-case word) and its text."""
    section = expect_map(report, top.get("things"), top.key_line.get("things", top.line), "things")
    things: dict[str, str] = {}
    if section is None:
        return things
    for name, text in section.items():
        line, key = section.key_line[name], f"things.{name}"
        if not THING_NAME.match(name):
            report.error(line, key, "a thing's name is one lower-case word of at most 20 letters, "
                                    "digits, '-' or '_', as a player types it")
            continue
        try:
            things[name] = " ".join(as_text(text, section.raw[name]).split())
        except Problem as exc:
            report.error(line, key, str(exc))
    return things

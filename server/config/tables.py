"""The `casino_tables:` list: one TableConfig per entry, each key checked.

Every table has `id` and `game`; the rest is read by the game itself, from
the keys its package declares (server/games/<game>/options.py, listed in the
game catalogue). This module hands each game an OptionsReader over its entry
and says where keys that belong to another game do belong.
"""
from __future__ import annotations


from server.config.errors import Report
from server.config.fields import Values, empty_map, expect_list, expect_map, key_path, read_fields
from server.config.keys import Field, as_id
from server.config.model import GameOptions, Source, TableConfig
from server.config.yamlsrc import YMap
from server.games.catalogue import table_keys
from server.games.seam import TableKeys


class EntryReader:
    """An OptionsReader over one table entry (or a section of it): problems go
    to the report with the file, line and the key's full path."""

    def __init__(self, report: Report, m: YMap, path: str, elsewhere: dict[str, str],
                 skip: tuple[str, ...] = ()) -> None:
        self.report, self.m, self.path = report, m, path
        self.elsewhere, self.skip = elsewhere, skip

    def read(self, rows: tuple[Field, ...], *, skip: tuple[str, ...] = (),
             notes: dict[str, str] | None = None) -> Values:
        return read_fields(self.report, self.m, rows, self.path,
                           elsewhere={**self.elsewhere, **(notes or {})}, skip=(*self.skip, *skip))

    def section(self, key: str) -> "EntryReader":
        path = key_path(self.path, key)
        line = self.m.key_line.get(key, self.m.line)
        sub = expect_map(self.report, self.m.get(key), line, path)
        if sub is None:                     # reported; read on with the defaults
            sub = empty_map(line)
        return EntryReader(self.report, sub, path, {})

    def has(self, key: str) -> bool:
        return key in self.m

    def error(self, key: str, message: str) -> None:
        self.report.error(self.m.key_line.get(key, self.m.line), key_path(self.path, key), message)


def _elsewhere(game: str, games: dict[str, TableKeys]) -> dict[str, str]:
    """For a table of `game`: what to say about keys that belong to another game."""
    mine = games[game]
    owners: dict[str, list[str]] = {}
    for other, keys in games.items():
        for key in keys.top:
            if other != game and key not in mine.top:
                owners.setdefault(key, []).append(other)
    return {key: f"only for game {' or '.join(them)}" + (f"; {mine.hints[key]}" if key in mine.hints
                                                          else f", not {game}")
            for key, them in owners.items()}


ID_FIELD = (Field("id", as_id),)


def game_field() -> Field:
    """`game:`, whose values are the catalogue's."""
    return Field("game", as_id, choices=tuple(table_keys()))


def read_table(report: Report, entry: object, index: int, line: int) -> TableConfig[GameOptions] | None:
    """One entry of casino_tables, or None if its id or game is unusable.

    The id is read first so later messages can name the table by it; the game
    next, so the rest is read against that game's keys.
    """
    path = f"casino_tables[{index}]"
    entry = expect_map(report, entry, line, path)
    if entry is None:
        return None
    ident = read_fields(report, _only(entry, "id"), ID_FIELD, path)
    if ident.ok("id"):
        path = f"casino_tables[{ident['id']}]"
    games = table_keys()
    game = read_fields(report, _only(entry, "game"), (game_field(),), path)
    if not game.ok("game"):
        return None
    name = game["game"]
    built = games[name].read(EntryReader(report, entry, path, _elsewhere(name, games), ("id", "game")))
    if not ident.ok("id"):
        return None
    return TableConfig(id=ident["id"], game=name, max_players=built.max_players,
                       min_bet=built.min_bet, max_bet=built.max_bet, options=built.options,
                       source=Source(report.file, entry.line))


def _only(entry: YMap, key: str) -> YMap:
    """The entry cut down to one key, to read it before the others."""
    only = YMap({key: entry[key]} if key in entry else {})
    only.line = entry.line
    only.key_line = {k: entry.key_line[k] for k in only}
    only.raw = {k: entry.raw[k] for k in only}
    return only


def read_tables(report: Report, value: object, line: int) -> tuple[list[TableConfig[GameOptions]], bool]:
    """Every usable table of the casino_tables list, in file order, and whether
    that is all of them (an entry without a usable id or game is left out)."""
    entries = expect_list(report, value, line, "casino_tables")
    if entries is None:
        return [], False
    tables = []
    for i, entry in enumerate(entries):
        table = read_table(report, entry, i, entries.item_line[i])
        if table is not None:
            tables.append(table)
    return tables, len(tables) == len(entries)

"""The `casino_tables:` list: one TableConfig per entry, each key checked.

Every table has `id` and `game`; the rest depends on the game. Bank and
simplified craps keep their rules under `craps:` (the shape of spec 004);
alley craps and Pig keep theirs at the top of the entry. Keys that are
valid for another game or variant are named as such, not just "unknown".
"""
from __future__ import annotations

from typing import Any, Callable

from server.config.errors import Report
from server.config.fields import (Field, Problem, Values, as_float, as_id, as_int,
                                  describe, expect_list, expect_map, key_path, read_fields)
from server.config.model import (AlleyOptions, CrapsOptions, CrapsTiming, PigOptions,
                                 Source, TableConfig)
from server.config.yamlsrc import YMap

GAMES = ("craps", "alley_craps", "pig")
MAX_CHIPS = 1_000_000_000
CRAPS_KEYS = ("max_players", "min_bet", "max_bet")
ALLEY_KEYS = ("min_players", "buy_in", "bet_unit", "bet_window", "fade_window",
              "roll_window", "choice_window")
PIG_KEYS = ("target", "stake", "turn_deadline", "computer_pace")
SIMPLIFIED_ONLY = ("dont_pass_bar", "press")


def as_bar(value: Any, raw: str | None = None) -> int | None:
    """Don't pass bars 12, or nothing at all (`none`/null), as in 001."""
    if value is None or value == "none":
        return None
    if value == 12 and not isinstance(value, bool):
        return 12
    raise Problem(f"must be 12 or none, not {describe(value)}")


_CT = CrapsTiming()
TIMING_FIELDS = (
    Field("window", as_int, _CT.window, 2, 600),
    Field("last_call", as_int, _CT.last_call, 1, 599),
    Field("shooter", as_int, _CT.shooter, 1, 3600),
    Field("autoroll", as_int, _CT.autoroll, 1, 600),
)

_CO = CrapsOptions()
CRAPS_FIELDS = (
    Field("variant", as_id, _CO.variant, choices=("bank", "simplified")),
    Field("odds", as_int, _CO.odds, 0, 1_000_000),
    Field("field_12", as_int, _CO.field_12, choices=(2, 3)),
    Field("dont_pass_bar", as_bar, _CO.dont_pass_bar),
    Field("press", as_id, _CO.press, choices=("pass", "both", "none")),
)

# Per craps variant: (max_players default, max_players ceiling, min_bet default, max_bet default).
# Simplified is a solo table against the house (RULES.md), minimum 5 as in 001.
CRAPS_VARIANTS = {"bank": (12, 20, 1, 10000), "simplified": (1, 1, 5, 1000)}

_AO = AlleyOptions()
ALLEY_FIELDS = (
    Field("max_players", as_int, 6, 2, 6),
    Field("min_players", as_int, _AO.min_players, 2, 6),
    Field("buy_in", as_int, _AO.buy_in, 1, 1_000_000),
    Field("bet_unit", as_int, _AO.bet_unit, 1, 1_000_000),
    Field("bet_window", as_int, _AO.bet_window, 1, 3600),
    Field("fade_window", as_int, _AO.fade_window, 1, 3600),
    Field("roll_window", as_int, _AO.roll_window, 1, 3600),
    Field("choice_window", as_int, _AO.choice_window, 1, 3600),
)

_PO = PigOptions()
PIG_FIELDS = (
    Field("max_players", as_int, 6, 1, 6),
    Field("target", as_int, _PO.target, 10, 10000),
    Field("stake", as_int, _PO.stake, 0, 1_000_000),
    Field("turn_deadline", as_int, _PO.turn_deadline, 1, 3600),
    Field("computer_pace", as_float, _PO.computer_pace, 0.0, 60.0),
)


def _elsewhere(game: str) -> dict[str, str]:
    """For a table of `game`: what to say about keys that belong to another game."""
    notes: dict[str, str] = {}
    for key in ALLEY_KEYS:
        notes[key] = f"only for game alley_craps, not {game}"
    for key in PIG_KEYS:
        notes[key] = f"only for game pig, not {game}"
    if game != "craps":
        notes["craps"] = f"only for game craps, not {game}"
        for key in ("min_bet", "max_bet"):
            unit = "bet_unit and buy_in" if game == "alley_craps" else "stake"
            notes[key] = f"only for game craps; {game} tables use {unit}"
    else:
        for key in (*(f.name for f in CRAPS_FIELDS), "timing"):
            notes[key] = "belongs under craps:"
    return notes


Built = tuple[int, int, int, Any]   # max_players, min_bet, max_bet, options


def _craps(report: Report, entry: YMap, path: str) -> Built:
    sub_path = key_path(path, "craps")
    sub = expect_map(report, entry.get("craps"), entry.key_line.get("craps", entry.line), sub_path)
    if sub is None:
        sub = expect_map(report, None, entry.line, sub_path)
    opts = read_fields(report, sub, CRAPS_FIELDS, sub_path, skip=("timing",))
    variant = opts["variant"]
    if variant == "bank" and opts.ok("variant"):
        for key in SIMPLIFIED_ONLY:
            if key in sub:
                report.error(sub.key_line[key], key_path(sub_path, key),
                             "only for variant simplified, not bank")
    timing = _timing(report, sub, sub_path)
    players, ceiling, min_bet, max_bet = CRAPS_VARIANTS[variant]
    rows = (Field("max_players", as_int, players, 1, ceiling),
            Field("min_bet", as_int, min_bet, 1, MAX_CHIPS),
            Field("max_bet", as_int, max_bet, 1, MAX_CHIPS))
    top = _read_top(report, entry, rows, path, "craps")
    if top.ok("min_bet", "max_bet") and top["max_bet"] < top["min_bet"]:
        report.error(entry.key_line.get("max_bet", entry.line), key_path(path, "max_bet"),
                     f"{top['max_bet']:,} is below min_bet {top['min_bet']:,}")
    options = CrapsOptions(**opts, timing=timing)
    return top["max_players"], top["min_bet"], top["max_bet"], options


def _timing(report: Report, sub: YMap, sub_path: str) -> CrapsTiming:
    path = key_path(sub_path, "timing")
    if "timing" not in sub:
        return CrapsTiming()
    section = expect_map(report, sub["timing"], sub.key_line["timing"], path)
    if section is None:
        return CrapsTiming()
    values = read_fields(report, section, TIMING_FIELDS, path)
    if values.ok("window", "last_call") and values["last_call"] >= values["window"]:
        report.error(section.key_line.get("last_call", section.line), key_path(path, "last_call"),
                     f"{values['last_call']} must be less than window {values['window']}")
    return CrapsTiming(**values)


def _alley(report: Report, entry: YMap, path: str) -> Built:
    v = _read_top(report, entry, ALLEY_FIELDS, path, "alley_craps")
    if v.ok("min_players", "max_players") and v["min_players"] > v["max_players"]:
        report.error(entry.key_line.get("min_players", entry.line), key_path(path, "min_players"),
                     f"{v['min_players']} is more than max_players {v['max_players']}")
    if v.ok("buy_in", "bet_unit") and v["buy_in"] % v["bet_unit"]:
        report.error(entry.key_line.get("buy_in", entry.line), key_path(path, "buy_in"),
                     f"{v['buy_in']:,} is not a multiple of bet_unit {v['bet_unit']:,}")
    players = v.pop("max_players")
    options = AlleyOptions(**v)
    return players, options.bet_unit, options.buy_in * players, options


def _pig(report: Report, entry: YMap, path: str) -> Built:
    v = _read_top(report, entry, PIG_FIELDS, path, "pig")
    players = v.pop("max_players")
    options = PigOptions(**v)
    return players, options.stake, options.stake, options


def _read_top(report: Report, entry: YMap, rows: tuple[Field, ...], path: str, game: str) -> Values:
    """The game's keys at the top of the entry; every other key is reported."""
    skip = ("id", "game", "craps") if game == "craps" else ("id", "game")
    return read_fields(report, entry, rows, path, elsewhere=_elsewhere(game), skip=skip)


BUILDERS: dict[str, Callable[[Report, YMap, str], Built]] = {
    "craps": _craps, "alley_craps": _alley, "pig": _pig,
}

ID_FIELD = (Field("id", as_id),)
GAME_FIELD = (Field("game", as_id, choices=GAMES),)


def read_table(report: Report, entry: Any, index: int, line: int) -> TableConfig | None:
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
    game = read_fields(report, _only(entry, "game"), GAME_FIELD, path)
    if not game.ok("game"):
        return None
    players, min_bet, max_bet, options = BUILDERS[game["game"]](report, entry, path)
    if not ident.ok("id"):
        return None
    return TableConfig(id=ident["id"], game=game["game"], max_players=players,
                       min_bet=min_bet, max_bet=max_bet, options=options,
                       source=Source(report.file, entry.line))


def _only(entry: YMap, key: str) -> YMap:
    """The entry cut down to one key, to read it before the others."""
    only = YMap({key: entry[key]} if key in entry else {})
    only.line = entry.line
    only.key_line = {k: entry.key_line[k] for k in only}
    only.raw = {k: entry.raw[k] for k in only}
    return only


def read_tables(report: Report, value: Any, line: int) -> tuple[list[TableConfig], bool]:
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

"""Loader behaviour beyond the broken corpus: what valid files turn into."""
from __future__ import annotations

from pathlib import Path

import pytest

from server.config.load import ConfigError, ConfigInvalid, load_config
from server.config.model import Settings
from server.games.craps.options import CrapsTiming

LOBBY = "id: lobby\nname: Lobby\ndescription: A room.\n"


def write(root: Path, files: dict[str, str]) -> tuple[Path, Path]:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (root / "config").mkdir(exist_ok=True)
    return root / "config", root / "rooms"


def errors_of(root: Path, files: dict[str, str]) -> list[str]:
    with pytest.raises(ConfigInvalid) as caught:
        load_config(*write(root, files))
    return [str(e).replace(f"{root}/", "") for e in caught.value.errors]


def test_error_format() -> None:
    err = ConfigError("rooms/lobby.yaml", 3, "exits.north", "no room 'x'")
    assert str(err) == "rooms/lobby.yaml:3: exits.north: no room 'x'"
    assert str(ConfigInvalid([err, err])) == f"{err}\n{err}"


def test_minimal_casino_uses_defaults(tmp_path: Path) -> None:
    cfg = load_config(*write(tmp_path, {"rooms/lobby.yaml": LOBBY, "config/empty.yaml": ""}))
    assert cfg.settings == Settings()
    assert cfg.tables == {}
    assert cfg.rooms["lobby"].exits == {} and cfg.rooms["lobby"].tables == ()


def test_blank_server_section_is_defaults(tmp_path: Path) -> None:
    cfg = load_config(*write(tmp_path, {"rooms/lobby.yaml": LOBBY, "config/s.yml": "server:\n"}))
    assert cfg.settings == Settings()


def test_short_directions_are_stored_as_words(tmp_path: Path) -> None:
    cfg = load_config(*write(tmp_path, {
        "rooms/lobby.yaml": LOBBY + "exits: {n: lobby, D: lobby, sw: lobby, in: lobby}\n"}))
    assert cfg.rooms["lobby"].exits == {"north": "lobby", "down": "lobby",
                                        "southwest": "lobby", "in": "lobby"}


def test_numeric_ids_keep_their_text(tmp_path: Path) -> None:
    cfg = load_config(*write(tmp_path, {
        "config/server.yaml": "server: {start_room: 0612}\n",
        "rooms/a.yaml": "id: 0612\nname: A\ndescription: A.\nexits: {up: 6185}\n",
        "rooms/b.yaml": "id: '6185'\nname: B\ndescription: B.\nexits: {down: 0612}\n"}))
    assert set(cfg.rooms) == {"0612", "6185"}
    assert cfg.rooms["0612"].exits == {"up": "6185"}
    assert cfg.settings.start_room == "0612"


@pytest.mark.parametrize("bar", ["none", "null", "~"])
def test_simplified_options(tmp_path: Path, bar: str) -> None:
    cfg = load_config(*write(tmp_path, {
        "rooms/lobby.yaml": LOBBY + "tables: [s]\n",
        "config/t.yaml": ("casino_tables:\n- id: s\n  game: craps\n  craps:\n"
                          f"    variant: simplified\n    dont_pass_bar: {bar}\n    press: both\n")}))
    opts = cfg.tables["s"].options
    assert (opts.dont_pass_bar, opts.press) == (None, "both")
    assert (cfg.tables["s"].min_bet, cfg.tables["s"].max_bet, cfg.tables["s"].max_players) == (5, 1000, 1)


def test_empty_text_is_not_none_for_the_bar(tmp_path: Path) -> None:
    assert errors_of(tmp_path, {
        "rooms/lobby.yaml": LOBBY + "tables: [s]\n",
        "config/t.yaml": ("casino_tables:\n- id: s\n  game: craps\n  craps:\n"
                          "    variant: simplified\n    dont_pass_bar: ''\n")}) == [
        "config/t.yaml:6: casino_tables[s].craps.dont_pass_bar: must be 12 or none, not the text ''"]


def test_timing_and_odds(tmp_path: Path) -> None:
    cfg = load_config(*write(tmp_path, {
        "rooms/lobby.yaml": LOBBY + "tables: [b]\n",
        "config/t.yaml": ("casino_tables:\n- id: b\n  game: craps\n  craps:\n    odds: 1000000\n"
                          "    timing: {window: 20, last_call: 5, shooter: 30, autoroll: 2}\n")}))
    opts = cfg.tables["b"].options
    assert opts.odds == 1_000_000
    assert opts.timing == CrapsTiming(window=20, last_call=5, shooter=30, autoroll=2)


def test_operators_are_lower_case_and_pace_takes_whole_numbers(tmp_path: Path) -> None:
    cfg = load_config(*write(tmp_path, {
        "rooms/lobby.yaml": LOBBY + "tables: [p]\n",
        "config/server.yaml": "server:\n  operators: [Admin, croupier_2]\n",
        "config/t.yaml": "casino_tables:\n- {id: p, game: pig, computer_pace: 0, stake: 25}\n"}))
    assert cfg.settings.operators == ("admin", "croupier_2")
    pig = cfg.tables["p"]
    assert pig.options.computer_pace == 0.0 and isinstance(pig.options.computer_pace, float)
    assert (pig.min_bet, pig.max_bet) == (25, 25)


def test_merge_keys_share_settings_between_tables(tmp_path: Path) -> None:
    cfg = load_config(*write(tmp_path, {
        "rooms/lobby.yaml": LOBBY + "tables: [a, b]\n",
        "config/t.yaml": ("casino_tables:\n- &alley {id: a, game: alley_craps, buy_in: 200, bet_unit: 20}\n"
                          "- <<: *alley\n  id: b\n")}))
    assert cfg.tables["b"].options.buy_in == 200 and cfg.tables["b"].min_bet == 20
    assert cfg.tables["b"].max_bet == 200 * 6


def test_all_errors_across_files_are_reported_in_file_order(tmp_path: Path) -> None:
    assert errors_of(tmp_path, {
        "rooms/b.yaml": "id: b\nname: B\ndescription: B.\nexits: {west: c}\n",
        "rooms/a.yaml": "id: a\nname: A\ndescription: A.\ncolour: red\n",
        "config/server.yaml": "server:\n  start_room: a\n  port: -1\n"}) == [
        "config/server.yaml:3: server.port: must be from 0 to 65,535, not -1",
        "rooms/a.yaml:4: colour: unknown key",
        "rooms/b.yaml:4: exits.west: no room 'c'",
    ]


def test_table_id_collides_across_the_error_path(tmp_path: Path) -> None:
    """A table entry with a bad id is named by its index and skipped, without knock-on errors."""
    assert errors_of(tmp_path, {
        "rooms/lobby.yaml": LOBBY + "tables: [x]\n",
        "config/t.yaml": "casino_tables:\n- id: a b\n  game: pig\n"}) == [
        "config/t.yaml:2: casino_tables[0].id: 'a b' is not an id: use 1 to 40 letters, digits, _ or -"]


def test_description_control_characters_are_refused(tmp_path: Path) -> None:
    assert errors_of(tmp_path, {
        "rooms/lobby.yaml": 'id: lobby\nname: Lobby\ndescription: "bell \\a here"\n'}) == [
        "rooms/lobby.yaml:3: description: must not contain control characters"]


def test_relief_settings_are_read(tmp_path: Path) -> None:
    cfg = load_config(*write(tmp_path, {
        "rooms/lobby.yaml": LOBBY,
        "config/server.yaml": "server:\n  relief:\n    amount: 250\n    every_hours: 12\n"}))
    assert (cfg.settings.relief.amount, cfg.settings.relief.every_hours) == (250, 12)


def test_bad_relief_values_are_one_line_errors(tmp_path: Path) -> None:
    assert errors_of(tmp_path, {
        "rooms/lobby.yaml": LOBBY,
        "config/server.yaml": "server:\n  relief:\n    amount: -5\n    every_hours: 0\n"}) == [
        "config/server.yaml:3: server.relief.amount: must be from 1 to 1,000,000,000, not -5",
        "config/server.yaml:4: server.relief.every_hours: must be from 1 to 8,784, not 0",
    ]
    assert errors_of(tmp_path, {
        "rooms/lobby.yaml": LOBBY,
        "config/server.yaml": "server:\n  relief:\n    amount: 0\n    every_hours: 1.5\n    every_hour: 2\n"}) == [
        "config/server.yaml:3: server.relief.amount: must be from 1 to 1,000,000,000, not 0",
        "config/server.yaml:4: server.relief.every_hours: must be a whole number, not the decimal number 1.5",
        "config/server.yaml:5: server.relief.every_hour: unknown key (did you mean 'every_hours'?)",
    ]
    assert errors_of(tmp_path, {
        "rooms/lobby.yaml": LOBBY, "config/server.yaml": "server:\n  relief: 100\n"}) == [
        "config/server.yaml:2: server.relief: must be a mapping of keys, not the number 100"]

"""The casino shipped in config/ and rooms/: what must hold of it, however it grows.

Nothing here lists the world. Each test reads config/ and rooms/ and checks a
property (every exit has a way back, every room can be reached from the start
room, every table stands in one room), or a promise the docs make about a room
or table they name (README's walks, docs/config.md's "The shipped casino", the
options the play-*.md pages describe), phrased so that adding a room or a
table never breaks it. Every test runs twice: on the shipped files and on a
copy grown by two tables and a room (`grown`), which is the proof.
"""
from __future__ import annotations

import re
import shutil
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
import yaml

from server.config.load import SUFFIXES, load_config
from server.config.model import CasinoConfig, Settings
from server.config.rooms import DIRECTIONS
from server.games.alley.options import AlleyOptions
from server.games.catalogue import entry_for, find_game
from server.games.craps.options import CrapsOptions
from server.games.pig.options import PigOptions

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class World:
    config_dir: Path
    rooms_dir: Path
    cfg: CasinoConfig


def yaml_files(directory: Path) -> list[Path]:
    """The files the loader reads, found without the loader."""
    return sorted(p for p in directory.iterdir() if p.suffix in SUFFIXES and not p.name.startswith("."))


def grow(config_dir: Path, rooms_dir: Path) -> None:
    """What an operator adds: a VIP room up from bank craps with its own table
    (and the way back down), and a third table at the end of room solo's list."""
    with (config_dir / "casino_tables.yaml").open("a") as f:
        f.write("- id: high_roller\n  game: craps\n  max_players: 4\n  min_bet: 100\n  max_bet: 50000\n"
                "- id: solo_roulette\n  game: roulette\n  max_players: 1\n  min_bet: 1\n  max_bet: 100\n")
    (rooms_dir / "vip.yaml").write_text(
        'id: vip\nname: The VIP Room\ndescription: Velvet ropes and quiet money.\n'
        'exits:\n  down: "6185"\ntables: [high_roller]\n')
    for path, old, new in ((rooms_dir / "6185.yaml", "exits:\n", "exits:\n  up: vip\n"),
                           (rooms_dir / "solo.yaml", "classic_craps]", "classic_craps, solo_roulette]")):
        text = path.read_text()
        assert old in text, path
        path.write_text(text.replace(old, new))


def grown_copy(where: Path) -> tuple[Path, Path]:
    """config/ and rooms/ copied under `where`, grown; their paths."""
    config_dir, rooms_dir = where / "config", where / "rooms"
    shutil.copytree(ROOT / "config", config_dir)
    shutil.copytree(ROOT / "rooms", rooms_dir)
    grow(config_dir, rooms_dir)
    return config_dir, rooms_dir


@pytest.fixture(scope="module", params=["shipped", "grown"])
def world(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> World:
    config_dir, rooms_dir = ROOT / "config", ROOT / "rooms"
    if request.param == "grown":
        config_dir, rooms_dir = grown_copy(tmp_path_factory.mktemp("grown"))
    return World(config_dir, rooms_dir, load_config(config_dir, rooms_dir))


def test_the_grown_copy_holds_more_than_the_shipped_casino(tmp_path: Path) -> None:
    """The proof is only a proof if `grown` adds what it says it adds."""
    shipped = load_config(ROOT / "config", ROOT / "rooms")
    grown = load_config(*grown_copy(tmp_path))
    assert set(grown.rooms) - set(shipped.rooms) == {"vip"}
    assert set(grown.tables) - set(shipped.tables) == {"high_roller", "solo_roulette"}
    assert grown.rooms["6185"].exits["up"] == "vip" and grown.rooms["solo"].tables[-1] == "solo_roulette"


# --- what the files hold is what loads --------------------------------------

def test_every_room_file_and_table_entry_loads(world: World) -> None:
    """Counted from the YAML with a plain reader, not the loader."""
    room_ids = [str(yaml.safe_load(p.read_text())["id"]) for p in yaml_files(world.rooms_dir)]
    table_ids = [entry["id"] for p in yaml_files(world.config_dir)
                 for entry in (yaml.safe_load(p.read_text()) or {}).get("casino_tables") or ()]
    assert sorted(world.cfg.rooms) == sorted(room_ids)
    assert list(world.cfg.tables) == table_ids


def test_every_room_file_is_named_for_its_room(world: World) -> None:
    """The loader allows any file name; the shipped casino keeps rooms/<id>.yaml,
    so an operator finds a room (and an error message's file) by its id."""
    for room in world.cfg.rooms.values():
        assert room.source is not None and room.source.file == str(world.rooms_dir / f"{room.id}.yaml")


# --- the map ----------------------------------------------------------------

def one_way_exits(cfg: CasinoConfig) -> list[tuple[str, str, str]]:
    """(room, direction, target) of each exit whose target has no exit back."""
    return [(room.id, direction, target) for room in cfg.rooms.values()
            for direction, target in room.exits.items()
            if room.id not in cfg.rooms[target].exits.values()]


def unreachable_rooms(cfg: CasinoConfig) -> set[str]:
    reached, frontier = {cfg.settings.start_room}, [cfg.settings.start_room]
    while frontier:
        for target in cfg.rooms[frontier.pop()].exits.values():
            if target not in reached:
                reached.add(target)
                frontier.append(target)
    return set(cfg.rooms) - reached


def test_every_exit_has_a_way_back(world: World) -> None:
    assert not one_way_exits(world.cfg)


def test_every_room_is_reachable_from_the_start_room(world: World) -> None:
    assert not unreachable_rooms(world.cfg)


def test_the_map_checks_find_a_stranding_and_an_island() -> None:
    """The loader refuses a one-way exit, but not two rooms linked only to each other."""
    cfg = load_config(ROOT / "config", ROOT / "rooms")
    lobby, alley = cfg.rooms["lobby"], cfg.rooms["alley"]
    stranded = replace(cfg, rooms={**cfg.rooms, "alley": replace(alley, exits={})})
    assert one_way_exits(stranded) == [("lobby", "down", "alley")]
    island = {"lobby": replace(lobby, exits={k: v for k, v in lobby.exits.items() if v != "alley"})}
    assert unreachable_rooms(replace(cfg, rooms={**cfg.rooms, **island})) == {"alley"}


def test_every_table_stands_in_exactly_one_room(world: World) -> None:
    placed = Counter(t for room in world.cfg.rooms.values() for t in room.tables)
    assert placed == Counter(set(world.cfg.tables))


def test_descriptions_are_short_plain_ascii(world: World) -> None:
    for room in world.cfg.rooms.values():
        assert room.description.isascii() and "\n" not in room.description, room.id
        assert 1 <= room.description.count(". ") + 1 <= 3, room.id


# --- what the docs promise ---------------------------------------------------

def shipped_casino_rows() -> list[tuple[str, bool, str, dict[str, str], list[str]]]:
    """docs/config.md's "The shipped casino": (room, is start, name, exits, tables) per row."""
    text = (ROOT / "docs" / "config.md").read_text()
    section = text.split("## The shipped casino", 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        room, name, exits, tables = (cell.strip() for cell in line.strip("|").split("|"))
        rows.append((re.findall(r"`([^`]+)`", room)[0], "(start)" in room, name,
                     dict(re.findall(r"(\w+) `([^`]+)`", exits)), re.findall(r"`([^`]+)`", tables)))
    return rows


def test_docs_describe_every_shipped_room() -> None:
    """The parse below finds the table (a reworded heading would skip every check)."""
    rows = shipped_casino_rows()
    assert len(rows) >= 7 and sum(start for _, start, *_ in rows) == 1


@pytest.mark.parametrize("row", shipped_casino_rows(), ids=lambda row: row[0])
def test_each_room_of_the_docs_is_as_described(world: World, row) -> None:
    """Its name; its documented exits and tables are there (more may be added)."""
    room_id, start, name, exits, tables = row
    room = world.cfg.rooms[room_id]
    assert room.name == name
    assert exits.items() <= room.exits.items()
    assert set(tables) <= set(room.tables)
    assert start == (world.cfg.settings.start_room == room_id)


def readme_walks() -> list[tuple[str, list[str], str | None, str | None]]:
    """README's "walk to a table": (game, directions from the start room, room, table) per row."""
    rows = []
    for line in (ROOT / "README.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 3 or not cells[2].startswith("docs/play-"):
            continue
        ticks = re.findall(r"`([^`]+)`", cells[1])
        room = re.search(r"\broom (\w+)", cells[1])
        plays = [t.split()[1] for t in ticks if t.startswith("play ")]
        rows.append((cells[0].split(" (")[0], [t for t in ticks if t in DIRECTIONS],
                     room.group(1) if room else None, plays[0] if plays else None))
    return rows


def test_readme_lists_the_walks() -> None:
    assert len(readme_walks()) >= 7


@pytest.mark.parametrize("walk", readme_walks(), ids=lambda walk: walk[0])
def test_each_walk_of_the_readme_reaches_its_game(world: World, walk) -> None:
    """The walk leads to a room with a table of the game the row names (if it
    names one game), and to the room and table it names, if it does."""
    game, directions, room_id, table_id = walk
    cfg = world.cfg
    here = cfg.settings.start_room
    for direction in directions:
        here = cfg.rooms[here].exits[direction]
    games_here = {entry_for(cfg.tables[t]).key for t in cfg.rooms[here].tables}
    assert games_here
    entry = find_game(game)
    assert entry is None or entry.key in games_here
    assert room_id in (None, here)
    assert table_id is None or table_id in cfg.rooms[here].tables


def test_settings_are_the_documented_defaults_but_the_operator(world: World) -> None:
    """config/server.yaml: "the value shown is the default unless noted"; README
    and docs/running.md promise telnet on 127.0.0.1:4000, and operating.md an
    `admin` operator."""
    s = world.cfg.settings
    assert (s.host, s.port, s.tick_hz, s.start_room) == ("127.0.0.1", 4000, 10, "lobby")
    assert s.operators == ("admin",)
    assert s.starting_chips == 1000
    assert s.limits.max_line == 512 and s.limits.idle_timeout == 3600
    assert s == Settings(operators=("admin",))


def test_bank_craps_matches_spec_004(world: World) -> None:
    """docs/play-craps.md: `bank_craps`, bets from 1 to 10000, 3-4-5x odds, the field pays 3:1 on 12."""
    t = world.cfg.tables["bank_craps"]
    assert (t.game, t.max_players, t.min_bet, t.max_bet) == ("craps", 12, 1, 10000)
    assert t.options == CrapsOptions(variant="bank", odds=0, field_12=3)
    assert t.source is not None and t.source.file.endswith("casino_tables.yaml")


def test_simplified_craps(world: World) -> None:
    t = world.cfg.tables["simple_craps"]
    assert isinstance(t.options, CrapsOptions)
    assert (t.options.variant, t.options.dont_pass_bar, t.options.press) == ("simplified", 12, "pass")
    assert (t.max_players, t.min_bet, t.max_bet) == (1, 5, 1000)
    assert t.options.dice == "fair"


def test_classic_craps_is_a_simplified_table_with_classic_dice(world: World) -> None:
    """docs/play-simplified-craps.md: classic_craps is in simple_craps' room, and
    `play craps` there still seats you at simple_craps (the first craps table listed)."""
    cfg = world.cfg
    t = cfg.tables["classic_craps"]
    assert t.options == CrapsOptions(variant="simplified", dice="classic")
    assert (t.max_players, t.min_bet, t.max_bet) == (1, 5, 1000)
    (room,) = [r for r in cfg.rooms.values() if "simple_craps" in r.tables]
    assert "classic_craps" in room.tables
    craps_here = [tid for tid in room.tables if entry_for(cfg.tables[tid]).word == "craps"]
    assert craps_here[0] == "simple_craps"


def test_alley_and_pig(world: World) -> None:
    """docs/play-alley-craps.md (2 to 6 players, buy-in 100) and docs/play-pig.md (up to 6)."""
    alley = world.cfg.tables["alley_craps"]
    assert alley.options == AlleyOptions()
    assert (alley.max_players, alley.min_bet, alley.max_bet) == (6, 10, 600)
    pig = world.cfg.tables["pig"]
    assert pig.options == PigOptions()
    assert (pig.max_players, pig.min_bet, pig.max_bet) == (6, 0, 0)


def test_the_variant_tables(world: World) -> None:
    """docs/play-craps-variants.md: bank craps' limits, each with its own field."""
    for table_id, variant, field_12 in (("crapless_craps", "crapless", 2), ("new_york_craps", "new_york", 2),
                                        ("diceless_craps", "diceless", 3)):
        t = world.cfg.tables[table_id]
        assert t.options == CrapsOptions(variant=variant, odds=0, field_12=field_12)
        assert (t.max_players, t.min_bet, t.max_bet) == (12, 1, 10000)
    for table_id, variant in (("high_point_craps", "high_point"), ("die_rich", "die_rich")):
        t = world.cfg.tables[table_id]                 # no odds or field here: bank craps' defaults, unread
        assert t.options == CrapsOptions(variant=variant)
        assert (t.max_players, t.min_bet, t.max_bet) == (12, 1, 10000)

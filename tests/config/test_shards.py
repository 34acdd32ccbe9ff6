"""server.shards and server.bus: every room on exactly one shard, and more than
one shard only on PostgreSQL with a broker (issue #37)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from server.config.load import ConfigInvalid, load_config
from server.config.model import Shard
from server.config.shards import ONE, shard_of

ROOM = "id: {0}\nname: {0}\ndescription: A room.\nexits: {{{1}}}\n"
ROOMS = {"rooms/lobby.yaml": ROOM.format("lobby", "east: bar, west: cage"),
         "rooms/bar.yaml": ROOM.format("bar", "west: lobby"),
         "rooms/cage.yaml": ROOM.format("cage", "east: lobby")}
PG = "  database: postgresql://casino@127.0.0.1/casino\n  bus: nats://127.0.0.1\n"


def casino(root: Path, server: str) -> tuple[Path, Path]:
    for rel, text in {**ROOMS, "config/server.yaml": "server:\n" + server}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root / "config", root / "rooms"


def errors_of(root: Path, server: str) -> list[str]:
    with pytest.raises(ConfigInvalid) as caught:
        load_config(*casino(root, server))
    return [str(e).replace(f"{root}/", "") for e in caught.value.errors]


def test_no_shards_named_is_one_shard_hosting_every_room(tmp_path: Path) -> None:
    cfg = load_config(*casino(tmp_path, "  port: 4000\n"))
    assert cfg.settings.shards == () and cfg.settings.bus == ""
    assert shard_of(cfg.settings, cfg.rooms) == {"lobby": ONE, "bar": ONE, "cage": ONE}


def test_rooms_laid_on_shards(tmp_path: Path) -> None:
    cfg = load_config(*casino(tmp_path, "  shards:\n    floor: [lobby, bar]\n    back: [cage]\n" + PG))
    assert cfg.settings.shards == (Shard("floor", ("lobby", "bar")), Shard("back", ("cage",)))
    assert cfg.settings.bus == "nats://127.0.0.1:4222"       # NATS's port when left out
    assert shard_of(cfg.settings, cfg.rooms) == {"lobby": "floor", "bar": "floor", "cage": "back"}


def test_one_named_shard_runs_on_sqlite_without_a_broker(tmp_path: Path) -> None:
    cfg = load_config(*casino(tmp_path, "  shards:\n    all: [lobby, bar, cage]\n"))
    assert shard_of(cfg.settings, cfg.rooms) == {"lobby": "all", "bar": "all", "cage": "all"}


def test_every_room_on_exactly_one_shard(tmp_path: Path) -> None:
    assert errors_of(tmp_path, "  shards:\n    floor: [lobby, bar]\n    back: [bra]\n" + PG) == [
        "config/server.yaml:2: server.shards: room 'cage' on no shard; list every room under one shard",
        "config/server.yaml:4: server.shards.back[0]: no room 'bra' (did you mean 'bar'?)"]
    assert errors_of(tmp_path, "  shards:\n    floor: [lobby, bar]\n    back:\n    - cage\n    - bar\n" + PG) == [
        "config/server.yaml:6: server.shards: room 'bar' is on shard 'floor' already; a room is on one shard"]


@pytest.mark.parametrize("shards, problem", [
    ("[lobby]", "must be a mapping of shard names to lists of room ids, not a list"),
    ("{}", "names no shard; leave server.shards out for one shard hosting every room"),
    ("{floor: lobby}", "shard 'floor' must list the room ids it hosts, not the text 'lobby'"),
    ("{floor: []}", "shard 'floor' must list the room ids it hosts, not an empty list"),
    ("{'two words': [lobby]}", "'two words' is not a shard name: use 1 to 40 letters, digits, _ or -"),
])
def test_a_bad_shard_map_is_one_line(tmp_path: Path, shards: str, problem: str) -> None:
    assert errors_of(tmp_path, f"  shards: {shards}\n") == [f"config/server.yaml:2: server.shards: {problem}"]


def test_more_than_one_shard_needs_postgresql_and_a_broker(tmp_path: Path) -> None:
    assert errors_of(tmp_path, "  shards: {floor: [lobby, bar], back: [cage]}\n") == [
        "config/server.yaml:2: server.shards: 2 shards need PostgreSQL (server.database: postgresql://...): "
        "each shard writes the ledger, and an SQLite file has one writer",
        "config/server.yaml:2: server.shards: 2 shards need server.bus (nats://host:port): "
        "`who`, `tell` and the operator commands cross shards on it"]


@pytest.mark.parametrize("bus, problem", [
    ("redis://127.0.0.1:6379", "'redis://127.0.0.1:6379' is not a NATS broker URL: write nats://host:port"),
    ("nats://127.0.0.1:99999", "'nats://127.0.0.1:99999': the port must be a number from 1 to 65535"),
    ("nats://", "'nats://' is not a NATS broker URL: write nats://host:port"),
    ("4222", "must be a broker URL, nats://host:port, not the number 4222"),
])
def test_a_bad_bus_is_one_line(tmp_path: Path, bus: str, problem: str) -> None:
    assert errors_of(tmp_path, f"  bus: {bus}\n") == [f"config/server.yaml:2: server.bus: {problem}"]


def run_casino(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, timeout=60)


def test_validate_shows_the_shards(tmp_path: Path) -> None:
    config, rooms = casino(tmp_path, "  shards:\n    floor: [lobby, bar]\n    back: [cage]\n" + PG)
    done = run_casino("validate", "--config", str(config), "--rooms", str(rooms))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("; shards: floor (2 rooms), back (1 room)")


def test_serve_refuses_shards_on_an_sqlite_file_given_on_the_command_line(tmp_path: Path) -> None:
    """The config says PostgreSQL; --data puts it on SQLite: refused before anything listens."""
    config, rooms = casino(tmp_path, "  shards:\n    floor: [lobby, bar]\n    back: [cage]\n" + PG)
    done = run_casino("serve", "--config", str(config), "--rooms", str(rooms), "--port", "0",
                      "--web-port", "0", "--data", str(tmp_path / "casino.db"))
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "casino serve: 2 shards need PostgreSQL (server.database: postgresql://...): "
        "each shard writes the ledger, and an SQLite file has one writer"]
    assert not (tmp_path / "casino.db").exists()


def test_each_shard_gets_a_game_process_and_one_named_shard_is_the_one_process(tmp_path: Path) -> None:
    import argparse
    from server.casino.hosting import Hosting
    from server.config.shards import door
    from server.portal.portal import games
    args = argparse.Namespace(config="config", rooms="rooms", seed=None, log_json=False)
    two = load_config(*casino(tmp_path, "  shards: {hall: [lobby, cage], bar: [bar]}\n" + PG))
    assert {name: argv[-2:] for name, argv in games(args, two.settings).items()} == {
        "hall": ["--shard", "hall"], "bar": ["--shard", "bar"]}
    assert door(two.settings) == "hall"                      # the start room's shard
    bar = Hosting.of(two, "bar")
    assert bar.hosts("bar") and not bar.hosts("lobby") and bar.where["lobby"] == "hall"
    assert bar.ledger(two) is not None and bar.ledger(two).name == "bar"
    one = load_config(*casino(tmp_path, "  shards: {all: [lobby, bar, cage]}\n"))
    argvs = games(args, one.settings)
    assert list(argvs) == [ONE] and "--shard" not in argvs[ONE] and door(one.settings) == ONE
    assert Hosting.of(one, None).ledger(one) is None and Hosting.of(one, None).hosts("bar")

"""The roulette table's config keys: the shipped table, every key read and
checked, and `casino validate` naming file, line and key (the broken-config
corpus in tests/config/broken/roulette_* has the rest)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from server.config.keys import Problem
from server.config.load import ConfigInvalid, load_config
from server.games.roulette.options import RouletteOptions, as_wheel, as_yes_no

ROOT = Path(__file__).resolve().parents[2]
CASINO = "import sys; from server.cli import main; sys.exit(main(sys.argv[1:]))"


def test_the_shipped_table_is_the_issues():
    cfg = load_config(ROOT / "config", ROOT / "rooms")
    t = cfg.tables["roulette"]
    assert (t.id, t.game, t.min_bet, t.max_bet, t.max_players) == ("roulette", "roulette", 1, 10000, 8)
    assert t.options == RouletteOptions()
    room = cfg.rooms["6186"]
    assert room.tables == ("roulette",) and "opens another night" not in room.description
    assert "dust cover" not in room.description


def write(tmp_path: Path, entry: str) -> Path:
    (tmp_path / "config").mkdir()
    (tmp_path / "rooms").mkdir()
    (tmp_path / "config" / "casino_tables.yaml").write_text("casino_tables:\n- id: wheel\n  game: roulette\n" + entry)
    (tmp_path / "rooms" / "lobby.yaml").write_text("id: lobby\nname: Lobby\ndescription: A room.\ntables: [wheel]\n")
    return tmp_path


def test_every_key_is_read(tmp_path):
    entry = ("  max_players: 3\n  min_bet: 5\n  max_bet: 500\n  wheel: single_zero\n  la_partage: true\n"
             "  bet_window: 30\n  last_call: 0\n  spin_seconds: 0\n")
    t = load_config(write(tmp_path, entry) / "config", tmp_path / "rooms").tables["wheel"]
    assert (t.max_players, t.min_bet, t.max_bet) == (3, 5, 500)
    assert t.options == RouletteOptions(min_bet=5, max_bet=500, la_partage=True, bet_window=30, last_call=0,
                                        spin_seconds=0)


def test_defaults_are_rules_md(tmp_path):
    t = load_config(write(tmp_path, "") / "config", tmp_path / "rooms").tables["wheel"]
    assert (t.max_players, t.min_bet, t.max_bet) == (8, 1, 10000)
    o = t.options
    assert (o.bet_window, o.last_call, o.spin_seconds, o.la_partage, o.wheel) == (20, 5, 3, False, "single_zero")


def test_a_double_zero_wheel_is_refused_by_name(tmp_path):
    with pytest.raises(ConfigInvalid) as caught:
        load_config(write(tmp_path, "  wheel: double_zero\n") / "config", tmp_path / "rooms")
    assert [str(e).replace(f"{tmp_path}/", "") for e in caught.value.errors] == [
        "config/casino_tables.yaml:4: casino_tables[wheel].wheel: 'double_zero' is not a wheel this casino "
        "plays: the only one is single_zero, 0 and 1-36"]


def test_casino_validate_names_file_line_and_key(tmp_path):
    shutil.copytree(ROOT / "config", tmp_path / "cfg")
    shutil.copytree(ROOT / "rooms", tmp_path / "rms")
    tables = tmp_path / "cfg" / "casino_tables.yaml"
    text = tables.read_text()
    tables.write_text(text.replace("  la_partage: false", "  la_partage: sometimes")
                      .replace("  wheel: single_zero", "  wheel: double_zero"))
    done = subprocess.run([sys.executable, "-c", CASINO, "validate", "--config", "cfg", "--rooms", "rms"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})   # this tree's server

    assert done.returncode == 1
    lines = tables.read_text().splitlines()
    at = {key: next(i for i, line in enumerate(lines, 1) if line.startswith(f"  {key}:"))
          for key in ("wheel", "la_partage")}
    assert done.stdout.splitlines() == [
        f"cfg/casino_tables.yaml:{at['wheel']}: casino_tables[roulette].wheel: 'double_zero' is not a wheel "
        "this casino plays: the only one is single_zero, 0 and 1-36",
        f"cfg/casino_tables.yaml:{at['la_partage']}: casino_tables[roulette].la_partage: must be true or "
        "false, not the text 'sometimes'",
    ]


def test_converters_and_problems():
    assert as_wheel("single_zero") == "single_zero"
    with pytest.raises(Problem, match="did you mean 'single_zero'"):
        as_wheel("Single-Zero")
    with pytest.raises(Problem, match="not the number 0"):
        as_yes_no(0)
    assert RouletteOptions(wheel="double_zero").problems() == [
        "wheel 'double_zero' is not played here; the wheels are single_zero"]
    assert RouletteOptions().problems() == []

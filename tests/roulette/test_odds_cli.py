"""`casino odds --json` lists every roulette bet of every roulette table with
its exact house edge: 1/37, and 1/74 for the even-money bets with la partage."""
from __future__ import annotations

import json
import shutil
from fractions import Fraction
from pathlib import Path

from server.cli import main
from server.games.roulette.kinds import KINDS

ROOT = Path(__file__).resolve().parents[2]
EVEN_MONEY = {"red", "black", "odd", "even", "low", "high"}
KIND_NAMES = [k.value for k in KINDS]


def with_partage_table(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "config", tmp_path / "config")
    shutil.copytree(ROOT / "rooms", tmp_path / "rooms")
    tables = tmp_path / "config" / "casino_tables.yaml"
    tables.write_text(tables.read_text() + "- id: partage\n  game: roulette\n  la_partage: true\n")
    room = tmp_path / "rooms" / "6186.yaml"
    room.write_text(room.read_text().replace("tables: [roulette]", "tables: [roulette, partage]"))
    return tmp_path


def test_every_bet_of_every_roulette_table_with_its_exact_edge(tmp_path, capsys):
    base = with_partage_table(tmp_path)
    assert main(["odds", "--config", str(base / "config"), "--rooms", str(base / "rooms"), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    by_table: dict[str, dict[str, str]] = {}
    for r in rows:
        by_table.setdefault(r["table"], {})[r["bet"]] = r["exact"]
        assert r["house_edge"] == float(Fraction(r["exact"]))
    assert {"bank_craps", "simple_craps", "roulette", "partage"} <= set(by_table)
    assert "alley_craps" not in by_table and "pig" not in by_table      # no house edge there
    assert list(by_table["roulette"]) == KIND_NAMES and set(by_table["roulette"].values()) == {"1/37"}
    assert list(by_table["partage"]) == KIND_NAMES
    assert {b: e for b, e in by_table["partage"].items() if b in EVEN_MONEY} == dict.fromkeys(EVEN_MONEY, "1/74")
    assert {e for b, e in by_table["partage"].items() if b not in EVEN_MONEY} == {"1/37"}


def test_the_text_sheet_and_one_table(capsys):
    assert main(["odds", "--config", str(ROOT / "config"), "--rooms", str(ROOT / "rooms"),
                 "--table", "roulette"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("roulette: single-zero roulette, la partage off, bets 1..10000\n")
    assert "  straight            2.703%   (1/37)" in out and "bank_craps" not in out
    assert main(["odds", "--config", str(ROOT / "config"), "--table", "pig"]) == 1
    assert "no table 'pig' with a house edge" in capsys.readouterr().out

"""The alley craps package's seam shape: the view reads a frozen snapshot,
never the dealer, and the dealer and view do not import each other."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from server.config.model import TableConfig
from server.dice.source import FixedDice
from server.games.alley.dealer import AlleyDealer
from server.games.alley.options import AlleyOptions
from server.games.alley.snapshot import AlleySnapshot
from server.games.seating import Seating

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "games" / "alley"


def imported(path: Path) -> set[str]:
    """Every module a file names in an import, at any depth (functions, TYPE_CHECKING)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def test_the_view_does_not_import_the_dealer():
    assert not {m for m in imported(PACKAGE / "view.py") if "alley.dealer" in m}
    assert not {m for m in imported(PACKAGE / "snapshot.py") if "alley.dealer" in m or "alley.view" in m}


def dealer() -> AlleyDealer:
    config = TableConfig(id="alley-1", game="alley_craps", max_players=6, min_bet=10, max_bet=600,
                         options=AlleyOptions())
    seating = Seating()
    for name in ("ann", "bob"):
        seating.add(name, name)
    return AlleyDealer(config, 10, FixedDice([(3, 4)]), seating)


def test_the_snapshot_is_frozen_plain_data():
    snap = dealer().snapshot()
    assert isinstance(snap, AlleySnapshot) and snap.seats == ("ann", "bob") and snap.game is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.games = 3                                      # type: ignore[misc]
    for f in dataclasses.fields(snap):
        assert not isinstance(getattr(snap, f.name), (list, dict, set)), f.name


@pytest.mark.parametrize("module", sorted(p.stem for p in PACKAGE.glob("*.py")))
def test_no_module_holds_mutable_state(module):
    """Tables share these modules: a module-level list, dict or set would be
    state shared by every table in the process."""
    import importlib
    mod = importlib.import_module(f"server.games.alley.{module}")
    shared = [name for name, value in vars(mod).items()
              if not name.startswith("__") and isinstance(value, (list, dict, set, bytearray))]
    assert shared == []

"""Simplified craps' view reads facts and frozen snapshots, never the dealer."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest
from simplified_helpers import table

from server.dice.fair import FairDice
from server.games.seam import Viewer
from server.games.seating import Seating
from server.games.simplified import events as ev
from server.games.simplified import view
from server.games.simplified.dealer import SimplifiedDealer
from server.games.simplified.rules import Side
from server.render.prefs import Prefs

PACKAGE = Path(view.__file__).parent


def test_the_table_as_a_frozen_snapshot():
    seating = Seating()
    d = SimplifiedDealer(table(), 10, FairDice("s1", seed=1), seating)
    assert d.snapshot() == view.TableState("s1", 5, 1000, None, None, options=d.options)
    seating.add("alice", "alice")
    d.seated("alice", False)
    d.act("alice", ["bet", "dp", "10"], 100)
    state = d.snapshot()
    assert state.player == "alice" and state.game is not None
    assert (state.game.side, state.game.flat, state.game.point) == (Side.DONT, 10, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.game.flat = 20        # type: ignore[misc]
    me = Viewer("alice", Prefs(), True)
    assert d.view(me) == view.table_lines(state, me)
    assert "Bet: 10 on the don't pass, come-out roll next." in d.view(me)
    assert d.table_data() == {"point": None, "bet": 10, "side": "dontpass", "odds": 0}


def test_a_fact_reads_by_the_seat_alone():
    seat = view.Seat("alice")
    fact = ev.Pressed(20)
    assert view.event_lines(fact, seat, Viewer("alice", Prefs(), True)) == ["You pressed: the bet is now 20."]
    assert view.event_lines(fact, seat, Viewer("bob", Prefs(), False)) == ["alice pressed: the bet is now 20."]


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            found |= {n.rsplit(".", 1)[-1] for n in names if n.startswith("server.games.simplified.")}
        elif isinstance(node, ast.Import):
            found |= {a.name.rsplit(".", 1)[-1] for a in node.names if a.name.startswith("server.games.simplified.")}
    return found


def test_no_import_circle_in_the_package_and_the_view_never_imports_the_dealer():
    modules = {p.stem for p in PACKAGE.glob("*.py")} - {"__init__"}
    graph = {m: _imports(PACKAGE / f"{m}.py") & modules for m in modules}
    assert "dealer" not in graph["view"] and "dealer" not in graph["commands"]

    def reach(start: str) -> set[str]:
        seen, todo = set(), list(graph[start])
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo.extend(graph[m])
        return seen
    assert [m for m in modules if m in reach(m)] == []


def test_no_process_wide_mutable_state_in_the_package():
    """Module-level values are constants: no dict, list or set a table could change for all."""
    import importlib
    from types import ModuleType
    mutable = []
    for path in sorted(PACKAGE.glob("*.py")):
        module = importlib.import_module(f"server.games.simplified.{path.stem}") if path.stem != "__init__" \
            else importlib.import_module("server.games.simplified")
        for name, value in vars(module).items():
            if name.startswith("__") or isinstance(value, (ModuleType, type)) or callable(value):
                continue
            if isinstance(value, (dict, list, set, bytearray)) or (
                    dataclasses.is_dataclass(value) and not type(value).__dataclass_params__.frozen):
                mutable.append(f"{path.stem}.{name}")
    assert mutable == []

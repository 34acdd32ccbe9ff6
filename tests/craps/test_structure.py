"""Bank craps' shape: the view reads a snapshot, never the dealer, so the two
modules form no import circle (not even inside a function or for typing)."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "server" / "games" / "craps"


def craps_imports(module: str) -> set[str]:
    """The craps modules `module` imports anywhere in its source, relative or absolute."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text())
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = node.module or ""
                names = [base] if base else [a.name for a in node.names]
            elif node.module == "server.games.craps":
                names = [a.name for a in node.names]
            elif (node.module or "").startswith("server.games.craps."):
                names = [(node.module or "").split(".")[3]]
            else:
                names = []
            found.update(n.split(".")[0] for n in names)
        elif isinstance(node, ast.Import):
            found.update(a.name.split(".")[3] for a in node.names if a.name.startswith("server.games.craps."))
    return found


def reach(module: str) -> set[str]:
    todo, seen = [module], set()
    while todo:
        m = todo.pop()
        if m in seen or not (PACKAGE / f"{m}.py").exists():
            continue
        seen.add(m)
        todo.extend(craps_imports(m))
    return seen - {module}


def test_the_view_never_reaches_the_dealer():
    assert "dealer" in craps_imports("entry")          # the checker sees an import
    assert "view" in reach("dealer")
    assert "dealer" not in reach("view")


@pytest.mark.parametrize("module", ["events", "snapshot"])
def test_the_facts_and_the_snapshot_import_neither(module):
    assert not {"dealer", "view"} & reach(module)


def test_the_snapshot_is_frozen():
    from server.games.craps.snapshot import CrapsSnapshot
    assert dataclasses.fields(CrapsSnapshot)
    assert CrapsSnapshot.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_no_process_wide_state_that_changes():
    """Tables share nothing that moves: constant tables are read-only, nothing is memoized per process."""
    from server.games.craps import bets, outcome
    for table in (bets._UNITS, outcome._BOOKS):
        with pytest.raises(TypeError):
            table[next(iter(table))] = table[next(iter(table))]       # type: ignore[index]
    assert outcome.rulebook(2) is outcome.rulebook(2)                # shared, built at import
    assert bets.payout_unit(bets.Kind.HORN, 0) == 4 and bets.payout_unit(bets.Kind.COME, 6) == 1
    for path in sorted(PACKAGE.glob("*.py")):
        source = path.read_text()
        assert "lru_cache" not in source and "functools.cache" not in source, path.name
        assert "\nglobal " not in source and "    global " not in source, path.name

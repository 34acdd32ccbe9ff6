"""The layer rules of docs/architecture.md ("Layers") that an import can break, checked on the source.

Games are pure: no clock, no randomness of their own, no I/O, and nothing from
the layers around them (the simulator, which times itself, lives in server/sim
for this reason); a game declares its config keys with server.config.keys and
never imports the loader. The ledger knows no game. Render knows no telnet:
preferences are plain data in render. Besides the imports: the commands and
the casino's services never reach past a table host into its dealer, seating
or core.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

SERVER = Path(__file__).resolve().parents[1] / "server"

RULES = {
    "games": ("time", "datetime", "asyncio", "random", "socket", "threading", "sqlite3",
              "server.net", "server.tables", "server.ledger", "server.commands", "server.sim",
              "server.cli", "server.config.load", "server.config.yamlsrc", "server.config.fields",
              "server.config.tables", "server.config.settings", "server.config.rooms",
              "server.config.errors"),      # a game declares keys (config.keys), never reads YAML
    "ledger": ("server.games", "server.tables", "server.net", "server.commands"),
    "render": ("server.net", "server.tables", "server.games", "server.ledger", "server.commands"),
}


def imports(path: Path) -> set[str]:
    """Every module a file imports (relative imports resolved against its package)."""
    package = ".".join(path.relative_to(SERVER.parent).with_suffix("").parts[:-1])
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def broken(layer: str, path: Path) -> list[str]:
    return sorted(m for m in imports(path) for bad in RULES[layer]
                  if m == bad or m.startswith(bad + "."))


@pytest.mark.parametrize("layer", sorted(RULES))
def test_layer_imports_nothing_it_must_not(layer: str) -> None:
    files = sorted((SERVER / layer).rglob("*.py"))
    assert files
    assert {str(f.relative_to(SERVER)): broken(layer, f) for f in files if broken(layer, f)} == {}


def test_the_checker_sees_a_clock_and_a_relative_import() -> None:
    assert "time" in imports(SERVER / "sim" / "craps.py")
    assert broken("games", SERVER / "sim" / "craps.py") == ["random", "time"]
    assert "server.games.craps.bets.Kind" in imports(SERVER / "games" / "craps" / "outcome.py")


# --- no import circle anywhere under server/ --------------------------------------
MODULES = {".".join(p.relative_to(SERVER.parent).with_suffix("").parts[:-1] if p.name == "__init__.py"
                    else p.relative_to(SERVER.parent).with_suffix("").parts): p
           for p in SERVER.rglob("*.py")}


def module_edges(path: Path) -> set[str]:
    """The server modules `path` imports by name, at any depth of the file (inside
    functions and under TYPE_CHECKING too). `from pkg import sub` is an edge to
    the submodule alone; names taken from a package's __init__ are an edge to it."""
    name = next(m for m, p in MODULES.items() if p == path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            subs = {f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in MODULES}
            found |= subs
            if len(subs) < len(node.names):
                found.add(module)
    edges = set()
    for module in found:
        while module and module not in MODULES:
            module = module.rpartition(".")[0]
        if module and module != name:
            edges.add(module)
    return edges


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_anywhere_under_server() -> None:
    graph = {m: module_edges(p) for m, p in MODULES.items()}
    assert circles(graph) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert circles({"a": {"b"}, "b": set()}) == []
    assert "server.commands.registry" in module_edges(SERVER / "commands" / "tables.py")


# --- commands and the casino talk to a table through its host's verbs ------------
# A table's dealer, seating and core are the host's to drive (server/tables/table.py):
# the commands and the casino's services ask the table (`seats()`, `roles()`,
# `plays_for_chips()`, `call(word)` ...) and never reach past it.
TABLE_INSIDES = frozenset({"dealer", "seating", "core"})
TABLE_USERS = sorted([*(SERVER / "commands").rglob("*.py"), *(SERVER / "casino").rglob("*.py"),
                      SERVER / "app.py", SERVER / "reload.py"])


def reaches_inside(source: str) -> list[str]:
    """Each `x.dealer`, `x.seating`, `x.core` (or getattr(x, "core")) in `source`, as `line: name`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in TABLE_INSIDES:
            found.append(f"{node.lineno}: .{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
              and node.args[1].value in TABLE_INSIDES):
            found.append(f"{node.lineno}: getattr {node.args[1].value}")
    return found


def test_commands_and_the_casino_never_reach_into_a_table() -> None:
    assert len(TABLE_USERS) > 15        # the commands, the casino's services, app and reload
    found = {str(p.relative_to(SERVER)): reaches_inside(p.read_text()) for p in TABLE_USERS}
    assert {path: hits for path, hits in found.items() if hits} == {}


def test_the_reach_finder_sees_a_dealer_behind_a_host() -> None:
    assert reaches_inside("floor = min(h.core.dealer.x for h in tables)") == ["1: .dealer", "1: .core"]
    assert reaches_inside("s = getattr(host, 'seating')") == ["1: getattr seating"]
    assert reaches_inside("host.seats(); host.plays_for_chips()") == []


# A class is one idea; past 300 lines it is several (issue 35). Split it by
# idea (as server/tables/ splits a table into its queue, applier, clock...).
LONGEST_CLASS = 300


def class_lengths(source: str) -> dict[str, int]:
    """Each class in `source` (nested ones too) and its length in lines."""
    return {node.name: node.end_lineno - node.lineno + 1 for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None}


def test_no_class_under_server_is_longer_than_300_lines() -> None:
    long = {f"{p.relative_to(SERVER)}: {name}": n for p in sorted(SERVER.rglob("*.py"))
            for name, n in class_lengths(p.read_text()).items() if n > LONGEST_CLASS}
    assert long == {}


def test_class_lengths_count_every_line_of_a_class() -> None:
    assert class_lengths("class A:\n    x = 1\n\n    def f(self):\n        pass\n") == {"A": 5}


def test_the_portal_program_loads_no_game_no_yaml_no_telnetlib3_and_no_ssl() -> None:
    """The portal runs as long as the casino, beside the game process: what it imports
    it holds in memory all that time (docs/architecture.md, "The portal is a small
    program"). Imported as `python -m server.portal` imports it, then everything its
    `_serve` and its web edge import when they run."""
    import subprocess
    import sys
    probe = (
        "import sys\n"
        "sys.modules['ssl'] = None\n"
        "import server.portal.main, server.portal.portal, server.casino.listeners, server.net.web\n"
        "print(' '.join(sorted(sys.modules)))\n")
    out = subprocess.run([sys.executable, "-c", probe], cwd=SERVER.parent, capture_output=True,
                         text=True, timeout=60, check=True).stdout.split()
    held = [m for m in out if m.split(".")[0] in ("yaml", "telnetlib3", "sqlite3", "_sqlite3", "psycopg")
            or m.startswith(("server.games", "server.ledger", "server.app", "server.commands",
                             "server.config.load", "server.cli"))]
    assert held == []
    assert "server.portal.portal" in out and "_ssl" not in out      # `ssl` is there: None

"""The docs cannot drift from the code: docs/config.md documents every key the
loader accepts, and every file the repository cites is in the repository."""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

from server.config import rooms, settings, tables
from server.games.catalogue import table_keys

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "config.md").read_text()

KEYS = sorted({
    *(f.name for group in (settings.SERVER_FIELDS, settings.LIMIT_FIELDS, settings.MSSP_FIELDS, settings.HASH_FIELDS, settings.RELIEF_FIELDS, settings.METRICS_FIELDS, tables.ID_FIELD,
                           (tables.game_field(),), rooms.ROOM_FIELDS)
      for f in group),
    *(f.name for keys in table_keys().values() for f in keys.rows),     # from each game's package
    *(key for keys in table_keys().values() for key in keys.top),
    "limits", "mssp", "password_hash", "relief", "metrics", "timing", "exits", "tables",
})


@pytest.mark.parametrize("key", KEYS)
def test_key_has_a_reference_row(key: str) -> None:
    assert f"| `{key}` |" in DOC


def test_directions_are_listed() -> None:
    flat = re.sub(r"\s+", " ", DOC)
    assert f"`{' '.join(rooms.DIRECTIONS)}`" in flat
    assert f"`{' '.join(rooms.ALIASES)}`" in flat


# --- every file the repository cites is in it ------------------------------------
# A citation of a file that is not here (a design note kept elsewhere) sends a
# reader nowhere. Two shapes are checked, chosen to have few false alarms: a
# path with a directory (docs/ledger.md, server/portal/game.py, config/server.yaml),
# found from the repository's root or from the citing file's own directory or
# one above it; and a bare capitalised name such as README.md, which must be
# the name of some file here. A bare lower-case name (game.py) is too often a
# file of the module beside it to be checked this way. In Python only comments
# and docstrings are read: a path in code is a file a test makes, not a citation.
SCANNED = ("server", "tests", "docs", "config", "rooms", "bench", ".ci",
           "README.md", "Makefile", "Dockerfile", "pyproject.toml", "compose.yaml")
TEXT_SUFFIXES = {".py", ".md", ".yaml", ".yml", ".toml", ".txt", ".html", ".js", ".css", ""}
CITED_PATH = re.compile(r"(?<![\w./~$-])((?:[\w.-]+/)+[\w.-]+\.(?:md|py|yaml))(?![\w/])")
CITED_NAME = re.compile(r"(?<![\w./~$-])([A-Z][A-Z0-9_-]*\.md)\b")
PLACEHOLDER = "path/to/"                # `--strategy path/to/file.py:Name`: any file of yours


def scanned_files() -> list[Path]:
    out: list[Path] = []
    for name in SCANNED:
        top = ROOT / name
        candidates = [top] if top.is_file() else sorted(top.rglob("*"))
        out += [p for p in candidates if p.is_file() and p.suffix in TEXT_SUFFIXES
                and "__pycache__" not in p.parts]
    return out


def prose(path: Path, text: str) -> list[tuple[int, str]]:
    """(line number, text) of what a reader reads as prose: a Python file's comments
    and docstrings, every line of any other file."""
    if path.suffix != ".py":
        return list(enumerate(text.splitlines(), 1))
    out = [(token.start[0], token.string) for token in tokenize.generate_tokens(io.StringIO(text).readline)
           if token.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                out += [(first.lineno + i, line) for i, line in enumerate(first.value.value.splitlines())]
    return sorted(out)


def missing_citations(path: Path, text: str, names: set[str]) -> list[str]:
    """`file:line: cited` for each file `text` (from `path`) cites that is not in the repository."""
    bases = (ROOT, path.parent, path.parent.parent)
    found = []
    for number, line in prose(path, text):
        for cited in CITED_PATH.findall(line):
            if not cited.startswith(PLACEHOLDER) and not any((base / cited).exists() for base in bases):
                found.append(f"{path.relative_to(ROOT)}:{number}: {cited}")
        for cited in CITED_NAME.findall(line):
            if cited not in names:
                found.append(f"{path.relative_to(ROOT)}:{number}: {cited}")
    return found


def test_every_cited_file_is_in_the_repository() -> None:
    files = scanned_files()
    names = {p.name for p in files}
    missing = [m for p in files for m in missing_citations(p, p.read_text(errors="replace"), names)]
    assert not missing, "cited but not in the repository:\n" + "\n".join(missing)


@pytest.mark.parametrize("line, cited", [
    ("the pitfalls of TELNET.md", "TELNET.md"),
    ('policy (RULES.md "Pig")', "RULES.md"),
    ("see docs/nowhere.md, the section", "docs/nowhere.md"),
    ("server/portal/gone.py: the old module", "server/portal/gone.py"),
    ("`config/missing.yaml`", "config/missing.yaml"),
])
def test_a_missing_citation_is_found(line: str, cited: str) -> None:
    assert missing_citations(ROOT / "docs" / "x.md", line, {"README.md"}) == [f"docs/x.md:1: {cited}"]


@pytest.mark.parametrize("line", [
    "README.md and docs/ledger.md", "server/portal/game.py", "(docs/architecture.md#the-portal)",
    "ledger.md beside it", "https://example.com/docs/RULES.md", "/etc/casino/TELNET.md",
    "game.py beside it", "--strategy path/to/file.py:Name",
])
def test_what_is_not_a_missing_citation(line: str) -> None:
    assert missing_citations(ROOT / "docs" / "x.md", line, {"README.md"}) == []


def test_python_is_read_in_its_comments_and_docstrings_only() -> None:
    source = '''"""Module: RULES.md"""
def f():
    """Function: docs/gone.md"""
    make("rooms/made.yaml")     # comment: TELNET.md
'''
    assert missing_citations(ROOT / "tests" / "x.py", source, set()) == [
        "tests/x.py:1: RULES.md", "tests/x.py:3: docs/gone.md", "tests/x.py:4: TELNET.md"]

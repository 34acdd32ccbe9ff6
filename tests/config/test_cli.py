"""`casino validate` as an operator runs it: a real process, real exit codes.

The process is started as `python -c "from server.cli import main; ..."`:
`python -m server.cli` needs a server/cli/__main__.py, which the package
does not have yet.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASINO = "import sys; from server.cli import main; sys.exit(main(sys.argv[1:]))"


def casino(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # This tree's server, whatever the cwd (the venv may hold another checkout's).
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", CASINO, *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60, env=env)


def test_shipped_files_are_valid() -> None:
    done = casino("validate", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == ("OK: 7 rooms, 11 tables (bank_craps, simple_craps, classic_craps, alley_craps, "
                                   "pig, roulette, crapless_craps, new_york_craps, diceless_craps, "
                                   "high_point_craps, die_rich), "
                                   "start room 'lobby', port 4000")


def test_broken_room_names_file_and_line(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "config", tmp_path / "cfg")
    shutil.copytree(ROOT / "rooms", tmp_path / "rms")
    lobby = tmp_path / "rms" / "lobby.yaml"
    lobby.write_text(lobby.read_text().replace("west: parlour", "west: parlor"))
    done = casino("validate", "--config", "cfg", "--rooms", "rms", cwd=tmp_path)
    assert done.returncode == 1
    line = next(i for i, text in enumerate(lobby.read_text().splitlines(), 1) if "parlor" in text)
    assert done.stdout.splitlines() == [
        f"rms/lobby.yaml:{line}: exits.west: no room 'parlor' (did you mean 'parlour'?)",
    ]


def test_missing_directories(tmp_path: Path) -> None:
    done = casino("validate", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        "config:0: (directory): not found or not a directory",
        "rooms:0: (directory): not found or not a directory",
    ]


def test_an_alias_bomb_and_deep_nesting_are_refused_quickly(tmp_path: Path) -> None:
    broken = ROOT / "tests" / "config" / "broken"
    for case in ("yaml_alias_bomb", "yaml_nesting_deep"):
        shutil.copytree(ROOT / "config", tmp_path / case / "cfg")
        shutil.copytree(broken / case / "rooms", tmp_path / case / "rms")
        done = subprocess.run([sys.executable, "-c", CASINO, "validate", "--config", "cfg", "--rooms", "rms"],
                              cwd=tmp_path / case, capture_output=True, text=True, timeout=20,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 1 and not done.stderr, done.stderr
        assert all(": yaml: refused: " in line for line in done.stdout.splitlines()), done.stdout

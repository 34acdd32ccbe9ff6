"""`casino validate` as an operator runs it: a real process, real exit codes.

What it must count is counted from the files (shipped, or a copy with a room
and a table added), never written here, so adding to the casino breaks nothing.
`casino serve` refuses what validate refuses: one check, in the loader.

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

import yaml

ROOT = Path(__file__).resolve().parents[2]
CASINO = "import sys; from server.cli import main; sys.exit(main(sys.argv[1:]))"


def casino(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # This tree's server, whatever the cwd (the venv may hold another checkout's).
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-c", CASINO, *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60, env=env)


def summary_of(config: Path, rooms: Path) -> str:
    """The line `casino validate` must print, from the files read with a plain
    YAML reader (the defaults are docs/config.md's)."""
    def docs(directory: Path) -> list[dict]:
        return [yaml.safe_load(p.read_text()) or {} for p in sorted(directory.iterdir())
                if p.suffix in (".yaml", ".yml") and not p.name.startswith(".")]
    server = next((d["server"] for d in docs(config) if "server" in d), None) or {}
    tables = [t["id"] for d in docs(config) for t in d.get("casino_tables") or ()]
    return (f"OK: {len(docs(rooms))} rooms, {len(tables)} tables ({', '.join(tables) or 'none'}), "
            f"start room {str(server.get('start_room', 'lobby'))!r}, port {server.get('port', 4000)}")


def copy_casino(tmp_path: Path) -> tuple[Path, Path]:
    shutil.copytree(ROOT / "config", tmp_path / "cfg")
    shutil.copytree(ROOT / "rooms", tmp_path / "rms")
    return tmp_path / "cfg", tmp_path / "rms"


def add_exit(room: Path, exit_line: str) -> int:
    """Add `exit_line` first under the room's exits:; the line number it is on."""
    text = room.read_text()
    assert "\nexits:\n" in text, room
    room.write_text(text.replace("\nexits:\n", f"\nexits:\n  {exit_line}\n", 1))
    return text[:text.index("\nexits:\n")].count("\n") + 3


def test_shipped_files_are_valid() -> None:
    done = casino("validate", cwd=ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == summary_of(ROOT / "config", ROOT / "rooms")
    assert done.stdout.startswith("OK: ") and "start room 'lobby', port 4000" in done.stdout


def test_a_new_room_and_table_are_counted(tmp_path: Path) -> None:
    cfg, rms = copy_casino(tmp_path)
    with (cfg / "casino_tables.yaml").open("a") as f:
        f.write("- id: high_roller\n  game: craps\n  max_players: 4\n  min_bet: 100\n  max_bet: 50000\n")
    (rms / "vip.yaml").write_text('id: vip\nname: VIP\ndescription: Velvet.\nexits: {down: "6185"}\n'
                                  "tables: [high_roller]\n")
    add_exit(rms / "6185.yaml", "up: vip")
    done = casino("validate", "--config", "cfg", "--rooms", "rms", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == summary_of(cfg, rms)
    shipped = summary_of(ROOT / "config", ROOT / "rooms")
    assert done.stdout.strip() != shipped and "high_roller)" in done.stdout


def one_way_casino(tmp_path: Path) -> tuple[Path, str]:
    """A copy whose lobby has a new exit east to a room with no exit back; the error expected."""
    _, rms = copy_casino(tmp_path)
    (rms / "cage.yaml").write_text("id: cage\nname: The Cage\ndescription: Bars on every side.\n")
    line = add_exit(rms / "lobby.yaml", "east: cage")
    return rms, (f"rms/lobby.yaml:{line}: exits.east: one-way: room 'cage' has no exit back to 'lobby'; "
                 "add one in rms/cage.yaml")


def test_a_one_way_exit_is_refused_at_its_line(tmp_path: Path) -> None:
    rms, expected = one_way_casino(tmp_path)
    assert (rms / "lobby.yaml").read_text().splitlines()[int(expected.split(":")[1]) - 1] == "  east: cage"
    done = casino("validate", "--config", "cfg", "--rooms", "rms", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stdout.splitlines() == [expected]


def test_serve_refuses_a_one_way_exit_before_it_opens_anything(tmp_path: Path) -> None:
    """The same check (the loader's), the same line, on standard error."""
    _, expected = one_way_casino(tmp_path)
    done = casino("serve", "--one-process", "--config", "cfg", "--rooms", "rms", "--port", "0",
                  "--web-port", "0", "--data", "casino.db", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [expected]
    assert not (tmp_path / "casino.db").exists()


def test_broken_room_names_file_and_line(tmp_path: Path) -> None:
    _, rms = copy_casino(tmp_path)
    lobby = rms / "lobby.yaml"
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

"""Pig's view renders a fact plus a frozen PigSnapshot the dealer builds; it
never receives the dealer, and the dealer and view modules do not import
each other (both import server.games.pig.snapshot)."""
from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from server.config.load import load_config
from server.games.pig import events as ev
from server.games.pig import view
from server.games.pig.options import PigOptions
from server.games.pig.snapshot import GameSnapshot, PigSnapshot
from server.games.seam import Viewer
from server.render.prefs import Prefs
from support.dice import TableDice
from support.pure_table import PureTable

ROOT = Path(__file__).resolve().parents[2]
PIG = ROOT / "server" / "games" / "pig"


def imported(path: Path) -> set[str]:
    """Every module `path` imports, at any depth (TYPE_CHECKING blocks too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{a.name}" for a in node.names}
    return found


def test_the_view_and_the_snapshot_do_not_import_the_dealer():
    for name in ("view.py", "snapshot.py", "events.py"):
        assert "server.games.pig.dealer" not in imported(PIG / name), name
    assert "server.games.pig.view" not in imported(PIG / "snapshot.py")


def test_the_view_functions_take_no_dealer():
    import inspect
    for fn in (view.event_lines, view.table_view, view.rules_text, view.table_data, view.event_data):
        params = inspect.signature(fn).parameters
        assert all("Dealer" not in str(p.annotation) for p in params.values()), fn.__name__


def playing_table() -> PureTable:
    cfg = load_config(ROOT / "config", ROOT / "rooms").tables["pig"]
    t = PureTable(cfg, 10, TableDice([(3, 4)] * 10))
    for p in ("ann", "bob"):
        t.sit(p, 1000)
    t.act("ann", ["start"], 1000)
    return t


def test_the_snapshot_is_frozen_hashable_and_a_copy():
    t = playing_table()
    snap = t.snapshot()
    assert isinstance(snap, PigSnapshot) and isinstance(snap.game, GameSnapshot)
    hash(snap)                                   # only immutable values inside: tuples, frozensets
    with pytest.raises(dataclasses.FrozenInstanceError):
        snap.seated = ()                         # type: ignore[misc]
    assert snap.game.current == "ann" and snap.game.round_score == 0
    t.act("ann", ["roll"], 1000)                 # the dealer moves on; the copy does not
    assert snap.game.round_score == 0 and t.snapshot().game.round_score == 7
    assert t.snapshot() != snap


def test_the_dealer_renders_through_its_snapshot():
    t = playing_table()
    viewer = Viewer("cat", Prefs(), seated=False)
    snap = t.snapshot()
    assert t.view(viewer) == view.table_view(snap, viewer)
    assert t.rules() == view.rules_text(snap)
    assert t.table_data() == view.table_data(snap)
    fact = ev.TurnStarted("cat", 0, 1, False)
    assert t.render(fact, viewer) == view.event_lines(snap, fact, viewer)


def test_the_view_reads_only_the_snapshot():
    options = PigOptions(target=50, stake=10)
    game = GameSnapshot(number=3, playing=True, options=options, vs_computer=False,
                        players=("ann", "bob"), computer=None, scores=(("ann", 12), ("bob", 30), ("cy", 5)),
                        current="bob", round_score=6, rounds=4, pot=30)
    snap = PigSnapshot(table_id="pig-x", max_players=4, options=options, seated=("ann", "bob", "dee"),
                       ready=frozenset({"dee"}), game=game, last=None)
    lines = view.table_view(snap, Viewer("ann", Prefs(), seated=True))
    whole = " ".join(" ".join(lines).split())    # the first line wraps (indented) at the viewer's width
    assert whole.startswith("Pig table pig-x: first to 50 wins, ante 10 chips")
    assert "Seated (3/4): ann, bob, dee (not ready)." not in whole
    assert "Seated (3/4): ann, bob, dee." in whole
    assert "Game 3, round 4, pot 30 chips:" in lines
    assert any(line.startswith("  > bob") and "on turn, round score 6" in line for line in lines)
    assert "Waiting for the next game: dee." in lines
    assert view.table_data(snap) == {"target": 50, "turn": "bob", "scores": {"ann": 12, "bob": 30, "cy": 5},
                                     "round_score": 6, "ready": ["dee"]}
    over = dataclasses.replace(snap, game=dataclasses.replace(game, playing=False))
    assert view.table_data(over)["turn"] is None
    assert "No game is running" in " ".join(view.table_view(over, Viewer("ann", Prefs(), seated=True)))
    closed = view.event_lines(snap, ev.GameClosed("shutdown"), Viewer("ann", Prefs(), seated=True))
    assert closed == ["The game of Pig is stopped; every ante is refunded."]

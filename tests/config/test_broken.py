"""The corpus of broken casinos: each folder must produce exactly its expected lines.

Each case in broken/<name>/ holds config/ (optional: an empty one is used if
absent, since git keeps no empty folders), rooms/ and expected.txt, the full
output of the loader with paths relative to the case folder; its game lists
are named, not spelled (tests/support/broken.py).
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from server.config.load import ConfigInvalid, load_config
from support.broken import BROKEN, expected_lines, games_named

CASES = sorted(p.name for p in BROKEN.iterdir() if p.is_dir())


def test_corpus_is_large() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("name", CASES)
def test_broken_case(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = tmp_path / name
    shutil.copytree(BROKEN / name, case)
    (case / "config").mkdir(exist_ok=True)
    monkeypatch.chdir(case)
    expected = expected_lines(case)
    with pytest.raises(ConfigInvalid) as caught:
        load_config(Path("config"), Path("rooms"))
    assert [str(e) for e in caught.value.errors] == expected


def test_a_game_list_is_spelled_from_the_catalogue() -> None:
    assert games_named("one of {games}.").startswith("one of craps, alley_craps, pig, roulette")
    assert games_named("only for game {reading:la_partage}") == "only for game roulette"

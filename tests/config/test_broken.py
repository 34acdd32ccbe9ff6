"""The corpus of broken casinos: each folder must produce exactly its expected lines.

Each case in broken/<name>/ holds config/ (optional: an empty one is used if
absent, since git keeps no empty folders), rooms/ and expected.txt, the full
output of the loader with paths relative to the case folder.
"""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from server.config.load import ConfigInvalid, load_config

BROKEN = Path(__file__).parent / "broken"
CASES = sorted(p.name for p in BROKEN.iterdir() if p.is_dir())


def test_corpus_is_large() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize("name", CASES)
def test_broken_case(name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    case = tmp_path / name
    shutil.copytree(BROKEN / name, case)
    (case / "config").mkdir(exist_ok=True)
    monkeypatch.chdir(case)
    expected = (case / "expected.txt").read_text().splitlines()
    with pytest.raises(ConfigInvalid) as caught:
        load_config(Path("config"), Path("rooms"))
    assert [str(e) for e in caught.value.errors] == expected

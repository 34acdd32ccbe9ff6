"""The corpus of broken casinos: each folder must produce exactly its expected lines.

Each case in broken/<name>/ holds config/ (optional: an empty one is used if
absent, since git keeps no empty folders), rooms/ and expected.txt, the full
output of the loader with paths relative to the case folder. Where a message
lists games, expected.txt says which list instead of spelling it out, so a new
game changes no case: `{games}` is every `game:` value, `{reading:KEY}` the
games whose tables read KEY at the top of an entry (both as the loader joins them).
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from server.config.load import ConfigInvalid, load_config
from server.games.catalogue import table_keys

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
    expected = [games_named(line) for line in (case / "expected.txt").read_text().splitlines()]
    with pytest.raises(ConfigInvalid) as caught:
        load_config(Path("config"), Path("rooms"))
    assert [str(e) for e in caught.value.errors] == expected


def games_named(line: str) -> str:
    """An expected line with its game lists spelled out from the catalogue."""
    keys = table_keys()
    line = line.replace("{games}", ", ".join(keys))
    return re.sub(r"\{reading:(\w+)\}",
                  lambda m: " or ".join(g for g, k in keys.items() if m.group(1) in k.top), line)


def test_a_game_list_is_spelled_from_the_catalogue() -> None:
    assert games_named("one of {games}.").startswith("one of craps, alley_craps, pig, roulette")
    assert games_named("only for game {reading:la_partage}") == "only for game roulette"

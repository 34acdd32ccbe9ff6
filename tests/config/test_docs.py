"""docs/config.md documents every key the loader accepts, so the two cannot drift."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.config import rooms, settings, tables
from server.games.catalogue import table_keys

DOC = (Path(__file__).resolve().parents[2] / "docs" / "config.md").read_text()

KEYS = sorted({
    *(f.name for group in (settings.SERVER_FIELDS, settings.LIMIT_FIELDS, settings.MSSP_FIELDS, settings.HASH_FIELDS, settings.RELIEF_FIELDS, tables.ID_FIELD,
                           (tables.game_field(),), rooms.ROOM_FIELDS)
      for f in group),
    *(f.name for keys in table_keys().values() for f in keys.rows),     # from each game's package
    *(key for keys in table_keys().values() for key in keys.top),
    "limits", "mssp", "password_hash", "relief", "timing", "exits", "tables",
})


@pytest.mark.parametrize("key", KEYS)
def test_key_has_a_reference_row(key: str) -> None:
    assert f"| `{key}` |" in DOC


def test_directions_are_listed() -> None:
    flat = re.sub(r"\s+", " ", DOC)
    assert f"`{' '.join(rooms.DIRECTIONS)}`" in flat
    assert f"`{' '.join(rooms.ALIASES)}`" in flat

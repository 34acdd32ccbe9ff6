"""docs/config.md documents every key the loader accepts, so the two cannot drift."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.config import rooms, settings, tables

DOC = (Path(__file__).resolve().parents[2] / "docs" / "config.md").read_text()

KEYS = sorted({
    *(f.name for group in (settings.SERVER_FIELDS, settings.LIMIT_FIELDS, tables.CRAPS_FIELDS,
                           tables.TIMING_FIELDS, tables.ALLEY_FIELDS, tables.PIG_FIELDS,
                           tables.ID_FIELD, tables.GAME_FIELD, rooms.ROOM_FIELDS)
      for f in group),
    "limits", "min_bet", "max_bet", "craps", "timing", "exits", "tables",
})


@pytest.mark.parametrize("key", KEYS)
def test_key_has_a_reference_row(key: str) -> None:
    assert f"| `{key}` |" in DOC


def test_directions_are_listed() -> None:
    flat = re.sub(r"\s+", " ", DOC)
    assert f"`{' '.join(rooms.DIRECTIONS)}`" in flat
    assert f"`{' '.join(rooms.ALIASES)}`" in flat

"""The corpus of broken casinos (tests/config/broken/): each case's expected lines.

Where a message lists games, expected.txt says which list instead of spelling
it out, so a new game changes no case: `{games}` is every `game:` value,
`{reading:KEY}` the games whose tables read KEY at the top of an entry (both
joined as the loader joins them).
"""
from __future__ import annotations

import re
from pathlib import Path

from server.games.catalogue import table_keys

BROKEN = Path(__file__).resolve().parents[1] / "config" / "broken"


def games_named(line: str) -> str:
    """An expected line with its game lists spelled out from the catalogue."""
    keys = table_keys()
    line = line.replace("{games}", ", ".join(keys))
    return re.sub(r"\{reading:(\w+)\}",
                  lambda m: " or ".join(g for g, k in keys.items() if m.group(1) in k.top), line)


def expected_lines(case: Path) -> list[str]:
    """What the loader must say of the case, every line."""
    return [games_named(line) for line in (case / "expected.txt").read_text().splitlines()]

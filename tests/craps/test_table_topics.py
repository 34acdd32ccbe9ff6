"""`help <bet>` with a table's own figures (issue 38 item 7): pure, from the
table's config, for every craps variant the shipped config opens."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from server.config.load import load_config
from server.games.craps.help import FIELD_12_ANY, table_topics, topics_for
from server.games.craps.options import variant_of

ROOT = Path(__file__).resolve().parents[2]
TABLES = load_config(ROOT / "config", ROOT / "rooms").tables


def with_options(table: str, **changes):
    config = TABLES[table]
    return dataclasses.replace(config, options=dataclasses.replace(config.options, **changes))


def test_the_field_says_this_tables_12_and_only_it():
    for field_12 in (2, 3):
        topics = table_topics(with_options("bank_craps", field_12=field_12))
        assert topics["field"].endswith(f"2 pays 2:1, 12 pays {field_12}:1 here.")
        assert FIELD_12_ANY not in topics["field"]
    assert topics_for()["field"].endswith(FIELD_12_ANY)         # the general line is unchanged


def test_odds_say_this_tables_multiple():
    assert table_topics(with_options("bank_craps", odds=0))["odds"].endswith(
        "Here: up to 3x on 4 and 10, 4x on 5 and 9, 5x on 6 and 8 taken; 6x the flat bet laid.")
    assert table_topics(with_options("new_york_craps", odds=20))["odds"].endswith("Here: up to 20x the flat bet.")


def test_a_variant_without_the_figure_keeps_its_topics_as_they_are():
    for table in ("high_point_craps", "die_rich"):
        if table in TABLES:
            config = TABLES[table]
            assert table_topics(config) == topics_for(variant_of(config.options))


def test_simplified_dont_pass_says_this_tables_bar():
    from server.games.simplified.entry import BAR_ANY, SIMPLIFIED
    assert SIMPLIFIED.table_topics is not None
    barred = SIMPLIFIED.table_topics(with_options("simple_craps", dont_pass_bar=12))
    assert "a come-out 12 pushes here (bar 12)" in barred["dontpass"] and BAR_ANY not in barred["dp"]
    open_12 = SIMPLIFIED.table_topics(with_options("simple_craps", dont_pass_bar=None))
    assert "no bar here: a come-out 12 wins as 2 and 3 do" in open_12["dontpass"]
    assert BAR_ANY in SIMPLIFIED.topics["dontpass"]

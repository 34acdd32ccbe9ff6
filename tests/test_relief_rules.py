"""Relief's pure rules: which tables say what "too poor to play" is, the
key's periods, and how waits read (server.commands.relief)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from server.commands.relief import relief_key, relief_period, smallest_minimum_bet, span, takes_chips
from server.config.load import load_config
from server.dice.fair import FairDice
from server.tables.core import TableCore

ROOT = Path(__file__).resolve().parents[1]


def tables_and_dealers(tables):
    """Each table's config and a dealer of its game, as the casino's hosts hold them."""
    return [(t, TableCore(t, 10, FairDice(t.id, seed=1)).dealer) for t in tables]


def test_the_shipped_casino_s_smallest_bet_leaves_out_tables_that_take_no_chips() -> None:
    tables = load_config(ROOT / "config", ROOT / "rooms").tables
    dealt = dict(zip(tables, tables_and_dealers(tables.values())))
    assert not takes_chips(*dealt["pig"])                  # stake 0: plays for nothing
    assert not takes_chips(*dealt["classic_craps"])        # practice chips, never in the ledger
    assert takes_chips(*dealt["simple_craps"]) and takes_chips(*dealt["alley_craps"])
    assert smallest_minimum_bet(dealt.values()) == 1       # bank craps and roulette take 1
    dearer = [dataclasses.replace(t, min_bet=max(t.min_bet, 25)) if t.min_bet else t for t in tables.values()]
    assert smallest_minimum_bet(tables_and_dealers(dearer)) == 25
    assert smallest_minimum_bet(pair for pair in dealt.values() if not takes_chips(*pair)) == 1
    assert smallest_minimum_bet([]) == 1


def test_a_key_per_player_and_period() -> None:
    day = 24 * 3600
    assert relief_period(24, 10 * day) == relief_period(24, 11 * day - 1) == 10
    assert relief_period(24, 11 * day) == 11
    assert relief_key("ann", 24, 10) == "relief:ann:24h:10"
    assert relief_key("ann", 12, 20) != relief_key("ann", 24, 20)   # another length: another key


def test_waits_read_at_a_glance() -> None:
    assert span(0) == span(59) == "less than a minute"
    assert span(60) == "1m" and span(3600) == "1h" and span(3 * 3600 + 600) == "3h 10m"
    assert span(24 * 3600) == "24h" and span(47 * 3600 + 59 * 60) == "47h 59m"
    assert span(48 * 3600) == "2d" and span(3 * 86400 + 4 * 3600) == "3d 4h"

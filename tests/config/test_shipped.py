"""The casino shipped in config/ and rooms/ loads and is the one the specs describe."""
from __future__ import annotations

from pathlib import Path

import pytest

from server.config.load import load_config
from server.config.model import CasinoConfig
from server.games.alley.options import AlleyOptions
from server.games.craps.options import CrapsOptions
from server.games.pig.options import PigOptions

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def cfg() -> CasinoConfig:
    return load_config(ROOT / "config", ROOT / "rooms")


def test_settings(cfg: CasinoConfig) -> None:
    s = cfg.settings
    assert (s.host, s.port, s.tick_hz, s.start_room) == ("127.0.0.1", 4000, 10, "lobby")
    assert s.operators == ("admin",)
    assert s.starting_chips == 1000
    assert s.limits.max_line == 512 and s.limits.idle_timeout == 3600


def test_bank_craps_matches_spec_004(cfg: CasinoConfig) -> None:
    t = cfg.tables["bank_craps"]
    assert (t.game, t.max_players, t.min_bet, t.max_bet) == ("craps", 12, 1, 10000)
    assert t.options == CrapsOptions(variant="bank", odds=0, field_12=3)
    assert t.source is not None and t.source.file.endswith("casino_tables.yaml")


def test_simplified_craps(cfg: CasinoConfig) -> None:
    t = cfg.tables["simple_craps"]
    assert isinstance(t.options, CrapsOptions)
    assert (t.options.variant, t.options.dont_pass_bar, t.options.press) == ("simplified", 12, "pass")
    assert (t.max_players, t.min_bet, t.max_bet) == (1, 5, 1000)
    assert t.options.dice == "fair"


def test_classic_craps_is_a_simplified_table_with_classic_dice(cfg: CasinoConfig) -> None:
    t = cfg.tables["classic_craps"]
    assert t.options == CrapsOptions(variant="simplified", dice="classic")
    assert (t.max_players, t.min_bet, t.max_bet) == (1, 5, 1000)
    assert cfg.rooms["solo"].tables == ("simple_craps", "classic_craps")   # `play craps` still finds simple_craps


def test_alley_and_pig(cfg: CasinoConfig) -> None:
    alley = cfg.tables["alley_craps"]
    assert alley.options == AlleyOptions()
    assert (alley.max_players, alley.min_bet, alley.max_bet) == (6, 10, 600)
    pig = cfg.tables["pig"]
    assert pig.options == PigOptions()
    assert (pig.max_players, pig.min_bet, pig.max_bet) == (6, 0, 0)


def test_rooms_and_exits(cfg: CasinoConfig) -> None:
    rooms = cfg.rooms
    assert set(rooms) == {"lobby", "6184", "6185", "6186", "alley", "parlour", "solo"}
    assert rooms["lobby"].exits == {"north": "6185", "down": "alley", "west": "parlour", "south": "solo"}
    assert rooms["6185"].name == "Bank Craps"
    assert rooms["6185"].exits == {"east": "6186", "west": "6184", "south": "lobby"}
    assert rooms["6184"].name == "Craps Variants" and rooms["6184"].exits == {"east": "6185"}
    assert rooms["6186"].exits == {"west": "6185"} and rooms["6186"].tables == ("roulette",)
    assert rooms["alley"].exits == {"up": "lobby"}
    assert rooms["parlour"].exits == {"east": "lobby"}
    assert rooms["solo"].exits == {"north": "lobby"}
    placed = {t: r.id for r in rooms.values() for t in r.tables}
    assert placed == {"bank_craps": "6185", "alley_craps": "alley", "pig": "parlour",
                      "simple_craps": "solo", "classic_craps": "solo", "roulette": "6186", "crapless_craps": "6184",
                      "new_york_craps": "6184", "diceless_craps": "6184", "high_point_craps": "6184",
                      "die_rich": "6184"}


def test_the_variant_tables(cfg: CasinoConfig) -> None:
    for table_id, variant, field_12 in (("crapless_craps", "crapless", 2), ("new_york_craps", "new_york", 2),
                                        ("diceless_craps", "diceless", 3)):
        t = cfg.tables[table_id]
        assert t.options == CrapsOptions(variant=variant, odds=0, field_12=field_12)
        assert (t.max_players, t.min_bet, t.max_bet) == (12, 1, 10000)
    for table_id, variant in (("high_point_craps", "high_point"), ("die_rich", "die_rich")):
        t = cfg.tables[table_id]                 # no odds or field here: bank craps' defaults, unread
        assert t.options == CrapsOptions(variant=variant)
        assert (t.max_players, t.min_bet, t.max_bet) == (12, 1, 10000)


def test_descriptions_are_short_plain_ascii(cfg: CasinoConfig) -> None:
    for room in cfg.rooms.values():
        assert room.description.isascii() and "\n" not in room.description
        assert 1 <= room.description.count(". ") + 1 <= 3, room.id
        assert room.source is not None and room.source.file == f"{ROOT / 'rooms' / room.id}.yaml"

"""The last good config copy when shards start side by side (server/portal/last_good.py):
each start keeps its own copy, so one shard's start cannot drop or swap another's."""
from __future__ import annotations

from pathlib import Path

from server.portal.last_good import LastGoodConfig


def dirs(tmp_path: Path, field_12: str) -> tuple[Path, Path]:
    config, rooms = tmp_path / "config", tmp_path / "rooms"
    config.mkdir(exist_ok=True)
    rooms.mkdir(exist_ok=True)
    (config / "casino_tables.yaml").write_text(f"field_12: {field_12}\n")
    (rooms / "lobby.yaml").write_text("id: lobby\n")
    return config, rooms


def test_each_start_keeps_its_own_copy_and_only_a_ready_one_becomes_good(tmp_path):
    last_good = LastGoodConfig()
    try:
        operator = dirs(tmp_path, "3")
        first = last_good.take(operator)
        second = last_good.take(operator)              # a second shard, before the first is ready
        assert first is not None and second is not None and first != second
        last_good.worked(first)
        assert last_good.good == first
        dirs(tmp_path, "banana")                          # broken before the next start
        third = last_good.take(operator)
        assert third is not None
        last_good.failed(third)                           # it did not start
        last_good.worked(second)                          # the other shard came up meanwhile
        assert last_good.good == second and not first[0].exists() and not third[0].exists()
        assert (second[0] / "casino_tables.yaml").read_text() == "field_12: 3\n"
    finally:
        last_good.remove()
    assert not last_good.root.exists()


def test_a_copy_that_cannot_be_made_is_none(tmp_path):
    last_good = LastGoodConfig()
    try:
        assert last_good.take((tmp_path / "missing", tmp_path / "also_missing")) is None
        assert last_good.good is None
    finally:
        last_good.remove()

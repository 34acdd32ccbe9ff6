"""A game is only its package: high card, a sixth game that lives under
tests/support/highcard and nowhere under server/, registered through the
catalogue's public API and played over telnet like any other.

Every command that lists, describes, verifies or validates games learns it
from its catalogue entry alone: `play`, `watch`, `table`, `table rules`,
`help`, its own words (`bet`, `bets`, `unbet`, `deal`), `leave`, `fair` with
its draws re-derived by `casino verify`, `look` and `who` with its role
words, GMCP, `casino odds` and `casino validate`.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml
from support.highcard import HIGH_CARD
from support.highcard.cards import rank
from support.telnet import login, plain

from server.cli import main
from server.games import catalogue

ROOT = Path(__file__).resolve().parents[2]
FAST = {"commands_per_second": 1000}
# The telnet tests play for chips, on SQLite and on PostgreSQL; the rest take no database.
pytestmark = pytest.mark.both_stores

TABLE = """
- id: high_card
  game: high_card
  max_players: 4
  min_bet: 2
  max_bet: 50
  ties: {ties}
"""


@pytest.fixture
def high_card():
    catalogue.register(HIGH_CARD)
    yield HIGH_CARD
    catalogue.unregister(HIGH_CARD)


def casino_files(tmp_path: Path, ties: str = "house") -> tuple[Path, Path]:
    """The shipped config and rooms, plus a high card table in the lobby."""
    config, rooms = tmp_path / "config", tmp_path / "rooms"
    shutil.copytree(ROOT / "config", config)
    shutil.copytree(ROOT / "rooms", rooms)
    tables = config / "casino_tables.yaml"
    tables.write_text(tables.read_text() + TABLE.format(ties=ties))
    lobby = rooms / "lobby.yaml"
    room = yaml.safe_load(lobby.read_text())
    room["tables"] = [*room.get("tables", []), "high_card"]     # beside whatever the lobby holds
    lobby.write_text(yaml.safe_dump(room, sort_keys=False))
    return config, rooms


@pytest.fixture
async def casino(high_card, tmp_path, database):
    import dataclasses

    from server.app import Casino
    from server.config.load import load_config
    from server.ledger import check
    config_dir, rooms_dir = casino_files(tmp_path)
    config = load_config(config_dir, rooms_dir)
    limits = dataclasses.replace(config.settings.limits, accounts_per_ip_per_hour=1000, **FAST)
    config = dataclasses.replace(config, settings=dataclasses.replace(config.settings, limits=limits))
    app = Casino(config, database, config_dir=config_dir, rooms_dir=rooms_dir)
    await app.start("127.0.0.1", 0, run_clock=False)
    yield app
    await app.stop()
    report = check(app.database)
    assert report.ok, report


def test_nothing_under_server_names_the_test_game():
    for path in (ROOT / "server").rglob("*"):
        if path.is_file() and path.suffix in (".py", ".yaml", ".md", ".html", ".js"):
            text = path.read_text(errors="replace").lower()
            assert "high_card" not in text and "highcard" not in text, path


async def test_the_test_game_plays_over_telnet(casino, connect):
    ann, bob = await connect(ttype="dumb"), await connect(ttype="dumb")
    await login(ann, "ann")
    await login(bob, "bob")
    await ann.expect("bob arrives.")
    banner_games = plain(await ann.cmd("help highcard"))
    assert "High card (The Lobby): one card each against the house's; higher wins." in banner_games
    assert "bet <n> - put n chips on your next card" in banner_games
    assert "deal - deal a card to every bettor" in banner_games
    assert "High card: bet bets unbet deal (help highcard)" in plain(await ann.cmd("help"))
    assert "High card: deal - deal a card" in plain(await ann.cmd("help deal"))
    assert "'deal' is a table command: sit at a table first (play highcard)." in plain(await ann.cmd("deal"))

    assert "Welcome to high card" in plain(await ann.cmd("play highcard"))
    look = plain(await ann.cmd("look"))
    assert "A high card table is here (high_card): 'play highcard' to sit." in look
    assert "Seated: ann. ann deals the cards." in look
    assert "ann" in plain(await ann.cmd("who")) and "high card (high_card), deals the cards" in plain(await ann.cmd("who"))
    assert "You watch high_card" in plain(await bob.cmd("watch highcard"))

    assert "Usage: bet <n>" in plain(await ann.cmd("bet"))
    assert "Bets here are 2 to 50 chips." in plain(await ann.cmd("bet 500"))
    assert "High card has no 'roll': bet, bets, unbet, deal." in plain(await ann.cmd("roll"))
    out = plain(await ann.cmd("bet 10"))
    assert "ann bets 10." in out and "Your bet: 10 chips." in out
    assert "Your bet: 10 chips." in plain(await ann.cmd("bets"))
    assert "Your bet of 10 comes back." in plain(await ann.cmd("unbet"))
    assert "Wallet: 1000" in plain(await ann.cmd("balance")) or "1000" in plain(await ann.cmd("balance"))
    await ann.cmd("bet 10")
    table = plain(await ann.cmd("table"))
    assert "High card table high_card: bets 2 to 50, ties go to the house." in table
    assert "ann: 10 chips down." in table
    assert "A tie goes to the house." in plain(await ann.cmd("table rules"))

    dealt = plain(await ann.cmd("flip"))                       # the alias of deal
    match = re.search(r"Deal 1: the house draws (\w+)\.", dealt)
    mine = re.search(r"ann draws (\w+) and (wins|loses) (\d+)\.", dealt)
    assert match and mine, dealt
    assert "+-----+" in dealt
    watched = plain(await bob.expect("Deal 1"))
    assert f"the house draws {match.group(1)}" in watched
    balance = plain(await ann.cmd("balance"))
    expected = 1010 if mine.group(2) == "wins" else 990
    assert f"{expected:,}" in balance or str(expected) in balance, balance

    fair = plain(await ann.cmd("fair"))
    assert "Provably fair card at table high_card." in fair
    seed = re.search(r"Revealed server seeds, newest first:\s+(\w+)", fair)
    client = re.search(r"client seed '([^']*)' nonces 0-1", fair)
    assert seed and client, fair
    assert "Check a deal: casino verify --server-seed S --client-seed C --nonce N --draw 13" in fair
    await ann.cmd("leave")
    assert "Nobody is seated." in plain(await ann.cmd("look"))


async def test_fair_draws_are_re_derived_by_casino_verify(casino, connect, capsys):
    ann = await connect(ttype="dumb")
    await login(ann, "cara")
    await ann.cmd("play highcard")
    await ann.cmd("bet 5")
    dealt = plain(await ann.cmd("deal"))
    house = re.search(r"the house draws (\w+)\.", dealt).group(1)
    mine = re.search(r"cara draws (\w+) and", dealt).group(1)
    fair = plain(await ann.cmd("fair"))
    seed = re.search(r"Revealed server seeds, newest first:\s+(\w+)", fair).group(1)
    client = re.search(r"client seed '([^']*)' nonces 0-1", fair).group(1)
    capsys.readouterr()
    assert main(["verify", "--server-seed", seed, "--client-seed", client, "--nonce", "0",
                 "--count", "2", "--draw", "card"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == [f"nonce 0: card {mine}", f"nonce 1: card {house}"]
    assert rank(12) == "A"


def test_casino_odds_prints_the_test_games_sheet(high_card, tmp_path, capsys):
    config, rooms = casino_files(tmp_path)
    assert main(["odds", "--config", str(config), "--rooms", str(rooms), "--table", "high_card"]) == 0
    out = capsys.readouterr().out
    assert "high_card: high card, ties to the house" in out
    assert "7.692%   (1/13)" in out


def test_casino_validate_reads_the_test_games_keys_with_file_and_line(high_card, tmp_path, capsys):
    config, rooms = casino_files(tmp_path)
    assert main(["validate", "--config", str(config), "--rooms", str(rooms)]) == 0
    assert "high_card" in capsys.readouterr().out
    config, rooms = casino_files(tmp_path / "bad", ties="maybe")
    assert main(["validate", "--config", str(config), "--rooms", str(rooms)]) == 1
    out = capsys.readouterr().out
    tables = (config / "casino_tables.yaml").read_text().splitlines()
    line = next(i for i, text in enumerate(tables, 1) if "ties: maybe" in text)
    assert f"casino_tables.yaml:{line}: casino_tables[high_card].ties: must be one of house, push" in out, out


def test_without_registration_the_game_is_refused_by_name(tmp_path, capsys):
    config, rooms = casino_files(tmp_path)
    assert main(["validate", "--config", str(config), "--rooms", str(rooms)]) == 1
    assert "high_card" in capsys.readouterr().out


async def test_help_names_every_catalogued_game_the_test_game_too(casino, connect):
    a = await connect(ttype="dumb")
    await login(a, "dana")
    out = " ".join(plain(await a.cmd("help help")).split())
    assert "'help roulette'" in out and "'help highcard'" in out

"""Operating a live casino: reload (valid and broken), operator rights, tables, close, grant."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from server.app import Casino
from server.config.load import load_config
from support.telnet import Client, login, plain
from support.broken import BROKEN, expected_lines

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.both_stores      # operating moves chips too (grant, refunds at close and shutdown)


@pytest.fixture
async def live(tmp_path, monkeypatch, database):
    """A casino whose config/ and rooms/ are copies the test may edit."""
    from server.ledger import check
    shutil.copytree(ROOT / "config", tmp_path / "config")
    shutil.copytree(ROOT / "rooms", tmp_path / "rooms")
    monkeypatch.chdir(tmp_path)
    config = load_config(Path("config"), Path("rooms"))
    app = Casino(config, database, seed=99, config_dir=Path("config"), rooms_dir=Path("rooms"))
    await app.start("127.0.0.1", 0, run_clock=False)
    yield app
    await app.stop()
    assert check(app.database).ok


async def operator(app) -> Client:
    """The operator account, made on the server side as operators are."""
    from server.accounts.create import create_account
    if await app.accounts.get("admin") is None:
        await create_account(app.accounts, app.ledger, app.passwords, "admin", "secret123", 1000)
    c = await Client.open(app.port, ttype="dumb")
    await login(c, "admin", create=False)
    return c


async def player(app, name) -> Client:
    c = await Client.open(app.port, ttype="dumb")
    await login(c, name)
    return c


async def at_craps(app, name) -> Client:
    """A player seated at the bank craps table in room 6185."""
    c = await player(app, name)
    await c.cmd("north")
    await c.cmd_expect("play craps", "joins the table")
    return c


def edit(path: str, old: str, new: str) -> None:
    p = Path(path)
    text = p.read_text()
    assert old in text
    p.write_text(text.replace(old, new))


async def test_operator_names_cannot_be_claimed_over_telnet(live):
    c = await Client.open(live.port, ttype="dumb")
    await c.read_until_prompt()
    assert "reserved" in await c.cmd("create admin secret123")
    assert "reserved" in await c.cmd("ADMIN")
    assert await live.accounts.get("admin") is None


async def test_players_have_no_operator_commands(live):
    c = await player(live, "pat")
    for word in ("reload", "tables", "grant pat 100 gift", "kick pat", "shutdown", "restart",
                 "ledger check", "close lobby"):
        out = await c.cmd(word)
        assert "No such command" in out, word
    assert "Wallet: 1000 chips." in await c.cmd("balance")


async def test_every_broken_file_is_refused_and_the_server_is_unchanged(live):
    """Each case of the broken corpus is reloaded into the live server (directly:
    55 reloads in a row would trip the operator's commands-per-second limit;
    the first goes through telnet to show what the operator reads)."""
    op = await operator(live)
    before = (live.config, dict(live.tables), dict(live.world.rooms))
    cases = sorted(p for p in BROKEN.iterdir() if p.is_dir())
    assert len(cases) >= 30
    for case in cases:
        for folder in ("config", "rooms"):
            shutil.rmtree(folder)
            if (case / folder).exists():
                shutil.copytree(case / folder, folder)
            else:
                Path(folder).mkdir()
        expected = expected_lines(case)
        if case == cases[0]:
            out = plain(await op.cmd_expect("reload", "Reload"))
            assert "Reload refused" in out and "nothing changed" in out
            assert all(line in out for line in expected)
        else:
            applied, lines = await live.reload()
            assert not applied and lines == expected, case.name
        assert (live.config, dict(live.tables), dict(live.world.rooms)) == before, case.name


async def test_reload_adds_a_table_players_can_join(live):
    op = await operator(live)
    with open("config/casino_tables.yaml", "a") as f:
        f.write("- id: high_roller\n  game: craps\n  max_players: 4\n  min_bet: 100\n  max_bet: 50000\n")
    Path("rooms/vip.yaml").write_text(
        'id: vip\nname: The VIP Room\ndescription: Velvet ropes and quiet money.\nexits:\n  west: "6185"\ntables: [high_roller]\n')
    text = Path("rooms/6185.yaml").read_text().replace('  east: "6186"\n', '  east: "6186"\n  north: vip\n')
    Path("rooms/6185.yaml").write_text(text)
    out = plain(await op.cmd_expect("reload", "Reload"))
    assert "Tables opened: high_roller." in out and "Rooms added: vip." in out
    p = await player(live, "quin")
    await p.cmd("north")
    assert "The VIP Room" in plain(await p.cmd("north"))
    await p.cmd_expect("play craps", "joins the table")
    assert "table minimum is 100" in plain(await p.cmd_expect("bet pass 50", "Refused"))
    assert "Bet accepted: pass 100." in plain(await p.cmd_expect("bet pass 100", "Your bets"))


async def test_changed_limits_apply_to_the_next_wager(live):
    op = await operator(live)
    p = await at_craps(live, "rae")
    await p.cmd_expect("bet pass 10", "Your bets")
    edit("config/casino_tables.yaml", "  max_bet: 10000\n", "  max_bet: 50\n")
    out = plain(await op.cmd_expect("reload", "Reload"))
    assert "Table bank_craps changed: applied now." in out
    assert "settings" in plain(await p.expect("settings"))
    assert "table maximum is 50" in plain(await p.cmd_expect("bet field 60", "Refused"))
    assert "Bet accepted: field 50." in plain(await p.cmd_expect("bet field 50", "Your bets"))


async def test_removed_table_with_live_bets_closes_after_they_are_decided(live):
    op = await operator(live)
    p = await at_craps(live, "sid")
    host = live.tables["bank_craps"]
    while not host.dealer.state.point:        # get a hand going: a point on, a pass bet riding
        if not host.dealer.state.wagers:
            await p.cmd_expect("bet pass 10", "Your bets")
        await p.cmd_expect("roll", " = ")
    await p.cmd_expect("bet place 6 12" if host.dealer.state.point != 6 else "bet place 8 12", "Your bets")
    # Remove bank_craps from the config and from room 6185.
    text = Path("config/casino_tables.yaml").read_text()
    start = text.index("- id: bank_craps")
    end = text.index("# Simplified craps")
    Path("config/casino_tables.yaml").write_text(text[:start] + text[end:])
    edit("rooms/6185.yaml", "tables: [bank_craps]", "tables: []")
    out = plain(await op.cmd_expect("reload", "Reload"))
    assert "Table bank_craps removed" in out
    assert "closes after the current hand" in plain(await p.expect("No new bets"))
    assert "closing" in plain(await p.cmd("bet field 5"))
    rolls = 0
    while "bank_craps" in live.tables and rolls < 100:   # roll until the hand is over
        await p.cmd_expect("roll", " = ")
        await host.idle()
        rolls += 1
    assert "bank_craps" not in live.tables and rolls >= 1
    # The pass line was decided by the dice; the place bet, if still up, was refunded.
    bal = await live.ledger.balance("sid")
    assert not any(bal.held.values())
    assert "tables" and "bank_craps" not in plain(await op.cmd_expect("tables", "players:"))


async def test_tables_grant_kick_and_close(live):
    op = await operator(live)
    p = await at_craps(live, "tom")
    await p.cmd_expect("bet dontpass 40", "Your bets")
    out = plain(await op.cmd_expect("tables", "players:"))
    assert "bank_craps" in out and "stakes 40 in 1 hold(s)" in out and "players: tom" in out
    assert "Granted 250 chips to tom." in plain(await op.cmd_expect("grant tom 250 birthday", "Granted"))
    assert "granted you 250 chips" in plain(await p.expect("granted you"))
    assert "Chips must be" in plain(await op.cmd("grant tom -5 nope"))
    out = plain(await op.cmd_expect("close 6185", "Room 6185"))
    assert "Room 6185 closed; refunded and closed tables: bank_craps." in out
    assert "shown out" in plain(await p.expect("shown out"))
    assert (await live.ledger.balance("tom")).wallet == 1250
    assert "closed by the management" in plain(await p.cmd("north"))
    out = plain(await op.cmd_expect("ledger check", "k"))
    assert "ok" in out.lower()
    assert "Kicked tom." in plain(await op.cmd_expect("kick tom", "Kicked"))
    assert "disconnected by an operator" in plain(await p.read_until_closed())
    out = plain(await op.cmd_expect("reload", "Reload"))
    assert "Tables opened: bank_craps." in out


async def test_closing_a_room_says_why_once_and_names_where_everyone_is_shown(live):
    """Issue 38 item 12: a player at the room's table hears the reason once (from
    the table), a player only standing there hears it too, and both are told
    the room they are shown to."""
    op = await operator(live)
    seated = await at_craps(live, "sid")
    await seated.cmd_expect("bet pass 10", "Your bets")
    stander = await player(live, "stan")
    await stander.cmd("north")
    seated.take_text()
    stander.take_text()
    await op.cmd_expect("close 6185", "Room 6185")
    heard = plain(await seated.expect("shown out"))
    assert heard.count("The management has closed this room") == 1, heard
    assert "You are shown out to The Lobby" in heard
    told = plain(await stander.expect("shown out"))
    assert "The management has closed this room; every stake is refunded. You are shown out to The Lobby" in told
    assert "The Lobby" in plain(await seated.cmd("look"))


async def test_shutdown_countdown_refunds_and_stops(live):
    op = await operator(live)
    p = await at_craps(live, "uma")
    await p.cmd_expect("bet pass 30", "Your bets")
    assert "Shutdown in 10 seconds." in plain(await op.cmd_expect("shutdown 10 maintenance", "Shutdown in"))
    assert "closes in 10 seconds: Maintenance. ***" in plain(await p.expect("closes in"))
    live.manager.tick_elapsed(live.manager.seconds(5))
    assert "closes in 5 seconds" in plain(await p.expect("closes in 5"))
    assert not live.stop_requested.is_set()
    live.manager.tick_elapsed(live.manager.seconds(5))
    assert live.stop_requested.is_set() and live.stop_reason == "Maintenance."
    await live.stop(live.stop_reason)
    text = plain(await p.read_until_closed())
    # the operator's words are a sentence of their own, never run into the next one
    assert "Maintenance. Every live stake at this table is refunded." in text
    assert "*** Maintenance. Goodbye. ***" in text
    from server.ledger import Ledger
    ledger = await Ledger.open(live.database)
    try:
        assert (await ledger.balance("uma")).wallet == 1000
    finally:
        await ledger.close()


async def test_a_dealer_installed_by_reload_never_reuses_an_earlier_dealers_ledger_keys(casino, connect):
    """A new dealer counts its keys from 1 again; the ledger would take a
    repeated key for a retry and move nothing while the game thought the
    stake held. The host's install number keeps the keys apart."""
    from support.telnet import login
    ann = await connect()
    await login(ann, "ann")
    await ann.cmd("north")
    await ann.cmd("play craps")
    host = casino.tables["bank_craps"]
    await ann.cmd("bet field 10")                   # key bank_craps:1, decided by the next roll
    await ann.cmd("roll")
    assert host.at_rest
    before = (await casino.ledger.balance("ann")).wallet
    host.install(host.dealer.config)               # what reload does once the table is at rest
    await ann.cmd("bet field 10")                   # the new dealer's key bank_craps:1 again
    assert (await casino.ledger.balance("ann")).wallet == before - 10
    assert (await casino.ledger.balance("ann")).held == {"bank_craps": 10}


async def test_reload_reads_the_files_off_the_event_loop(live, monkeypatch):
    import threading

    from server.config import load
    threads = []
    real = load.load_config

    def spy(*args):
        threads.append(threading.current_thread())
        return real(*args)
    monkeypatch.setattr(load, "load_config", spy)
    applied, _ = await live.reload()
    assert applied and threads and threads[0] is not threading.main_thread()


async def test_an_alias_bomb_is_refused_at_once_with_its_line(live):
    op = await operator(live)
    shutil.copy(BROKEN / "yaml_alias_bomb" / "rooms" / "lobby.yaml", "rooms/lobby.yaml")
    out = plain(await op.cmd_expect("reload", "Reload", timeout=5))
    assert "Reload refused: 1 error; nothing changed." in out
    assert "rooms/lobby.yaml:9: yaml: refused: aliases expand to more than 50000 values" in out


async def test_closing_a_room_shows_each_player_the_room_they_land_in(live):
    """Issue 38 item 12: the shooter of a two-player table, a point on and
    autoroll running, is not sat out nor replaced on the way out: the table's
    close says its one line and the refund, then one reply says where they
    are shown to and shows that room whole, as `look` does."""
    op = await operator(live)
    sid = await at_craps(live, "sid")
    await sid.cmd_expect("bet pass 10", "Your bets")
    await sid.cmd_expect("roll", "You roll")
    ann = await at_craps(live, "ann")
    await ann.cmd_expect("bet field 5", "Your bets")
    await sid.cmd_expect("autoroll", "Autoroll on")
    sid.take_text()
    ann.take_text()
    await op.cmd_expect("close 6185", "Room 6185")
    for client, refunded in ((sid, "pass 10"), (ann, "field 5")):
        heard = plain(await client.expect("Exits:")).replace("\r", "")
        assert heard.count("The management has closed this room") == 1, heard
        assert f"Refunded to your wallet: {refunded}." in heard
        assert "sits out" not in heard and "sit out" not in heard and "has the dice" not in heard, heard
        shown = heard[heard.index("You are shown out to The Lobby."):]
        assert shown.count("\n>") == 1 and shown.rstrip().endswith(">"), shown    # one reply, one prompt
        room = [line for line in shown.split("\n")[1:] if line.strip() and not line.startswith(("Here:", ">"))]
        look = [line for line in plain(await client.cmd("look")).replace("\r", "").split("\n")
                if line.strip() and not line.startswith(("Here:", ">"))]
        assert room == look and room[0] == "The Lobby" and room[-1].startswith("Exits:"), (room, look)

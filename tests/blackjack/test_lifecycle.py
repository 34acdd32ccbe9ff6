"""Blackjack through a reload and a crash, as a player and an operator see them
(issue 40: "reload and shutdown as the rules say; a crash mid-round refunds;
nothing lost"). A reload that changes the table's rules mid-round waits for the
round to be settled, then the next round plays the new rules; `kill -9` of the
whole casino with a round dealt leaves its holds open, and the next start
refunds them and tells the player at login."""
from __future__ import annotations

import json
import re

import pexpect
import pytest

from support.process import crash
from support.telnet import plain
from tests.e2e import test_operating
from tests.e2e.test_operating import edit, operator, player
from tests.e2e.test_process import ledger_check_json, running, spawn_telnet

from server.games.blackjack.rounds import Phase

pytestmark = pytest.mark.both_stores
live = test_operating.live            # the fixture: a casino whose config/ and rooms/ the test may edit


async def test_a_reload_mid_round_waits_for_the_settlement_then_the_new_rules_play(live):
    op = await operator(live)
    ann = await player(live, "ann")
    await ann.cmd("up")
    await ann.cmd_expect("play blackjack", "Welcome")
    host = live.tables["blackjack"]
    await ann.cmd_expect("bet 10", "Bet accepted")
    live.manager.tick_elapsed(live.manager.seconds(0.1))          # alone: the cards come at once
    await ann.expect("Round 1: the dealer shows")
    edit("config/casino_tables.yaml", 'blackjack_pays: "3:2"', 'blackjack_pays: "6:5"')
    edit("config/casino_tables.yaml", "min_bet: 2\n  max_bet: 1000\n  decks: 6", "min_bet: 10\n  max_bet: 1000\n  decks: 6")
    out = plain(await op.cmd_expect("reload", "Reload"))
    assert host.dealer.game.phase is Phase.PLAYING             # seed 99: a hand to play, so the change waits
    assert "Table blackjack changed: applies when the table is idle." in out, out
    assert "they apply once no bets are live" in plain(await ann.expect("no bets are live"))
    assert "blackjack pays 3:2" in plain(await ann.cmd("table rules")).replace("\n", " ")
    while host.dealer.game.phase is Phase.PLAYING:
        await ann.cmd("stand")
        await host.idle()
    live.manager.tick_elapsed(live.manager.seconds(5))        # the dealer plays and settles
    await ann.expect("new settings are in effect")
    rules = " ".join(plain(await ann.cmd("table rules")).split())
    assert "A blackjack pays 6:5" in rules, rules
    balance = await live.ledger.balance("ann")
    assert not any(balance.held.values())                       # round 1 settled under the old rules
    await ann.cmd_expect("bet 10", "Bet accepted")              # round 2 on the new table
    live.manager.tick_elapsed(live.manager.seconds(0.1))
    await ann.expect("Round 1: the dealer shows")               # a new dealer counts from 1
    await ann.close()
    await op.close()


def at_blackjack(port: int, login_line: str) -> pexpect.spawn:
    child = spawn_telnet(port)
    child.expect("Name: ")
    child.sendline(login_line)
    child.expect("Exits:")
    child.sendline("up")
    child.expect("Exits:")
    child.sendline("play blackjack")
    child.expect("Welcome to blackjack")
    return child


def test_kill_9_mid_round_refunds_the_bet_at_the_next_start(database):
    """Seed 5's first hand is a decision (no blackjack at the deal), so the bet is
    held with the round under way when the whole casino is killed."""
    with running(database, "--seed", "5") as (proc, port):
        rita = at_blackjack(port, "create rita secret123")
        rita.sendline("bet 10")
        rita.expect("Bet accepted: 10.")                 # shown once the hold is durable
        rita.expect(r"Your turn: [^\r\n]*")             # dealt, the round waits on her
        crash(proc)
    between = json.loads(ledger_check_json(database))
    assert between["ok"] and between["open_holds"] == 1, between
    with running(database) as (proc, port):
        child = spawn_telnet(port)
        child.expect("Name: ")
        child.sendline("connect rita secret123")
        child.expect(r"Notice: Your stake of (\d+) chips at table blackjack was still open")
        assert child.match.group(1) == "10"
        child.expect("You have 1000 chips.")
        child.sendline("quit")
        child.expect(pexpect.EOF)
        proc.terminate()
        proc.wait(timeout=20)
    after = json.loads(ledger_check_json(database))
    assert after["ok"] and after["open_holds"] == 0, after
    assert re.search(r"event=recovery", proc.stdout.read())

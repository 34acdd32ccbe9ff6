"""A classic-dice table by ticks (tests/support/pure_table.py): the seed taken
in the fair dice' place, the stream carried on from game to game, and practice
chips that never become a money intent."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from server.config.load import load_config
from server.dice.fair import FairDice
from server.dice.view import fair_lines
from server.dice.kinds import DICE
from server.games.intents import Forfeit, Hold, Refund, Settle
from server.games.seam import Viewer, WalletReport
from server.games.simplified import events as ev
from server.render.prefs import Prefs
from support.pure_table import PureTable

ROOT = Path(__file__).resolve().parents[2]
CONFIG = load_config(ROOT / "config", ROOT / "rooms")
MONEY = (Hold, Settle, Refund, Forfeit)


def classic_table(dice: FairDice | None = None) -> tuple[PureTable, FairDice]:
    dice = dice or FairDice("classic_craps", seed=1)
    return PureTable(CONFIG.tables["classic_craps"], 10, dice), dice


def seed(t: PureTable, text: str) -> str:
    """What `seed <text>` answers at the table: its own dice take it."""
    own = t.dealer.own_draws()
    assert own is not None
    return own.take_seed(text)


def rolls(events):
    return [e.dice for e in events if isinstance(e, ev.Rolled)]


def test_no_money_intent_ever_leaves_a_classic_table():
    t, dice = classic_table()
    events = t.sit("ann", 1000)
    assert seed(t, "msvc 22").startswith("Seeded: msvc 22")   # what `seed msvc 22` does
    for words in (["bet", "pass", "10"], ["roll"], ["press"], ["odds", "40"]):
        events += t.act("ann", words, 1000)
    for _ in range(11):
        events += t.act("ann", ["roll"], 1000)
    events += t.act("ann", ["ride"], 1000)                  # 002's srand(22) run won: ride it
    events += t.act("ann", ["roll"], 1000)
    events += t.disconnect("ann")                           # a drop forfeits nothing real
    assert not [e for e in events if isinstance(e, MONEY)]
    assert not [e for e in events if isinstance(e, WalletReport)]
    over = [e for e in events if isinstance(e, ev.GameOver)]
    assert over[0].paid == 20 + 20 + 40 + 80                # pressed 20 and odds 40 on the 4
    practice = [e.bankroll for e in events if isinstance(e, ev.Practice)]
    assert practice[0] == 1000 - 60 + 160


def test_the_stream_carries_on_from_game_to_game_and_a_new_seed_starts_it_again():
    t, dice = classic_table()
    t.sit("bob", 1000)
    seed(t, "mac 22")
    seen = []
    for _ in range(2):                                       # 5+3 point 8, 5+5, 6+5, 6+1 seven out; then on
        seen += rolls(t.act("bob", ["bet", "pass", "5"], 1000))
        for _ in range(20):
            out = t.act("bob", ["roll"], 1000)
            seen += rolls(out)
            if any(isinstance(e, ev.GameOver) for e in out):
                break
    assert seen[:4] == [(5, 3), (5, 5), (6, 5), (6, 1)]
    assert seen[4] == (1, 3)                                 # the 5th roll of srand(22) on a Mac, not a restart
    assert seed(t, "mac 22").startswith("Seeded")           # the same seed again
    t.act("bob", ["bet", "pass", "5"], 1000)
    assert rolls(t.act("bob", ["roll"], 1000)) == [(5, 3)]


def test_glibc_and_a_refused_seed():
    t, dice = classic_table()
    t.sit("cy", 1000)
    assert "seed msvc <n>, seed mac <n> or seed glibc <n>" in seed(t, "lucky 7")
    assert "whole number from 0 to 4,294,967,295" in seed(t, "glibc 99999999999")
    t.act("cy", ["bet", "pass", "5"], 1000)
    refused = t.act("cy", ["roll"], 1000)                    # before a seed: what to type
    assert "seed msvc <n>, seed mac <n> or seed glibc <n>" in refused[0].text and not rolls(refused)
    assert seed(t, "glibc 42").startswith("Seeded")
    # glibc 2.36, srandom(42): random() % 6 + 1 gives 1 1, 6 4 (tests/dice/test_classic.py)
    assert rolls(t.act("cy", ["roll"], 1000)) == [(1, 1)]


def test_practice_bankroll_is_per_sitting_and_is_the_wallet_the_game_reads():
    t, dice = classic_table()
    t.sit("dee", 10)                                         # a real wallet of 10 does not limit practice
    seed(t, "msvc 1")                           # 6 + 6: craps
    assert any(isinstance(e, ev.BetPlaced) for e in t.act("dee", ["bet", "pass", "600"], 10))
    out = t.act("dee", ["roll"], 10)
    assert [e.bankroll for e in out if isinstance(e, ev.Practice)] == [400]
    refused = t.act("dee", ["bet", "pass", "500"], 10**6)    # the practice chips, not the wallet, cover it
    assert isinstance(refused[0], ev.Refused) and "only 400" in refused[0].reason
    t.leave("dee")
    t.sit("dee", 10)
    assert t.dealer.practice == 1000 and not t.dealer.classic.seeded   # a new sitting starts afresh


def test_leaving_mid_game_does_not_wait_and_fair_says_predictable():
    t, dice = classic_table()
    t.sit("eve", 1000)
    seed(t, "msvc 11")
    t.act("eve", ["bet", "pass", "5"], 1000)
    t.act("eve", ["roll"], 1000)                             # point 4
    t.leave("eve")
    assert t.seated() == []                                  # practice chips hold nobody
    lines = t.dealer.own_draws().fair_lines()                # what `fair` shows here
    assert "predictable by design" in lines[0] and not any("commitment" in line for line in lines)


def test_a_fair_table_on_the_same_dice_takes_the_source_back():
    t, dice = classic_table()
    assert t.dealer.own_draws() is t.dealer.classic
    fair = dataclasses.replace(CONFIG.tables["simple_craps"], id="classic_craps")
    t.install(fair)                                          # reload turned the table fair again
    assert t.dealer.own_draws() is None
    assert dice.set_client_seed("lucky 7") is None and "Provably fair dice" in fair_lines(dice, DICE)[0]


def test_table_view_says_practice_and_shows_the_bankroll():
    t, dice = classic_table()
    t.sit("fay", 1000)
    view = t.view(Viewer("fay", Prefs(width=80), True))
    text = " ".join(" ".join(view).split())                  # wrapped to the width: read as prose
    assert "Classic dice" in text and "predictable by design" in text
    assert "no chips move" in text and "Practice bankroll: 1,000." in text
    assert "no seed yet" in text
    seed(t, "msvc 22")
    text = " ".join(" ".join(t.view(Viewer("fay", Prefs(width=80), True))).split())
    assert "msvc 22 (srand(22) on Windows (Microsoft C))" in text

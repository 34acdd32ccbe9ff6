"""What bank craps says, as one player reads it: every refusal the table can
give is one line with no internals, and the messages issue 15 found wrong."""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from server.config.load import load_config
from server.games.craps.events import LastCall, WindowClosed, WindowOpened
from server.games.intents import Hold
from server.games.seam import Note, Viewer
from server.ledger import InsufficientFunds
from server.render.prefs import Prefs
from server.render.width import display_width
from server.tables.money import hold_refusal
from support.dice import TableDice
from support.pure_table import PureTable

ROOT = Path(__file__).resolve().parents[2]
HZ = 10
INTERNALS = re.compile(r"player=|wanted=|balance=|bank_craps:\d+|[a-z_]+=\S")


def table(*rolls, **options):
    config = load_config(ROOT / "config", ROOT / "rooms").tables["bank_craps"]
    if options:
        config = dataclasses.replace(config, options=dataclasses.replace(config.options, **options))
    return PureTable(config, HZ, TableDice(rolls))


def seen(t, events, who="ann", width=80):
    """The lines `who` is shown for these events (Notes and rendered facts)."""
    viewer = Viewer(who, Prefs(width=width), True)
    lines = []
    for e in events:
        if isinstance(e, Note):
            lines += [e.text] if e.to is None or who in e.to else []
        elif not isinstance(e, Hold):
            lines += t.dealer.render(e, viewer)
    return lines


def said(t, who, *words, wallet=1000):
    return seen(t, t.act(who, list(words), wallet), who)


def assert_one_clean_line(lines, what, width=80):
    """One line, no internal names; a refusal also fits 80 columns unwrapped."""
    assert len(lines) == 1, (what, lines)
    line = lines[0]
    assert not INTERNALS.search(line), (what, line)
    assert width is None or display_width(line) <= width, (what, line)


# Every refusal, by how it is reached: (setup, the words typed).
def _fresh(t):
    pass


def _point_on(t):
    said(t, "ann", "bet", "pass", "10")
    said(t, "ann", "roll")                              # (1, 3): point 4


def _pass_and_bonus_down(t):
    said(t, "ann", "bet", "pass", "10")


REFUSALS = [
    (_fresh, ["bet"]),
    (_fresh, ["bet", "pass"]),
    (_fresh, ["bet", "roulette", "10"]),
    (_fresh, ["bet", "pass", "ten"]),
    (_fresh, ["bet", "pass", "0"]),
    (_fresh, ["bet", "pass", "-5"]),
    (_fresh, ["bet", "pass", "0.5"]),
    (_fresh, ["bet", "place", "7", "10"]),
    (_fresh, ["bet", "hop", "7", "1", "5"]),
    (_fresh, ["bet", "odds", "10"]),
    (_fresh, ["bet", "odds", "come", "10"]),
    (_fresh, ["bet", "field", "3", "10"]),
    (_fresh, ["bet", "pass", "20000"]),
    (_fresh, ["bet", "place", "6", "10"]),
    (_fresh, ["bet", "come", "10"]),
    (_fresh, ["bet", "odds", "pass", "10"]),
    (_pass_and_bonus_down, ["bet", "odds", "pass", "10"]),
    (_point_on, ["bet", "pass", "10"]),
    (_point_on, ["bet", "fire", "1"]),
    (_point_on, ["bet", "odds", "pass", "1000"]),
    (_point_on, ["bet", "odds", "come", "5", "10"]),
    (_fresh, ["bet", "pass", "1001"]),                 # the wallet has 990
    (_fresh, ["unbet"]),
    (_fresh, ["unbet", "all"]),
    (_fresh, ["unbet", "3"]),
    (_fresh, ["unbet", "place6"]),
    (_pass_and_bonus_down, ["unbet", "pass"]),
    (_fresh, ["roll"]),
    (_fresh, ["autoroll"]),
    (_fresh, ["frobnicate"]),
]


@pytest.mark.parametrize("setup,words", REFUSALS, ids=[" ".join(w) for _, w in REFUSALS])
def test_every_refusal_is_one_line_without_internals(setup, words):
    t = table((1, 3), (2, 2))
    t.sit("ann", 1000)
    setup(t)
    lines = said(t, "ann", *words, wallet=990)
    assert_one_clean_line(lines, words)
    assert lines[0].startswith(("Refused", "Usage", "Nobody", "Only", "Autoroll", "Bank craps has no"))


def test_refusals_for_others_and_for_the_shooter_queue():
    t = table((1, 3))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    said(t, "ann", "bet", "pass", "10")
    assert_one_clean_line(said(t, "bob", "roll"), "roll, not the shooter")
    assert_one_clean_line(said(t, "bob", "autoroll"), "autoroll, not the shooter")
    assert_one_clean_line(said(t, "ann", "roll"), "roll in the window")          # bets open N more seconds
    assert_one_clean_line(said(t, "cat", "bet", "pass", "5"), "not seated")
    t.leave("bob")                                                                # no bets: up at once
    assert_one_clean_line(seen(t, t.leave("bob"), "bob"), "leave, not seated")


def test_the_usher_refusals_are_one_line():
    t = table((1, 3))
    t.sit("ann", 1000)
    t.sit("bob", 1000)
    said(t, "bob", "bet", "field", "5")
    assert_one_clean_line(seen(t, t.leave("bob"), "bob"), "leave with a live bet", width=None)
    assert_one_clean_line(said(t, "bob", "bet", "field", "5"), "bet on the way out")


def test_a_hold_the_ledger_refuses_is_one_line_in_the_players_words():
    t = table()
    t.sit("ann", 1000)
    events = t.act("ann", ["bet", "pass", "100"], 1000)
    hold = next(e for e in events if isinstance(e, Hold))
    reason = hold_refusal(InsufficientFunds("ann", 100, 90))
    refused = t.hold_refused(hold.key, reason)
    shown = seen(t, refused + [e for e in events if not isinstance(e, Hold)])
    assert shown == ["Refused: pass 100: your wallet has 90 chips."]
    assert t.state.bets_of("ann") == []


def test_the_wallet_refusal_says_what_it_needs():
    t = table()
    t.sit("ann", 1000)
    assert said(t, "ann", "bet", "pass", "1001", wallet=990) == \
        ["Refused: that wager needs 1001 chips and your wallet has 990."]


def test_window_closed_never_contradicts_itself_or_autoroll():
    t = table()
    t.sit("ann", 1000)
    manual = seen(t, [WindowClosed("ann", 60)])
    assert manual == ["You may roll now: 'roll' within 60 seconds, or the dealer rolls for you."]
    auto = seen(t, [WindowClosed("ann", 60, autoroll=True)])
    assert "seconds" not in auto[0] and "autoroll" in auto[0]
    other = seen(t, [WindowClosed("ann", 60)], "bob")
    assert other == ["ann may roll now; bets stay open until the dice fly."]
    for line in manual + auto + other:
        assert "closed" not in line


def test_the_window_opening_names_the_shooter_and_reads_you_to_the_shooter():
    """Issue 38 item 6: the table hears the window open; the shooter reads
    of themselves as "you" and that a `roll` now is kept."""
    t = table()
    t.sit("ann", 1000)
    assert seen(t, [WindowOpened("ann", 10)], "bob") == ["Bets are open: 10 seconds, then ann rolls."]
    assert seen(t, [WindowOpened("ann", 10)]) == \
        ["Bets are open: 10 seconds, then you roll. A 'roll' typed now is kept for then."]
    assert seen(t, [WindowOpened("ann", 10, autoroll=True)]) == ["Bets are open: 10 seconds, then autoroll rolls for you."]
    assert seen(t, [WindowOpened("ann", 1)], "bob") == ["Bets are open: 1 second, then ann rolls."]


def test_last_call_counts_in_the_singular_too():
    t = table()
    assert "Last call! 1 second to place" in seen(t, [LastCall(1)])[0]
    assert "Last call! 3 seconds to place" in seen(t, [LastCall(3)])[0]


def test_seven_out_is_called_once():
    t = table((1, 3), (3, 4))
    t.sit("ann", 1000)
    said(t, "ann", "bet", "pass", "10")
    said(t, "ann", "roll")
    text = "\n".join(said(t, "ann", "roll"))
    assert text.count("Seven out") == 1, text
    assert "Line away" in text

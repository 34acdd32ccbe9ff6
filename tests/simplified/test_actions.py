"""Simplified craps' words declared once (commands.ACTIONS), as the dealer dispatches them."""
from __future__ import annotations

from simplified_helpers import table

from server.dice.fair import FairDice
from server.games.seam import Ask, Note
from server.games.seating import Seating
from server.games.simplified import events as ev
from server.games.simplified.commands import ACTIONS
from server.games.simplified.dealer import SEED_WORD, SimplifiedDealer
from server.games.simplified.entry import SIMPLIFIED


def dealer() -> SimplifiedDealer:
    seating = Seating()
    d = SimplifiedDealer(table(), 10, FairDice("s1", seed=1), seating)
    seating.add("alice", "alice")
    d.seated("alice", False)
    return d


def notes(events):
    return [e.text for e in events if isinstance(e, Note)]


def test_the_entry_reads_the_table():
    assert SIMPLIFIED.actions is ACTIONS and dealer().actions is ACTIONS
    assert list(SIMPLIFIED.words) == ["bet", "roll", "press", "odds", "ride", "collect"]
    assert SIMPLIFIED.words["bet"] == "bet pass|dontpass <amount> - start a game on the pass or don't pass line."
    assert set(SIMPLIFIED.opening_words) == {"bet", "odds", "press", "ride"}


def test_words_are_dispatched_to_the_engine():
    d = dealer()
    out = d.act("alice", ["bet", "PASS", "10"], 100)
    assert [e for e in out if isinstance(e, ev.BetPlaced)] == [ev.BetPlaced(ev.Side.PASS, 10)]
    assert not any(isinstance(e, Ask) and e.word == SEED_WORD for e in out)   # asked once, at sit-down
    assert any(isinstance(e, ev.Rolled) for e in d.act("alice", ["roll"], 90))


def test_parser_reasons_and_unknown_words_are_one_line_answers():
    d = dealer()
    assert notes(d.act("alice", ["bet", "come", "5"], 100)) == [
        "Usage: bet pass <amount> or bet dontpass <amount>."]
    assert notes(d.act("alice", ["odds"], 100)) == ["Usage: odds <amount>."]
    assert notes(d.act("alice", ["roll", "now"], 100)) == ["'roll' takes nothing after it."]
    assert notes(d.act("alice", ["dance"], 100)) == [
        "Simplified craps has no 'dance': bet, roll, press, odds, ride, collect."]
    assert notes(d.act("bob", ["roll"], 100)) == ["Sit down first."]   # the table names its word


def test_the_seed_answer_comes_back_as_a_word_that_is_not_a_game_word():
    d = dealer()
    assert ACTIONS.find(SEED_WORD) is None
    assert notes(d.act("alice", [SEED_WORD, "lucky", "7"], 100))[0].startswith("Seed set: your rolls now use 'lucky 7'")
    assert notes(d.act("alice", [SEED_WORD], 100)) == ["No new seed: the dice keep 'lucky 7'."]

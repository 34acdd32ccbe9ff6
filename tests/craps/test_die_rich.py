"""Die Rich (docs/play-craps-variants.md): one die, a fair draw in [0, 6). Pass:
come-out 6 wins 1:1, 1 loses, 2 to 5 is the point; then the point pays 2:1 on the
hand's second roll, 1:1 on the third, 2:1 on the fourth; a 1 loses; a fourth
roll that is neither loses. Face bets on the next roll, 4:1. Every face on
every roll of the hand; payouts; refusals by name; the draw (fair, verify,
GMCP, one die shown); edges 1/27 and 1/6 from edge.py; the simulator agrees."""
from __future__ import annotations

import json
from fractions import Fraction

import pytest

from server.config.model import TableConfig
from server.dice.kinds import DIE
from server.games.catalogue import draw_kinds, entry_for, find_game
from server.games.craps import events as ev
from server.games.craps.bets import Bet, Kind
from server.games.craps.edge import house_edges
from server.games.craps.options import CrapsOptions
from server.games.craps.outcome import COME_OUT, Outcome, Result, TableView, rulebook
from server.games.craps.state import CrapsState
from server.games.craps.variants import DIE_RICH, VARIANTS
from server.games.intents import Refund, Settle

from craps_helpers import accept, refusal, results
from support.sweep import Sweep

BOOK = rulebook(2, DIE_RICH)
FACES = (1, 2, 3, 4, 5, 6)
POINTS = (2, 3, 4, 5)


def config() -> TableConfig:
    return TableConfig("die_rich", "craps", 12, 1, 10_000, CrapsOptions(variant="die_rich"))


def table() -> CrapsState:
    return CrapsState(config())


def test_the_variant_draws_one_die_and_is_in_the_catalogue():
    assert VARIANTS["die_rich"] is DIE_RICH and DIE_RICH.draw is DIE
    entry = entry_for(config())
    assert entry.draws is DIE and entry.word == "dierich" and find_game("dierich") is entry
    assert DIE in draw_kinds() and DIE.outcomes == 6                 # casino verify --draw die
    assert [DIE.faces(v) for v in range(6)] == [(f,) for f in FACES]
    assert BOOK.faces == tuple((f,) for f in FACES)


def test_every_face_on_the_come_out():
    sweep = Sweep(face=FACES)
    for (face,) in sweep:
        if face == 6:
            want = Outcome(Result.WIN, 10)                           # 1:1
        elif face == 1:
            want = Outcome(Result.LOSE)
        else:
            want = Outcome(Result.TRAVEL, 0, face)                   # the point
        sweep.expect(BOOK.outcome(Bet(Kind.PASS, 0, 10), (face,), COME_OUT), want)
    sweep.done()


def test_every_face_on_every_later_roll_of_the_hand():
    # The hand's 2nd, 3rd and 4th rolls are steps 0, 1 and 2 after the come-out.
    sweep = Sweep(point=POINTS, step_pays=[(0, 20), (1, 10), (2, 20)], face=FACES)
    for point, (step, pays), face in sweep:
        view = TableView(point, rolls=step + 1, step=step)
        if face == point:
            want = Outcome(Result.WIN, pays)                         # 2:1, 1:1, 2:1
            after = TableView(0, rolls=step + 2)                     # the shooter keeps the die
        elif face == 1 or step == 2:
            want = Outcome(Result.LOSE)                              # a 1, or a fourth roll that misses
            after = COME_OUT                                         # the hand is over
        else:
            want = Outcome(Result.NONE)
            after = TableView(point, rolls=step + 2, step=step + 1)
        sweep.expect(BOOK.outcome(Bet(Kind.PASS, point, 10), (face,), view), want)
        sweep.expect(BOOK.advance(view, (face,)), after)
    sweep.done()


def test_every_face_bet_on_every_roll():
    sweep = Sweep(view=[COME_OUT, TableView(3, rolls=1), TableView(5, rolls=3, step=2)], number=FACES, face=FACES)
    for view, number, face in sweep:
        want = Outcome(Result.WIN, 40) if face == number else Outcome(Result.LOSE)    # 4:1, one roll
        sweep.expect(BOOK.outcome(Bet(Kind.FACE, number, 10), (face,), view), want)
    sweep.done()


def test_a_whole_hand_at_the_table_with_payouts_and_one_settlement_a_roll():
    t = table()
    accept(t, "ann", "pass 10")
    accept(t, "bob", "face 4 5")
    events = t.roll((4,))
    assert ev.PointSet(4) in events and t.point == 4
    assert results(events) == {"face4": ("won", 20)}
    accept(t, "bob", "face4 5")                                       # `face4` as one word
    events = t.roll((3,))                                              # second roll: neither
    assert results(events) == {"face4": ("lost",)} and t.view.step == 1
    events = t.roll((4,))                                              # third roll: the point, 1:1
    assert results(events) == {"pass": ("won", 10)} and ev.HandWon(4, 3, 1) in events
    [settle] = [e for e in events if isinstance(e, Settle)]
    assert dict(settle.pays) == {"ann": 20}
    accept(t, "ann", "pass 10")
    t.roll((2,))
    events = t.roll((2,))                                              # second roll: the point, 2:1
    assert results(events) == {"pass": ("won", 20)} and ev.HandWon(2, 2, 2) in events
    accept(t, "ann", "pass 10")
    t.roll((5,))
    t.roll((2,))
    t.roll((3,))
    events = t.roll((5,))                                              # fourth roll: the point, 2:1
    assert results(events) == {"pass": ("won", 20)} and ev.HandWon(5, 4, 2) in events
    accept(t, "ann", "pass 10")
    t.roll((5,))
    t.roll((2,))
    t.roll((3,))
    events = t.roll((6,))                                              # fourth roll misses: lost
    assert results(events) == {"pass": ("lost",)} and ev.HandLost(5, 4) in events
    assert t.view == COME_OUT


def test_the_come_out_facts():
    t = table()
    accept(t, "ann", "pass 10")
    events = t.roll((6,))
    assert results(events) == {"pass": ("won", 10)} and ev.HandWon(0, 1, 1) in events
    accept(t, "ann", "pass 10")
    events = t.roll((1,))
    assert results(events) == {"pass": ("lost",)} and ev.HandLost(0, 1) in events


@pytest.mark.parametrize("words, name", [
    ("dontpass 10", "don't pass"), ("come 10", "come"), ("odds pass 10", "odds"), ("place 6 12", "place"),
    ("field 10", "field"), ("hard 4 10", "hard"), ("any7 10", "any seven"), ("hop 2 3 10", "hop"),
    ("fire 10", "fire"), ("high 10", "high")])
def test_every_other_bet_is_refused_by_name_with_what_the_table_takes(words, name):
    t = table()
    if name == "high":
        assert refusal(t, "ann", words) == ("unknown bet 'high' at Die Rich (it is a High Point craps bet). "
                                            "Bets here: pass, face")
    else:
        assert refusal(t, "ann", words) == f"Die Rich has no {name}. Bets here: pass, face"
    assert not t.wagers


@pytest.mark.parametrize("words, reason", [
    ("face 7 10", "face needs a number: 1, 2, 3, 4, 5, 6"), ("face 10", "face needs a number: 1, 2, 3, 4, 5, 6"),
    ("face 0 10", "face needs a number: 1, 2, 3, 4, 5, 6"), ("face 3 0", "a wager cannot be zero"),
    ("face 3 x", "'x' is not a number"), ("pass 5 10", "too many words: 'bet pass <amount>'")])
def test_bad_input_is_one_line_and_changes_nothing(words, reason):
    t = table()
    assert refusal(t, "ann", words) == reason and not t.wagers


def test_pass_is_a_contract_bet_on_the_come_out_and_a_face_bet_can_come_down():
    t = table()
    accept(t, "ann", "pass 10")
    h = accept(t, "ann", "face 2 5")
    t2 = t.unbet("ann", "face2")
    assert [e.stake for e in t2 if isinstance(e, Refund)] == [h]
    t.roll((3,))
    assert refusal(t, "bob", "pass 10") == "pass is bet on the come-out; the point is 3"
    [refused] = t.unbet("ann", "pass")
    assert refused.reason == "pass is a contract bet and stays until it is decided"
    accept(t, "bob", "face 1 10")                                      # face bets at any time


def test_the_edges_are_computed_pass_1_in_27_each_face_1_in_6():
    edges = dict(house_edges(config()))
    assert edges == {"pass": Fraction(1, 27), **{f"face {n}": Fraction(1, 6) for n in FACES}}


def test_the_simulator_agrees_with_the_edge():
    from server.sim import craps as sim
    from server.sim import strategies
    result = sim.run(config(), strategies.load("pass"), 300_000, seed=5)
    assert result.wagered > 50_000
    assert abs(float(result.edge) - 1 / 27) < 0.01, float(result.edge)


def test_casino_odds_prints_every_bet_with_its_exact_edge(tmp_path, capsys):
    from server.cli import main
    from craps_helpers import config_with
    cfg, rooms = config_with(tmp_path, "die_rich", "die_rich")
    assert main(["odds", "--config", str(cfg), "--rooms", str(rooms), "--table", "die_rich"]) == 0
    out = capsys.readouterr().out
    assert "die_rich: Die Rich, bets 1..10000" in out
    assert "1/27" in out and "3.704%" in out and "1/6" in out and "16.667%" in out
    assert main(["odds", "--config", str(cfg), "--rooms", str(rooms), "--json", "--table", "die_rich"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["bet"], r["exact"]) for r in rows] == [("pass", "1/27")] + [(f"face {n}", "1/6") for n in FACES]


def test_casino_verify_draw_die(capsys):
    from server.cli import main
    from server.dice.derive import derive_draws
    seed = "ab" * 32
    assert main(["verify", "--server-seed", seed, "--client-seed", "c", "--nonce", "0",
                 "--count", "3", "--draw", "die"]) == 0
    out = capsys.readouterr().out
    values = derive_draws(seed, "c", 0, 3, 6)
    for i, v in enumerate(values):
        assert f"nonce {i}: {v + 1}" in out

"""The Pig engine: turns, scoring, the computer, deadlines, leaving, stakes."""
from __future__ import annotations

import pytest
from pig_helpers import LedgerModel, lines

from server.games.pig.options import PigOptions
from server.dice.source import FixedDice
from server.games.intents import Hold, Refund, Settle
from server.games.pig import PigGame, Phase, start_problem
from server.games.pig import events as ev
from server.games.pig.rules import RollOutcome

TPS = 10


def game(players, rolls, **opts) -> PigGame:
    options = PigOptions(**{"computer_pace": 1.0, "turn_deadline": 60, **opts})
    return PigGame(players, options, FixedDice(rolls), TPS, game_id="t1:g1")


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def started(g: PigGame) -> PigGame:
    g.start()
    return g


def test_rolls_add_to_the_round_and_hold_banks_it():
    g = started(game(["ann", "bob"], [(2, 4), (5, 6)]))
    out = g.act("ann", "roll") + g.act("ann", "roll")
    assert [e.round_score for e in of(out, ev.Rolled)] == [6, 17]
    out = g.act("ann", "hold")
    assert of(out, ev.TurnEnded) == [ev.TurnEnded("ann", 17, 17, ev.TurnEnd.HOLD)]
    assert of(out, ev.TurnStarted) == [ev.TurnStarted("bob", 0, 2, False)]
    assert g.scores == {"ann": 17, "bob": 0} and g.current == "bob"


def test_a_single_one_loses_the_round_and_ends_the_turn():
    g = started(game(["ann", "bob"], [(6, 6), (3, 3), (1, 4)]))
    g.act("ann", "roll"); g.act("ann", "hold")          # ann 12
    g.act("bob", "roll")
    out = g.act("bob", "roll")
    assert of(out, ev.Rolled)[0] == ev.Rolled("bob", (1, 4), 0, RollOutcome.ONE)
    assert of(out, ev.TurnEnded) == [ev.TurnEnded("bob", 0, 0, ev.TurnEnd.ONE)]
    assert g.current == "ann" and g.scores == {"ann": 12, "bob": 0}


def test_double_ones_lose_the_whole_score():
    g = started(game(["ann", "bob"], [(6, 6), (2, 2), (4, 4), (1, 1)]))
    g.act("ann", "roll"); g.act("ann", "hold")          # ann 12
    g.act("bob", "roll"); g.act("bob", "hold")          # bob 4
    g.act("ann", "roll")
    out = g.act("ann", "roll")
    assert of(out, ev.TurnEnded) == [ev.TurnEnded("ann", 0, 0, ev.TurnEnd.SNAKE_EYES)]
    assert g.scores == {"ann": 0, "bob": 4}


def test_reaching_the_target_on_a_hold_wins_and_counts_rounds():
    g = started(game(["ann", "bob"], [(6, 6), (6, 6), (4, 5), (6, 6)], target=30))
    g.act("ann", "roll"); g.act("ann", "roll")          # 24, above nothing yet
    g.act("ann", "hold")                                # round 1: ann 24
    g.act("bob", "roll"); g.act("bob", "hold")          # round 2: bob 9
    out = g.act("ann", "roll")                          # 12: 24 + 12 >= 30 but no hold yet
    assert not of(out, ev.GameOver) and g.phase is Phase.PLAYING
    out = g.act("ann", "hold")                          # round 3
    assert of(out, ev.GameOver) == [ev.GameOver("ann", 36, 3, 0, ev.GameEnd.TARGET)]
    assert g.phase is Phase.OVER
    assert g.act("bob", "roll") == [ev.Refused("bob", "the game is over")]


def test_refusals_change_nothing():
    g = started(game(["ann", "bob"], [(2, 3)]))
    assert g.act("bob", "roll") == [ev.Refused("bob", "it is ann's turn")]
    assert g.act("zed", "roll") == [ev.Refused("zed", "you are not playing at this table")]
    assert g.act("ann", "dance")[0].reason.startswith("unknown action")
    assert g.round_score == 0 and g.current == "ann" and g.rounds == 1
    assert game(["ann", "bob"], []).act("ann", "roll") == [
        ev.Refused("ann", "the game has not started yet")]


def test_start_problems():
    assert start_problem([]) == "nobody is seated at the table"
    assert "at most 6" in start_problem([f"p{i}" for i in range(7)], 6)
    assert start_problem(["computer"]) is not None
    assert start_problem(["ann"]) is None and start_problem(["ann", "bob", "cy"]) is None
    with pytest.raises(ValueError):
        PigGame(["a", "b", "c"], PigOptions(), FixedDice([]), TPS,
                max_players=2)


def test_the_spec_sample_replayed():
    """003's sample: the opening turns, then (after turns the sample elides) the ending."""
    rolls = [(2, 4), (4, 2), (3, 4),                 # Amanda 19
             (5, 5), (1, 1),                         # computer 0
             (6, 6), (6, 6), (2, 2),                 # Amanda 47
             (6, 6), (6, 6),                         # computer 24
             (6, 6), (6, 6), (2, 2),                 # Amanda 75
             (6, 6), (6, 6),                         # computer 48
             (1, 2),                                 # Amanda 75
             (6, 6), (6, 6),                         # computer 72
             (2, 1),                                 # Amanda 75
             (5, 6), (5, 6),                         # computer 94
             (6, 1),                                 # Amanda 75 (sample)
             (1, 1),                                 # computer 0 (sample)
             (3, 5), (3, 5), (5, 6)]                 # Amanda 102 wins
    g = game(["Amanda"], rolls)
    out = g.start()
    amanda = [3, 0, 3, 0, 3, 0, 1, 0, 1, 0, 1, 0, 3]       # rolls Amanda makes per turn (0: computer's)
    for n in amanda:
        if n == 0:
            out += g.advance(10 * 30)                # the computer's turn at its pace
            continue
        for _ in range(n):
            out += g.act("Amanda", "roll")
        if g.current == "Amanda":
            out += g.act("Amanda", "hold")
    text = lines(out)
    assert text[:10] == ["Amanda: 0", "2, 4 Current Round Score: 6", "4, 2 Current Round Score: 12",
                         "3, 4 Current Round Score: 19", "Amanda: 19", "computer: 0",
                         "5, 5 Current Round Score: 10", "1, 1 Current Round Score: 0",
                         "computer: 0", "Amanda: 19"]
    tail = text[text.index("6, 1 Current Round Score: 0") - 1:]
    assert tail == ["Amanda: 75", "6, 1 Current Round Score: 0", "Amanda: 75",
                    "computer: 94", "1, 1 Current Round Score: 0", "computer: 0",
                    "Amanda: 75", "3, 5 Current Round Score: 8", "3, 5 Current Round Score: 16",
                    "5, 6 Current Round Score: 27", "Amanda: 102", "Amanda wins!", "13 rounds"]
    assert of(out, Hold) == [] and g.phase is Phase.OVER


def test_computer_rolls_at_its_pace_and_holds_at_19():
    g = started(game(["ann"], [(2, 3), (6, 6), (4, 3), (5, 5)]))
    g.act("ann", "roll"); g.act("ann", "hold")          # ann 5; computer's turn
    assert g.current == "computer"
    assert g.advance(9) == []                           # pace 1 s = 10 ticks
    out = g.advance(1)
    assert of(out, ev.Rolled) == [ev.Rolled("computer", (6, 6), 12, RollOutcome.ADDED)]
    out = g.advance(10)                                 # 19: holds at once
    assert of(out, ev.Rolled)[0].round_score == 19
    assert of(out, ev.TurnEnded) == [ev.TurnEnded("computer", 19, 19, ev.TurnEnd.HOLD)]
    assert g.current == "ann"


def test_computer_rolls_on_at_18_and_holds_at_the_target():
    g = started(game(["ann"], [(2, 3), (6, 6), (3, 3), (2, 2), (6, 5), (5, 5)], target=40))
    g.act("ann", "roll"); g.act("ann", "hold")
    out = g.advance(20)                                 # 12, then 18: keeps rolling
    assert [e.round_score for e in of(out, ev.Rolled)] == [12, 18] and g.current == "computer"
    out = g.advance(10)                                 # 22: holds
    assert of(out, ev.TurnEnded)[0].score == 22
    g.act("ann", "roll"); g.act("ann", "hold")         # (6,5): ann 16
    out = g.advance(10)                                 # 10: 22 + 10 < 40 -> continue
    assert g.current == "computer" and of(out, ev.Rolled)[0].round_score == 10


def test_computer_stops_when_score_plus_round_reaches_target():
    g = started(game(["ann"], [(2, 3), (6, 6), (1, 2), (5, 4), (2, 2)], target=21))
    g.act("ann", "roll"); g.act("ann", "hold")          # ann 5
    g.advance(10)                                       # computer round 12
    g.advance(10)                                       # (1,2): lost -> ann
    g.act("ann", "roll"); g.act("ann", "hold")          # ann 14
    out = g.advance(10)                                 # computer 4: 0 + 4 < 21
    assert g.current == "computer"
    g2 = started(game(["ann"], [(2, 3), (6, 6), (5, 4)], target=21))
    g2.act("ann", "roll"); g2.act("ann", "hold")
    g2.advance(10)
    out = g2.advance(10)                                # 21 = target: holds and wins
    assert of(out, ev.GameOver) == [ev.GameOver("computer", 21, 2, 0, ev.GameEnd.TARGET)]


def test_computer_pace_zero_plays_the_turn_at_once():
    g = started(game(["ann"], [(2, 3), (6, 6), (4, 4)], computer_pace=0))
    out = g.act("ann", "roll") + g.act("ann", "hold")
    assert [e.round_score for e in of(out, ev.Rolled)] == [5, 12, 20]
    assert g.current == "ann" and g.scores["computer"] == 20


def test_the_turn_deadline_holds_for_an_idle_player():
    g = started(game(["ann", "bob"], [(3, 3), (4, 4)], turn_deadline=5))
    g.act("ann", "roll")
    assert g.advance(49) == []                          # 5 s = 50 ticks, restarted by the roll
    out = g.advance(1)
    assert of(out, ev.TurnEnded) == [ev.TurnEnded("ann", 6, 6, ev.TurnEnd.TIMEOUT)]
    out = g.advance(50 + 50 + 7)                        # bob idles, ann idles, 7 ticks into bob's
    assert [e.player for e in of(out, ev.TurnEnded)] == ["bob", "ann"]
    assert g.current == "bob" and g.advance(42) == [] and of(g.advance(1), ev.TurnEnded)


def test_leaving_on_turn_passes_the_turn():
    g = started(game(["ann", "bob", "cy"], [(3, 3)]))
    g.act("ann", "roll")
    out = g.leave("ann")
    assert out[0] == ev.PlayerLeft("ann") and g.current == "bob"
    assert of(out, ev.TurnStarted) == [ev.TurnStarted("bob", 0, 2, False)]
    assert g.players == ("bob", "cy") and g.round_score == 0


def test_last_in_order_leaving_on_turn_wraps_to_the_first():
    g = started(game(["ann", "bob", "cy"], [(3, 3), (4, 4)]))
    g.act("ann", "roll"); g.act("ann", "hold")
    g.act("bob", "roll"); g.act("bob", "hold")
    out = g.leave("cy")
    assert g.current == "ann" and of(out, ev.TurnStarted) == [ev.TurnStarted("ann", 6, 4, False)]


def test_leaving_a_game_with_two_ends_it_by_walkover():
    g = started(game(["ann", "bob", "cy"], [(3, 3), (2, 2)]))
    g.act("ann", "roll"); g.act("ann", "hold")
    g.leave("cy")
    assert g.current == "bob"
    out = g.leave("bob")
    assert of(out, ev.GameOver) == [ev.GameOver("ann", 6, 2, 0, ev.GameEnd.WALKOVER)]


def test_leaving_before_the_turn_keeps_order():
    g = started(game(["ann", "bob", "cy"], [(3, 3)]))
    g.act("ann", "roll"); g.act("ann", "hold")          # bob's turn
    g.leave("ann")
    assert g.current == "bob"
    assert g.act("bob", "hold") and g.current == "cy"


def test_leaving_a_computer_game_abandons_it():
    g = started(game(["ann"], []))
    out = g.leave("ann")
    assert of(out, ev.GameOver) == [ev.GameOver(None, 0, 1, 0, ev.GameEnd.ABANDONED)]


def test_games_against_the_computer_have_no_stake():
    g = game(["ann"], [], stake=50)
    assert of(g.start(), Hold) == [] and g.pot == 0


def test_staked_three_player_game_balances():
    rolls = [(6, 6), (6, 6), (4, 3), (2, 2), (5, 5), (6, 6)]
    g = game(["ann", "bob", "cy"], rolls, stake=25, target=30)
    ledger = LedgerModel({"ann": 100, "bob": 100, "cy": 100})
    out = g.start()
    assert of(out, Hold) == [Hold(f"t1:g1:ante:{p}", p, 25) for p in ("ann", "bob", "cy")]
    ledger.apply(out)
    for player, rolls_ in (("ann", 2), ("bob", 1), ("cy", 1), ("ann", 1)):
        for _ in range(rolls_):
            ledger.apply(g.act(player, "roll"))
        out = g.act(player, "hold")
        ledger.apply(out)
    assert of(out, ev.GameOver)[0] == ev.GameOver("ann", 34, 4, 75, ev.GameEnd.TARGET)
    settle = of(out, Settle)[0]
    assert settle.pays == (("ann", 75),) and len(settle.stakes) == 3
    assert ledger.house == 0 and not ledger.stakes
    assert ledger.held_total == ledger.paid_total == 75
    assert ledger.wallets == {"ann": 150, "bob": 75, "cy": 75}


def test_staked_game_walkover_pays_the_pot_including_leavers_antes():
    g = game(["ann", "bob", "cy"], [], stake=10)
    ledger = LedgerModel({"ann": 10, "bob": 10, "cy": 10})
    ledger.apply(g.start())
    ledger.apply(g.leave("ann"))
    out = g.leave("cy")
    ledger.apply(out)
    assert of(out, Settle)[0].pays == (("bob", 30),)
    assert ledger.house == 0 and not ledger.stakes and ledger.wallets["bob"] == 30


def test_close_refunds_every_ante():
    g = game(["ann", "bob", "cy"], [(3, 3)], stake=10)
    ledger = LedgerModel({"ann": 10, "bob": 10, "cy": 10})
    ledger.apply(g.start())
    g.act("ann", "roll")
    ledger.apply(g.leave("bob"))
    out = g.close()
    ledger.apply(out)
    assert len(of(out, Refund)) == 3 and of(out, ev.GameClosed)
    assert ledger.wallets == {"ann": 10, "bob": 10, "cy": 10} and not ledger.stakes
    assert g.close() == [] and g.advance(100) == []


def test_a_refused_ante_removes_the_player_or_cancels():
    g = game(["ann", "bob", "cy"], [], stake=10)
    g.start()
    assert g.hold_refused("t1:g1:ante:ann") == [ev.AnteRefused("ann")]   # facts only
    assert g.pot == 20
    out = g.act("ann", "roll")                          # the next input acts on it
    assert out[-1] == ev.Refused("ann", "you are not playing at this table")
    assert g.players == ("bob", "cy") and of(out, ev.TurnStarted)[0].player == "bob"
    assert g.hold_refused("t1:g1:ante:cy") == [ev.AnteRefused("cy")]
    out = g.advance(1)
    assert sorted(r.stake for r in of(out, Refund)) == ["t1:g1:ante:bob"]
    assert of(out, ev.GameOver)[0].reason is ev.GameEnd.CANCELLED


def test_refused_antes_at_start_never_touch_stakes_not_yet_held():
    """The host applies the start's Holds one by one and reports a refusal at once."""
    g = game(["ann", "bob"], [], stake=10)
    ledger = LedgerModel({"ann": 0, "bob": 100})
    queue = g.start()
    while queue:
        e = queue.pop(0)
        if isinstance(e, Hold) and e.amount > ledger.wallets[e.player]:
            queue[:0] = g.hold_refused(e.key)
        else:
            ledger.apply([e])
    out = g.advance(1)
    ledger.apply(out)
    assert of(out, Refund) == [Refund("t1:g1:refund:bob", "t1:g1:ante:bob")]
    assert ledger.wallets == {"ann": 0, "bob": 100} and not ledger.stakes

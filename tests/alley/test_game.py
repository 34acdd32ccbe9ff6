"""Alley craps flow: refusals, turns, timeouts, leaving, cleaning out, the end,
shutdown, refused holds. The Table driver checks the money after every call:
the house nets 0, the ledger holds exactly the sum of the bankrolls, and
wallets plus holds never change."""
import pytest
from alley_helpers import TPS, Table, of

from server.games.alley.options import AlleyOptions
from server.dice.source import FixedDice
from server.games.alley import AlleyGame, Bet, Decision, Fade, PassDice, Phase, Roll
from server.games.alley import events as ev
from server.games.intents import Hold, Settle

BET_T, FADE_T, ROLL_T, CHOICE_T = 60 * TPS, 30 * TPS, 30 * TPS, 30 * TPS


def table(n=3, rolls=(), **opts):
    names = ["ann", "bob", "cy", "dee", "eve", "fay"][:n]
    t = Table(names, list(rolls), **opts)
    t.start()
    return t


def test_invalid_amounts_change_nothing():
    t = table()
    for amount, reason in [(35, "bets go in multiples of 10"), (5, "the minimum is 10"),
                           (0, "the amount must be more than zero"),
                           (110, "the most you can bet is 100 (your bankroll)")]:
        assert t.act("ann", Bet(amount)) == [ev.Refused("ann", reason)]
    assert t.game.phase is Phase.BETTING
    t.act("ann", Bet(50))
    assert t.act("bob", Fade(60)) == [ev.Refused("bob", "the most you can bet is 50 (the uncovered action)")]
    assert t.act("bob", Fade(15)) == [ev.Refused("bob", "bets go in multiples of 10")]
    assert t.act("bob", Fade(-10)) == [ev.Refused("bob", "the amount must be more than zero")]
    assert t.game.view().fades == () and t.game.view().waiting_for == "bob"


def test_fade_is_capped_by_the_faders_bankroll():
    t = table(2, [(3, 4)])
    t.act("ann", Bet(30)); t.act("bob", Fade(30)); t.act("ann", Roll())   # ann 130, bob 70
    t.act("ann", Roll()); t.act("ann", Bet(100))
    assert t.act("bob", Fade(80)) == [ev.Refused("bob", "the most you can bet is 70 (your bankroll)")]


def test_out_of_turn_commands_are_refused():
    t = table()
    assert t.act("bob", Bet(10)) == [ev.Refused("bob", "only the shooter sets the action; ann is shooting")]
    assert t.act("bob", Fade(10)) == [ev.Refused("bob", "there is no action to fade right now")]
    assert t.act("ann", Roll()) == [ev.Refused("ann", "set the action first: bet <amount>")]
    assert t.act("zed", Bet(10)) == [ev.Refused("zed", "you are not playing at this table")]
    t.act("ann", Bet(50))
    assert t.act("cy", Fade(10)) == [ev.Refused("cy", "wait your turn: bob is being asked")]
    assert t.act("ann", Fade(10)) == [ev.Refused("ann", "the shooter cannot fade their own action")]
    assert t.act("ann", Roll()) == [ev.Refused("ann", "wait: the opponents are still fading")]
    assert t.act("ann", Bet(20)) == [ev.Refused("ann", "the action is already set")]
    assert t.act("ann", PassDice()) == [ev.Refused("ann", "the pass is in play: it must be decided first")]
    t.act("bob", Fade(10))
    assert t.act("bob", Fade(10)) == [ev.Refused("bob", "you have had your turn on this pass")]
    assert t.act("bob", Roll()) == [ev.Refused("bob", "only the shooter rolls; ann is shooting")]
    assert t.act("ann", "roll") == [ev.Refused("ann", "unknown command: bet, fade, roll or pass")]
    assert t.game.view().fades == (("bob", 10),)


def test_commands_before_start_and_after_the_end():
    g = AlleyGame(["a", "b"], AlleyOptions(), FixedDice([]), TPS)
    assert g.act("a", Bet(10)) == [ev.Refused("a", "the game has not started yet")]
    with pytest.raises(ValueError):
        AlleyGame(["a"], AlleyOptions(), FixedDice([]), TPS)
    t = table(2, [(6, 6)])
    t.act("ann", Bet(100)); t.act("bob", Fade(100)); t.act("ann", Roll())
    assert t.game.phase is Phase.OVER
    assert t.act("ann", Roll()) == [ev.Refused("ann", "the game is over")]
    assert t.advance(10_000) == [] and t.close() == []


def test_declining_and_nobody_fading_returns_the_action():
    t = table()
    t.act("ann", Bet(50))
    assert of(t.act("bob", Fade()), ev.FadeDeclined) == [ev.FadeDeclined("bob")]
    out = t.act("cy", Fade(0))
    assert of(out, ev.NoAction) == [ev.NoAction("ann", 50)]
    assert of(out, ev.ChoiceAsked) == [ev.ChoiceAsked("ann")] and t.game.phase is Phase.CHOOSING
    assert t.game.bankrolls == {"ann": 100, "bob": 100, "cy": 100}
    out = t.act("ann", Bet(20))                              # roll again, with the bet
    assert of(out, ev.ActionSet) == [ev.ActionSet("ann", 20)]


def test_pass_the_bones_in_seat_order_skipping_the_cleaned_out():
    t = table(3, [(1, 1)])
    t.act("ann", Bet(100)); t.act("bob", Fade(100)); t.act("ann", Roll())   # ann cleaned out
    out = t.log
    assert of(out, ev.CleanedOut) == [ev.CleanedOut("ann")]
    assert of(out, ev.BonesPassed)[-1] == ev.BonesPassed("ann", "bob", ev.PassReason.CLEANED_OUT)
    out = t.act("bob", PassDice())
    assert of(out, ev.BonesPassed) == [ev.BonesPassed("bob", "cy", ev.PassReason.CHOSE)]
    out = t.act("cy", PassDice())
    assert of(out, ev.BonesPassed) == [ev.BonesPassed("cy", "bob", ev.PassReason.CHOSE)]
    t.act("bob", Bet(10))
    assert of(t.log, ev.FadeAsked)[-1].player == "cy"
    assert t.act("ann", Fade(10)) == [ev.Refused("ann", "you are cleaned out")]


def test_timeouts_each_window():
    t = table(3, [(2, 2), (3, 3), (4, 4), (2, 2)])
    assert t.advance(BET_T - 1) == []
    out = t.advance(1)                                       # ann never bets: bones pass
    assert of(out, ev.TimedOut) == [ev.TimedOut("ann", ev.Waiting.BET)]
    assert of(out, ev.BonesPassed) == [ev.BonesPassed("ann", "bob", ev.PassReason.TIMEOUT)]
    t.act("bob", Bet(40))
    out = t.advance(FADE_T)                                  # cy never answers: sits out
    assert of(out, ev.TimedOut) == [ev.TimedOut("cy", ev.Waiting.FADE)]
    assert of(out, ev.FadeAsked)[0].player == "ann"
    out = t.act("ann", Fade(30))
    assert of(out, ev.ActionPartlyCovered) == [ev.ActionPartlyCovered("bob", 40, 30)]
    out = t.advance(ROLL_T)                                  # the dealer rolls for bob: point 4
    assert of(out, ev.Rolled) == [ev.Rolled("bob", (2, 2), 4, None, Decision.POINT_SET, True)]
    out = t.advance(ROLL_T * 2)                              # two more dealer rolls: 6, 8
    assert [e.total for e in of(out, ev.Rolled)] == [6, 8]
    t.act("bob", Roll())                                     # 4: point made
    assert t.game.bankrolls == {"ann": 70, "bob": 130, "cy": 100}
    out = t.advance(CHOICE_T)                                # no choice: bones pass
    assert of(out, ev.BonesPassed) == [ev.BonesPassed("bob", "cy", ev.PassReason.TIMEOUT)]


def test_a_slow_tick_catches_up_across_windows():
    t = table(3)
    out = t.advance(BET_T * 3 + 5)                           # three shooters time out
    assert [e.to_shooter for e in of(out, ev.BonesPassed)] == ["bob", "cy", "ann"]
    assert t.game.view().ticks_left == BET_T - 5


def test_a_fader_who_drops_mid_pass_is_settled_with_the_pass():
    t = table(3, [(4, 5), (3, 6)])
    t.act("ann", Bet(60)); t.act("bob", Fade(40)); t.act("cy", Fade(20))
    t.act("ann", Roll())                                     # point 9
    out = t.leave("bob")
    assert out == [ev.PlayerLeft("bob", 40)]
    assert t.ledger.wallets["bob"] == 900                    # nothing paid yet
    out = t.act("ann", Roll())                               # 9: ann wins bob's 40 too
    assert of(out, ev.PaidOut) == [ev.PaidOut("bob", 60)]
    assert t.ledger.wallets["bob"] == 960
    assert t.game.bankrolls == {"ann": 160, "cy": 80}
    rehold = of(out, Hold)
    assert sorted((h.player, h.amount) for h in rehold) == [("ann", 160), ("cy", 80)]
    assert of(out, ev.ChoiceAsked) == [ev.ChoiceAsked("ann")]


def test_leaving_between_passes_pays_at_once_and_play_goes_on():
    t = table(3)
    out = t.leave("cy")
    assert of(out, ev.PaidOut) == [ev.PaidOut("cy", 100)] and t.ledger.wallets["cy"] == 1000
    out = t.leave("ann")                                     # the shooter leaves: cancelled,
    assert of(out, ev.GameOver) == [ev.GameOver(None, 0, 0, ev.GameEnd.CANCELLED)]
    assert t.ledger.wallets == {"ann": 1000, "bob": 1000, "cy": 1000}


def test_shooter_leaving_while_betting_passes_the_bones():
    t = table(3, [(3, 4)])
    t.act("ann", Bet(20)); t.act("bob", Fade(20)); t.act("ann", Roll())    # ann 120, bob 80
    out = t.leave("ann")
    assert of(out, ev.PaidOut) == [ev.PaidOut("ann", 120)]
    assert of(out, ev.BonesPassed) == [ev.BonesPassed("ann", "bob", ev.PassReason.LEFT)]


def test_shooter_leaving_before_the_roll_calls_the_pass_off():
    t = table(3)
    t.act("ann", Bet(50)); t.act("bob", Fade(20))
    out = t.leave("ann")
    assert of(out, ev.PassCalledOff) == [ev.PassCalledOff("ann")]
    assert of(out, ev.PaidOut) == [ev.PaidOut("ann", 100)]
    assert of(out, ev.BonesPassed) == [ev.BonesPassed("ann", "bob", ev.PassReason.LEFT)]
    assert t.game.bankrolls == {"bob": 100, "cy": 100} and t.game.players == ("bob", "cy")


def test_shooter_leaving_mid_roll_has_the_dealer_roll_it_out():
    t = table(3, [(3, 3), (2, 3), (4, 2)])
    t.act("ann", Bet(50)); t.act("bob", Fade(50))
    t.act("ann", Roll())                                     # point 6
    out = t.leave("ann")
    assert [(e.total, e.by_dealer) for e in of(out, ev.Rolled)] == [(5, True), (6, True)]
    assert of(out, ev.PaidOut) == [ev.PaidOut("ann", 150)]
    assert of(out, ev.BonesPassed) == [ev.BonesPassed("ann", "bob", ev.PassReason.LEFT)]
    assert t.ledger.wallets["ann"] == 1050


def test_the_asked_opponent_leaving_moves_the_asking_on():
    t = table(3)
    t.act("ann", Bet(50))
    out = t.leave("bob")
    assert of(out, ev.FadeAsked)[0].player == "cy"
    assert t.ledger.wallets["bob"] == 900                    # paid when this pass ends
    out = t.act("cy", Fade(0))
    assert of(out, ev.PaidOut) == [ev.PaidOut("bob", 100)]


def test_a_cleaned_out_player_who_leaves_needs_no_payout():
    t = table(3, [(6, 5)])
    t.act("ann", Bet(100)); t.act("bob", Fade(100)); t.act("ann", Roll())  # bob out
    out = t.leave("bob")
    assert out == [ev.PlayerLeft("bob", 0)] and "bob" not in t.game.bankrolls


def test_the_game_ends_when_one_player_has_it_all():
    t = table(3, [(5, 6), (6, 1)])
    t.act("ann", Bet(100)); t.act("bob", Fade(100)); t.act("ann", Roll())  # ann 200, bob 0
    t.act("ann", Roll())
    t.act("ann", Bet(100))
    out = t.act("cy", Fade(100))
    out = t.act("ann", Roll())
    assert of(out, ev.CleanedOut) == [ev.CleanedOut("cy")]
    assert of(out, ev.GameOver) == [ev.GameOver("ann", 300, 200, ev.GameEnd.CLEANED_HOUSE)]
    assert of(out, Settle)[0].pays == (("ann", 300),)
    assert t.ledger.wallets == {"ann": 1200, "bob": 900, "cy": 900} and not t.ledger.stakes


def test_the_last_player_with_money_wins_when_the_rest_leave():
    t = table(2, [(3, 4)])
    t.act("ann", Bet(30)); t.act("bob", Fade(30)); t.act("ann", Roll())
    out = t.leave("bob")
    assert of(out, ev.GameOver) == [ev.GameOver("ann", 130, 30, ev.GameEnd.LAST_STANDING)]
    assert t.ledger.wallets == {"ann": 1030, "bob": 970}


def test_close_returns_every_bankroll_and_calls_off_the_pass_in_play():
    t = table(3, [(3, 4), (4, 4)])
    t.act("ann", Bet(30)); t.act("bob", Fade(30)); t.act("ann", Roll())   # ann 130, bob 70
    t.act("ann", Roll()); t.act("ann", Bet(70)); t.act("bob", Fade(70))
    t.act("cy", Fade(0))
    t.act("ann", Roll())                                     # point 8: a pass in play
    out = t.close()
    assert of(out, ev.GameClosed) == [ev.GameClosed("shutdown", (("ann", 130), ("bob", 70), ("cy", 100)))]
    assert t.ledger.wallets == {"ann": 1030, "bob": 970, "cy": 1000} and not t.ledger.stakes
    assert t.game.phase is Phase.CLOSED and t.advance(10_000) == []


def test_a_refused_buy_in_removes_the_player():
    t = Table(["ann", "bob", "cy"], [], wallets={"ann": 1000, "bob": 50, "cy": 1000})
    out = t.start()
    assert ev.BuyInRefused("bob") in out
    assert t.game.bankrolls == {"ann": 100, "cy": 100} and t.game.players == ("ann", "cy")
    out = t.act("ann", Bet(10))
    assert of(out, ev.FadeAsked)[0].player == "cy"


def test_a_refused_buy_in_with_two_players_cancels():
    t = Table(["ann", "bob"], [], wallets={"ann": 50, "bob": 1000})
    out = t.start()                  # ann's Hold is refused before bob's is even applied
    assert ev.BuyInRefused("ann") in out and not of(out, ev.GameOver)
    out = t.advance(1)               # what follows comes with the next input
    assert of(out, ev.GameOver) == [ev.GameOver(None, 0, 0, ev.GameEnd.CANCELLED)]
    assert t.ledger.wallets == {"ann": 50, "bob": 1000} and not t.ledger.stakes


def test_a_refused_rehold_means_that_player_left_with_their_chips():
    t = table(3, [(3, 4)])
    t.act("ann", Bet(20)); t.act("bob", Fade(20)); t.act("ann", Roll())   # ann 120, bob 80
    # stakes 1-3 are the buy-ins, 4-6 the re-holds after the decided pass,
    # 7 and 8 the re-holds when cy leaves: refuse bob's
    t.ledger.refuse.add("a1:g1:stake:8:bob")
    out = t.leave("cy")
    assert ev.BuyInRefused("bob") in out
    out = t.act("bob", PassDice())
    assert out[-1] == ev.Refused("bob", "the game is over")
    assert of(out, ev.GameOver) == [ev.GameOver("ann", 120, 20, ev.GameEnd.LAST_STANDING)]
    assert t.ledger.wallets == {"ann": 1020, "bob": 980, "cy": 1000}


def test_view_for_the_table_command():
    t = table(3)
    t.act("ann", Bet(50)); t.act("bob", Fade(20))
    v = t.game.view()
    assert (v.phase, v.shooter, v.action, v.fades, v.waiting_for) == (
        Phase.FADING, "ann", 50, (("bob", 20),), "cy")
    assert v.ticks_left == FADE_T and v.bankrolls == (("ann", 100), ("bob", 100), ("cy", 100))


def test_after_every_decided_pass_the_ledger_holds_each_bankroll():
    """So a crash between passes refunds the bankrolls of the last decided pass."""
    t = table(3, [(3, 4), (6, 5), (6, 6)])
    t.act("ann", Bet(20)); t.act("bob", Fade(20)); t.act("ann", Roll())   # 7: ann wins 20
    held = {}
    for player, amount in t.ledger.stakes.values():
        held[player] = held.get(player, 0) + amount
    assert held == t.game.bankrolls == {"ann": 120, "bob": 80, "cy": 100}
    before = len(t.ledger.stakes)
    t.act("ann", Roll())                                                   # roll again: no pass yet
    assert len(t.ledger.stakes) == before                                  # nothing moved, nothing written

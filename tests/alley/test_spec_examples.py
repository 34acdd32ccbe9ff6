"""Spec 000's examples replayed with fixed dice; money checked after every call."""
from alley_helpers import Table, of

from server.games.alley import Bet, Decision, Fade, Phase, Roll
from server.games.alley import events as ev
from server.games.intents import Hold, Settle


def test_bill_and_tony_natural_wins_the_200_pot():
    t = Table(["Bill", "Tony"], [(3, 4)])
    out = t.start()
    assert of(out, Hold) == [Hold("a1:g1:stake:1:Bill", "Bill", 100), Hold("a1:g1:stake:2:Tony", "Tony", 100)]
    assert of(out, ev.GameStarted) == [ev.GameStarted(("Bill", "Tony"), 100, 200)]
    assert of(out, ev.ShooterUp) == [ev.ShooterUp("Bill", 100, 10, 100)]
    out = t.act("Bill", Bet(100))
    assert of(out, ev.FadeAsked) == [ev.FadeAsked("Tony", "Bill", 100, 100, 10, 100)]
    out = t.act("Tony", Fade(100))
    assert of(out, ev.ActionCovered) == [ev.ActionCovered("Bill", 100)]
    assert of(out, ev.RollAsked) == [ev.RollAsked("Bill", None)]
    out = t.act("Bill", Roll())
    assert of(out, ev.Rolled) == [ev.Rolled("Bill", (3, 4), 7, None, Decision.NATURAL, False)]
    assert of(out, ev.PassResolved) == [ev.PassResolved("Bill", True, Decision.NATURAL, 100,
                                                         (("Bill", 100), ("Tony", -100)))]
    assert of(out, ev.Balances) == [ev.Balances((("Bill", 200), ("Tony", 0)))]
    assert of(out, ev.CleanedOut) == [ev.CleanedOut("Tony")]
    assert of(out, ev.GameOver) == [ev.GameOver("Bill", 200, 100, ev.GameEnd.CLEANED_HOUSE)]
    assert of(out, Settle) == [Settle("a1:g1:settle:1", ("a1:g1:stake:1:Bill", "a1:g1:stake:2:Tony"),
                                      (("Bill", 200),), (("Bill", 100), ("Tony", 100)))]
    assert t.game.phase is Phase.OVER
    assert t.ledger.wallets == {"Bill": 1100, "Tony": 900} and t.ledger.held == 0


def test_four_players_60_covered_by_20_and_40_player_4_never_asked():
    t = Table(["P1", "P2", "P3", "P4"], [(5, 6)])
    t.start()
    t.act("P1", Bet(60))
    out = t.act("P2", Fade(20))
    assert of(out, ev.Faded) == [ev.Faded("P2", 20, 20, 40)]
    assert of(out, ev.FadeAsked) == [ev.FadeAsked("P3", "P1", 60, 40, 10, 40)]
    out = t.act("P3", Fade(40))
    assert of(out, ev.ActionCovered) == [ev.ActionCovered("P1", 60)]
    assert not [e for e in t.log if isinstance(e, ev.FadeAsked) and e.player == "P4"]
    assert t.act("P4", Fade(10)) == [ev.Refused("P4", "there is no action to fade right now")]
    out = t.act("P1", Roll())                                   # 11: a natural
    assert of(out, ev.Balances) == [ev.Balances((("P1", 160), ("P2", 80), ("P3", 60), ("P4", 100)))]
    assert of(out, ev.ChoiceAsked) == [ev.ChoiceAsked("P1")]


def test_100_action_covered_60_by_three_20s_loses_60_on_craps():
    t = Table(["S", "A", "B", "C"], [(1, 1)])
    t.start()
    t.act("S", Bet(100))
    for p in ("A", "B", "C"):
        t.act(p, Fade(20))
    assert of(t.log, ev.ActionPartlyCovered) == [ev.ActionPartlyCovered("S", 100, 60)]
    out = t.act("S", Roll())
    assert of(out, ev.PassResolved)[0].results == (("S", -60), ("A", 20), ("B", 20), ("C", 20))
    assert t.game.bankrolls == {"S": 40, "A": 120, "B": 120, "C": 120}


def test_a_point_made_and_a_seven_out():
    t = Table(["Moe", "Larry", "Curly"], [(2, 2), (5, 6), (1, 3), (4, 2), (3, 4)])
    t.start()
    t.act("Moe", Bet(50)); t.act("Larry", Fade(30)); t.act("Curly", Fade(20))
    out = t.act("Moe", Roll())
    assert of(out, ev.RollAsked) == [ev.RollAsked("Moe", 4)]
    t.act("Moe", Roll())                                        # 11: nothing with a point on
    out = t.act("Moe", Roll())                                  # 4: point made
    assert of(out, ev.PassResolved)[0].decision is Decision.POINT_MADE
    assert t.game.bankrolls == {"Moe": 150, "Larry": 70, "Curly": 80}
    t.act("Moe", Roll())                                        # roll again: a new pass
    t.act("Moe", Bet(10)); t.act("Larry", Fade(10))
    t.act("Moe", Roll())                                        # 6
    out = t.act("Moe", Roll())                                  # 7: seven out
    assert of(out, ev.PassResolved)[0].results == (("Moe", -10), ("Larry", 10))
    assert t.game.bankrolls == {"Moe": 140, "Larry": 80, "Curly": 80}

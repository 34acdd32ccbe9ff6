"""The blackjack table as the host drives it: seats, timing, leaving, the
shoe's seed, and what each viewer reads, by ticks (no server, no sleeps)."""
from __future__ import annotations

import pytest
from bj_table import HZ, config, notices, of, seat, table, text

from server.dice.fair import FairDice
from server.dice.view import fair_lines
from server.games.blackjack.draws import SHOE
from server.games.blackjack.events import (BetsOpen, DealerPlayed, Dealt, Did, LastCall, Played, Settlement,
                                           ShoeRetired, Turn)
from server.games.blackjack.rounds import Phase
from server.games.blackjack.shoe import rebuild
from server.games.intents import Hold, Refund, Settle
from server.games.seam import Viewer
from server.render.prefs import Prefs
from server.render.width import display_width
from support.pure_table import PureTable


def bet(t, player, n="10", wallet=1000):
    return t.act(player, ["bet", n], wallet)


def play_out(t, word="stand", wallet=1000):
    """Answer every question and turn with `word` (insurance declined) until the round is settled."""
    events = []
    for _ in range(60):
        g = t.game
        if g.phase is Phase.IDLE:
            return events
        if g.phase is Phase.INSURANCE:
            for p in list(g.round.hands):
                if p not in g.round.answered and p in t.seated():
                    events += t.act(p, ["insurance", "no"], wallet)
        elif g.phase is Phase.PLAYING and g.round.turn and g.round.turn[0] in t.seated():
            events += t.act(g.round.turn[0], [word], wallet)
        events += t.advance(1)
    raise AssertionError("the round did not end")


def test_alone_the_cards_come_at_the_bet_and_no_clock_runs():
    t = seat(table(), "ann")
    events = bet(t, "ann")
    assert of(events, Hold) and not of(events, Dealt)          # the deal waits for the hold to be durable
    events = t.advance(1)
    assert of(events, Dealt) and not of(events, BetsOpen)
    if t.game.phase is Phase.PLAYING:
        assert of(events, Turn)[0].seconds is None
    t.advance(1000 * HZ)
    assert t.game.phase in (Phase.PLAYING, Phase.INSURANCE, Phase.IDLE)
    assert not any(isinstance(e, Played) and e.did is Did.TIMEOUT for e in t.advance(1000 * HZ))


def test_together_a_window_a_last_call_the_deal_and_a_clock_on_each_decision():
    t = seat(table(4), "ann", "bob")
    bet(t, "ann")
    assert of(t.advance(1), BetsOpen)
    bet(t, "bob", "20")
    assert not of(t.advance(6 * HZ), LastCall)
    assert of(t.advance(1 * HZ), LastCall)
    events = t.advance(3 * HZ)
    assert of(events, Dealt)
    t.advance(0)
    while t.game.phase is Phase.INSURANCE:
        t.advance(30 * HZ)                                     # nobody answers: insurance declined
    if t.game.phase is Phase.PLAYING:
        (player, _) = t.game.round.turn
        t.advance(1)
        events = t.advance(30 * HZ)
        assert any(isinstance(e, Played) and e.did is Did.TIMEOUT and e.player == player for e in events)


def test_a_second_player_sitting_down_starts_a_fresh_window():
    t = seat(table(), "ann", "bob")
    bet(t, "ann")
    t.advance(1)
    t.advance(8 * HZ)
    events = t.sit("cy", 1000)
    assert of(events, BetsOpen)
    assert not of(t.advance(5 * HZ), Dealt)


def test_leaving_before_the_deal_refunds_the_bet():
    t = seat(table(), "ann", "bob")
    bet(t, "ann")
    events = t.leave("ann")
    assert of(events, Refund) and "back in your wallet" in text(t, events, "ann")
    assert "ann" not in t.seated()


def test_a_player_who_drops_mid_round_has_the_hands_stand_and_is_told_at_login():
    for seed in range(1, 30):
        t = seat(table(seed), "ann", "bob")
        bet(t, "ann")
        bet(t, "bob")
        t.advance(1)
        t.advance(10 * HZ)
        if t.game.phase is Phase.PLAYING and t.game.round.turn[0] == "ann":
            break
    else:
        pytest.skip("no seed put ann first to play")
    events = t.disconnect("ann")
    assert any(isinstance(e, Played) and e.did is Did.AWAY for e in events)
    assert t.game.round.turn is None or t.game.round.turn[0] == "bob"
    events = play_out(t)
    (settle,) = of(events, Settle)
    assert "ann" in dict(settle.pays)
    assert "stood after you left" in notices(events)["ann"]


def test_a_shutdown_refunds_every_stake_of_the_round():
    t = seat(table(2), "ann", "bob")
    bet(t, "ann")
    bet(t, "bob")
    t.advance(1)
    t.advance(10 * HZ)
    events = t.close("The casino is closing.")
    refunded = {e.stake for e in of(events, Refund)}
    assert refunded == set(t.game.round.stakes) | refunded and len(refunded) >= 2


def test_the_cut_card_retires_the_shoe_and_its_revealed_seed_rebuilds_it():
    dice = FairDice("blackjack", seed=9)
    t = PureTable(config(decks=1, penetration=50), HZ, dice)
    seat(t, "ann")
    first_commitment = dice.commitment
    dealt = []
    for _ in range(30):
        bet(t, "ann")
        events = t.advance(1) + play_out(t)
        dealt += [c for e in of(events, Dealt) for _, h in e.hands for c in h.cards]
        dealt += [c for e in of(events, DealerPlayed) for c in e.cards]
        if of(events, ShoeRetired):
            break
    else:
        raise AssertionError("the cut card never came out")
    (revealed,) = dice.revealed
    assert revealed.commitment == first_commitment and dice.commitment != first_commitment
    shoe = rebuild(revealed.server_seed, "blackjack", 1)
    assert set(dealt) <= set(shoe)
    fair = "\n".join(fair_lines(dice, SHOE))
    assert "draws, shoe shuffles (--draw shoe)" in fair and "--draw shoe --decks D" in fair


@pytest.mark.parametrize("width", [80, 60, 40])
@pytest.mark.parametrize("unicode", [False, True])
def test_the_table_fits_the_width_with_the_hole_card_face_down(width, unicode):
    t = seat(table(6), "ann", "bob", "cy")
    for p in ("ann", "bob", "cy"):
        bet(t, p)
    t.advance(1)
    t.advance(10 * HZ)
    prefs = Prefs(unicode=unicode, width=width)
    lines = t.view(Viewer("ann", prefs, True))
    assert all(display_width(line) <= width for line in lines), [ln for ln in lines if display_width(ln) > width]
    screen = "\n".join(lines)
    hole = t.game.round.dealer[1]
    assert ("[##]" in screen) or ("#####" in screen) or ("░░░░░" in screen)
    assert f"[{hole.shown(unicode)}]" not in screen.split("Dealer")[1].split("\n")[0]
    play_out(t)
    after = "\n".join(t.view(Viewer("ann", prefs, True)))
    assert "[##]" not in after and "#####" not in after and "░" not in after


def test_gmcp_carries_hands_and_totals_with_the_hole_card_as_null():
    for seed in range(1, 20):
        t = seat(table(seed), "ann")
        bet(t, "ann")
        t.advance(1)
        if t.game.phase is Phase.PLAYING:
            break
    data = t.table_data()
    assert data["dealer"]["cards"][1] is None and data["dealer"]["total"] is None
    (hand,) = data["hands"]["ann"]
    assert len(hand["cards"]) == 2 and hand["total"] and hand["bet"] == 10


def test_rules_say_every_option_of_this_table():
    t = table(surrender="late", soft_17="hit", blackjack_pays="6:5", min_bet=10, max_hands=3,
              resplit_aces=True, double_after_split=False, decks=2, penetration=60)
    rules = " ".join(t.rules())
    for said in ("2 decks", "60%", "pays 6:5", "multiples of 10", "up to 3 hands", "may be split again",
                 "No doubling after a split", "Late surrender", "hits soft 17", "10 s betting window",
                 "3 s left", "30 s", "insure", "peeks", "--draw shoe --decks 2"):
        assert said in rules, said


def test_one_settlement_per_player_a_line_per_hand():
    t = seat(table(3), "ann", "bob")
    bet(t, "ann")
    bet(t, "bob")
    t.advance(1)
    t.advance(10 * HZ)
    events = play_out(t)
    assert len(of(events, Settle)) == 1
    assert sorted(s.player for s in of(events, Settlement)) == ["ann", "bob"]
    assert "Settlement, round 1" in text(t, events, "ann")


@pytest.mark.parametrize(("dice", "black_ink"), [("dark", "\x1b[1;97m"), ("light", "\x1b[1;30m")])
def test_cards_are_inked_for_the_screen_and_plain_with_colour_off(dice, black_ink):
    """Red suits red; black suits white on a dark screen and black on a light one;
    with colour off not one escape, in the tokens and in the drawn boxes alike."""
    from server.games.blackjack import art
    from server.games.blackjack.cards import Card
    king_of_spades, queen_of_hearts = Card(13, 0), Card(12, 1)
    inked = Prefs(unicode=True, width=80, color=True, dice=dice)
    assert art.token(king_of_spades, inked) == f"[{black_ink}K♠\x1b[0m]"
    assert art.token(queen_of_hearts, inked).startswith("[\x1b[1;91m")
    plain_prefs = Prefs(unicode=False, width=40, color=False, dice=dice)
    drawn = "\n".join([art.tokens([king_of_spades, queen_of_hearts, None], plain_prefs),
                       *art.boxes([king_of_spades, None], plain_prefs, 40)])
    assert "\x1b" not in drawn and "[K-s] [Q-h] [##]" in drawn


def test_a_seated_player_who_places_no_bet_sits_the_round_out_and_keeps_the_seat():
    """No `sitout` word at blackjack: a round one places no bet in deals one no cards."""
    t = seat(table(4), "ann", "bob")
    bet(t, "ann")
    events = t.advance(1) + t.advance(10 * HZ)                 # the window closes on ann's bet alone
    [dealt] = of(events, Dealt)
    assert [player for player, _ in dealt.hands] == ["ann"]
    play_out(t)
    assert "bob" in t.seated() and t.game.phase is Phase.IDLE

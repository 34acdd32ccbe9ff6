"""The roulette table as the host drives it: seats, `spin` alone, the ticked
round with several players, leaving and dropping (bets ride, the player is
told), refused holds, shutdown. Fixed pockets; time is ticks, never sleep."""
from __future__ import annotations

from table_helpers import HZ, bet, notes, notices, of, seat, table, text

from server.games.catalogue import entry_for, find_game
from server.games.intents import Hold, Refund, Settle
from server.games.roulette.dealer import BetsSummary, RouletteDealer
from server.games.roulette.events import (
    BallDropped, BetAccepted, BetCancelled, BetRefused, BetsOpen, BetsRide, LastCall, NoMoreBets,
    Settlement, SpinRefused, WheelClosed,
)
from server.games.seam import HandResult, Notice

WINDOW, LAST_CALL, SPIN = 20 * HZ, 5 * HZ, 3 * HZ


def test_the_catalogue_plays_the_shipped_table_with_this_dealer():
    t = table()
    assert find_game("roulette") is entry_for(t.dealer.config) and isinstance(t.dealer, RouletteDealer)
    assert (t.dealer.config.max_players, t.dealer.config.min_bet, t.dealer.config.max_bet) == (8, 1, 10000)
    assert set(find_game("roulette").words) == {"bet", "bets", "unbet", "spin"}


# --- alone at the wheel -----------------------------------------------------------
def test_alone_spin_needs_a_bet_then_no_more_bets_at_once_and_the_ball_drops_later():
    t = seat(table(17), "ann")
    assert "place a bet first" in of(t.act("ann", ["spin"], 1000), SpinRefused)[0].reason
    out = bet(t, "ann", "straight 17 10")
    assert [type(e) for e in out] == [Hold, BetAccepted, BetsSummary]
    assert "Bet accepted: straight 17 10." in text(t, out) and "1) straight 17 10" in text(t, out)
    assert t.advance(100 * HZ) == []                    # alone, nobody is hurried
    out = t.act("ann", ["spin"], 1000)
    assert of(out, NoMoreBets) and t.dealer.phase() == "no more bets"
    assert of(bet(t, "ann", "red 5"), BetRefused)       # nothing new once the ball spins
    assert t.advance(SPIN - 1) == []
    out = t.advance(1)
    (dropped,) = of(out, BallDropped)
    assert dropped.call == "17 black, odd, low, second dozen, second column"
    (settle,) = of(out, Settle)
    assert settle.pays == (("ann", 360),)               # 35:1 and the stake back
    (s,) = of(out, Settlement)
    assert (s.staked, s.paid, s.net, s.away) == (10, 360, 350, False)
    assert out.index(settle) < out.index(s)             # the money is written before it is told
    assert t.dealer.dice.rotations == 1                 # the spin's seed is revealed at once
    assert dict(of(out, HandResult)[0].fields) == {"spin": 1, "pocket": 17, "players": 1, "staked": 10,
                                                   "paid": 360}
    shown = text(t, out)
    assert "17 black, odd, low, second dozen, second column." in shown
    assert "Settlement, spin 1: won 350 (straight 17 +350); net +350." in shown
    assert t.dealer.phase() == "idle" and t.dealer.wheel.bets_of("ann") == []


def test_zero_is_called_green_and_one_settlement_covers_many_bets():
    t = seat(table(0), "ann")
    for words in ("red 10", "straight 0 2", "split 0 1 4", "dozen 1 6", "firstfour 4"):
        bet(t, "ann", words)
    t.act("ann", ["spin"], 1000)
    out = t.advance(SPIN)
    assert of(out, BallDropped)[0].call == "0 green"
    assert len(of(out, Settle)) == 1 and len(of(out, Settlement)) == 1
    (s,) = of(out, Settlement)
    assert s.paid == 2 * 36 + 4 * 18 + 4 * 9 and s.staked == 26
    assert "lost 16 (red -10, dozen 1 -6)" in text(t, out)


def test_every_form_of_the_issue_is_a_bet_and_a_bad_split_names_a_good_one():
    t = seat(table(), "ann")
    forms = ["straight 17 10", "split 17 20 5", "street 13 5", "corner 17 21 5", "corner 17 18 20 21 5",
             "sixline 13 5", "split 0 1 5", "trio 0 1 2 5", "firstfour 5", "red 10", "black 10", "odd 10",
             "even 10", "low 10", "high 10", "dozen 2 10", "column 3 10"]
    for words in forms:
        assert of(bet(t, "ann", words), Hold), words
    assert len(t.dealer.wheel.bets_of("ann")) == len(forms)
    refused = of(bet(t, "ann", "split 17 22 5"), BetRefused)[0].reason
    assert refused == ("17 and 22 are not next to each other on the layout; a split is two numbers "
                       "side by side, e.g. split 17 20 or split 17 18")
    assert "e.g. corner 17 21" in of(bet(t, "ann", "corner 17 23 5"), BetRefused)[0].reason


def test_a_bet_beyond_the_wallet_or_the_limits_is_refused_with_one_line():
    t = seat(table(), "ann")
    out = bet(t, "ann", "red 50", wallet=40)
    assert not of(out, Hold) and "more than your wallet (40 chips)" in notes(out, "ann")
    assert "the table maximum is 10000 a wager" in text(t, bet(t, "ann", "red 10001", wallet=10**6))
    assert "Usage: bet <kind>" in notes(t.act("ann", ["bet"], 1000))
    assert "Sit down first: play roulette." in notes(t.act("bob", ["bet", "red", "5"], 1000))


def test_bets_and_unbet_by_number_name_and_all():
    t = seat(table(), "ann")
    for words in ("red 10", "split 17 20 5", "corner 17 21 5"):
        bet(t, "ann", words)
    assert "1) red 10  2) split 17 20 5  3) corner 17 21 5" in text(t, t.act("ann", ["bets"], 1000))
    out = t.act("ann", ["unbet", "2"], 1000)
    assert of(out, Refund) and "Taken down: split 17 20, 5 back to your wallet." in text(t, out)
    assert "Your bets: 1) red 10  2) corner 17 21 5" in text(t, out)
    assert "Taken down: red" in text(t, t.act("ann", ["unbet", "red"], 1000))
    out = t.act("ann", ["unbet", "all"], 1000)
    assert len(of(out, Refund)) == 1 and "You have no bets on the layout." in text(t, out)
    assert "Refused: you have no bets on the layout." in text(t, t.act("ann", ["unbet", "all"], 1000))
    assert "Usage: unbet" in notes(t.act("ann", ["unbet"], 1000))


# --- several players: the ticks drive the round -------------------------------------
def test_with_two_players_a_bet_opens_the_window_with_last_call_no_more_bets_and_the_drop():
    t = seat(table(32), "ann", "bob")
    bet(t, "ann", "red 10")
    out = t.advance(1)
    assert of(out, BetsOpen) and "Place your bets: no more bets in 20 seconds." in text(t, out, "bob")
    assert "others are at the wheel" in of(t.act("ann", ["spin"], 1000), SpinRefused)[0].reason
    bet(t, "bob", "black 10")
    out = t.advance(WINDOW - LAST_CALL - 2)         # the tick that opened the window counts
    assert not of(out, LastCall)
    out = t.advance(1)
    assert of(out, LastCall) and "Last call! 5 seconds to place your bets." in text(t, out, "bob")
    assert of(t.act("bob", ["unbet", "black"], 1000), Refund)     # removals stay open until no more bets
    out = t.advance(LAST_CALL)
    assert of(out, NoMoreBets) and "No more bets! The ball is spinning. The ball drops in 3 seconds." \
        in text(t, out, "bob")
    assert "no more bets" in of(bet(t, "bob", "red 5"), BetRefused)[0].reason
    assert "no more bets" in text(t, t.act("ann", ["unbet", "all"], 1000))
    out = t.advance(SPIN)
    assert of(out, BallDropped)[0].pocket == 32
    assert [s.player for s in of(out, Settlement)] == ["ann"]
    assert "Settlement" in text(t, out, "ann") and "Settlement" not in text(t, out, "bob")
    assert "32 red, even, high, third dozen, second column." in text(t, out, "bob")   # everyone hears it


def test_a_watcher_hears_the_round_but_not_the_players_money():
    t = seat(table(5), "ann", "bob")
    bet(t, "ann", "red 10")
    out = t.advance(WINDOW + SPIN + 1)
    seen = text(t, out, "zed")
    assert "Place your bets" in seen and "Last call!" in seen and "No more bets!" in seen
    assert "5 red, odd, low, first dozen, second column." in seen and "Settlement" not in seen


def test_a_second_player_arriving_starts_the_window_and_leaving_stops_it():
    t = seat(table(), "ann")
    bet(t, "ann", "red 10")
    assert t.advance(5 * HZ) == []
    t.sit("bob", 1000)
    assert of(t.advance(1), BetsOpen)
    t.leave("bob")
    assert t.advance(WINDOW * 2) == [] and t.dealer.phase() == "idle"   # alone again: spin when ready


# --- leaving, dropping, coming back --------------------------------------------------
def test_leaving_is_at_once_and_the_bets_ride_to_the_wallet_with_a_notice():
    t = seat(table(1), "ann", "bob")
    bet(t, "ann", "red 10")
    bet(t, "ann", "straight 1 5")
    bet(t, "bob", "black 10")
    out = t.leave("ann")
    assert t.seated() == ["bob"] and of(out, BetsRide)
    assert "Your 2 bets stay on the layout and ride on the next spin" in notes(out, "ann")
    assert "ann left; their 2 bets ride on the next spin." in text(t, out, "bob")
    out = t.advance(WINDOW + SPIN + 1)              # only bob seated, but ann's bets force the round
    (s_ann,) = [s for s in of(out, Settlement) if s.player == "ann"]
    assert s_ann.away and s_ann.paid == 20 + 180
    (settle,) = of(out, Settle)
    assert dict(settle.pays) == {"ann": 200, "bob": 0}
    told = notices(out)
    assert set(told) == {"ann"} and out.index(settle) < out.index(of(out, Notice)[0])
    assert told["ann"] == ("Your bets at roulette rode on spin 1 after you left: 1 red, odd, low, first "
                           "dozen, first column. Staked 15, paid 200 to your wallet (net +185).")


def test_a_lone_player_who_drops_has_the_bets_spun_by_the_window_and_is_told():
    t = seat(table(2), "ann")
    bet(t, "ann", "black 10")
    out = t.disconnect("ann")
    assert t.seated() == [] and of(out, BetsRide)[0].disconnected
    out = t.advance(WINDOW + SPIN)
    assert of(out, BallDropped) and notices(out)["ann"].endswith("Staked 10, paid 20 to your wallet (net +10).")


def test_coming_back_before_the_spin_makes_the_bets_yours_again():
    t = seat(table(3), "ann", "bob")
    bet(t, "ann", "red 10")
    t.leave("ann")
    out = t.sit("ann", 1000)
    assert "Your 1 bet still on the layout is yours again." in notes(out, "ann")
    out = t.advance(WINDOW + SPIN + 1)
    assert not notices(out) and not of(out, Settlement)[0].away
    assert "Settlement, spin 1: won 10 (red +10); net +10." in text(t, out)


def test_leaving_without_bets_says_nothing_about_riding():
    t = seat(table(), "ann")
    out = t.leave("ann")
    assert "ride" not in notes(out) and "You leave the table." in notes(out, "ann")


# --- the host's other inputs ---------------------------------------------------------
def test_a_refused_hold_cancels_the_bet_and_its_acceptance_is_never_shown():
    t = seat(table(), "ann")
    out = bet(t, "ann", "red 10")
    (hold,) = of(out, Hold)
    cancelled = t.hold_refused(hold.key, "insufficient funds")
    assert of(cancelled, BetCancelled)
    assert "Wager refused: red 10 is off (insufficient funds)." in text(t, cancelled)
    assert "Bet accepted" not in text(t, out)          # rendered after the refusal: nothing
    assert t.dealer.wheel.bets_of("ann") == []


def test_shutdown_refunds_every_bet_not_yet_spun_and_tells_the_riders():
    t = seat(table(), "ann", "bob")
    bet(t, "ann", "red 10")
    bet(t, "bob", "odd 7")
    t.leave("bob")
    out = t.close("The casino is closing.")
    assert len(of(out, Refund)) == 2 and of(out, WheelClosed)
    assert "Refunded to your wallet: red 10." in text(t, out, "ann")
    assert notices(out) == {"bob": "Your bets at roulette that rode after you left were refunded when the "
                                   "table closed: 7 chips back to your wallet."}
    assert t.dealer.phase() == "closed" and of(bet(t, "ann", "red 5"), BetRefused)


def test_the_spins_settle_names_every_player_with_a_stake_in_it():
    t = seat(table(9), "ann", "bob")
    bet(t, "ann", "red 10")
    bet(t, "bob", "black 10")
    out = t.advance(WINDOW + SPIN + 1)
    (settle,) = of(out, Settle)
    assert settle.pays == (("ann", 20), ("bob", 0))     # the host tells both if it is pending


def test_new_limits_apply_at_once_other_changes_wait_for_a_new_dealer():
    from table_helpers import config
    t = seat(table(), "ann")
    assert t.reconfigure(config(min_bet=5, max_bet=50)) is True
    assert "the table minimum is 5" in text(t, bet(t, "ann", "red 4"))
    assert t.reconfigure(config(la_partage=True)) is False
    assert t.reconfigure(config(bet_window=30)) is False
    assert t.between_hands(False)
    bet(t, "ann", "red 10")
    t.act("ann", ["spin"], 1000)
    assert not t.between_hands(False)                       # the ball is in the air


def test_the_client_seed_is_the_first_seated_players():
    t = seat(table(), "ann", "bob")
    assert t.seeder() == "ann"
    t.leave("ann")
    assert t.seeder() == "bob"


def test_alone_with_riders_bets_the_window_runs_and_spin_still_works():
    t = seat(table(4), "ann", "bob")
    bet(t, "ann", "even 10")
    t.leave("ann")
    bet(t, "bob", "odd 10")
    assert of(t.advance(1), BetsOpen)                  # bounded: ann's bets are not left waiting
    out = t.act("bob", ["spin"], 1000)                 # bob is alone and may spin sooner
    assert of(out, NoMoreBets)
    out = t.advance(SPIN)
    assert {s.player: s.paid for s in of(out, Settlement)} == {"ann": 20, "bob": 0}
    assert set(notices(out)) == {"ann"}


def test_a_spin_that_takes_everything_says_so_without_a_zero_payment():
    t = seat(table(0), "ann")
    bet(t, "ann", "red 10")
    bet(t, "ann", "straight 17 5")
    t.act("ann", ["spin"], 1000)
    out = t.advance(SPIN)
    assert of(out, Settle)[0].pays == (("ann", 0),)
    assert "Settlement, spin 1: lost 15 (red -10, straight 17 -5); net -15." in text(t, out).splitlines()


def test_one_bet_riding_is_said_in_the_singular():
    t = seat(table(), "ann", "bob")
    bet(t, "ann", "red 10")
    out = t.leave("ann")
    assert "Your bet stays on the layout and rides on the next spin" in notes(out, "ann")
    assert "ann left; their 1 bet rides on the next spin." in text(t, out, "bob")


def test_la_partage_on_an_odd_stake_says_what_came_back():
    """Issue 28 item 10: half of 5 rounded down is 2, which is not "half back"."""
    t = seat(table(0, 0, la_partage=True), "ann")
    bet(t, "ann", "red 5")
    t.act("ann", ["spin"], 1000)
    shown = text(t, t.advance(SPIN))
    assert "red -3 (la partage: 2 of 5 back, half rounded down)" in shown and "half back)" not in shown
    bet(t, "ann", "black 10")
    t.act("ann", ["spin"], 1000)
    assert "black -5 (la partage: half back)" in text(t, t.advance(SPIN))

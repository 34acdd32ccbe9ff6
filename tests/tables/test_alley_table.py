"""The alley craps table: seats, starts, waiting, ticks, leaving and the money,
driven without a network. A small ledger model applies every money intent the
way the table host does (a refused Hold goes back to the table at once) and
checks after every input that the house nets nothing and no chip is lost."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from server.config.load import load_config
from server.games.alley import events as ev
from server.games.intents import Hold, Refund, Settle
from server.render.prefs import Prefs
from server.games.seam import Note, Viewer, WalletReport
from support.dice import TableDice
from support.pure_table import PureTable

ROOT = Path(__file__).resolve().parents[2]
HZ = 10
BET, FADE, ROLL, CHOICE = 60 * HZ, 30 * HZ, 30 * HZ, 30 * HZ     # the shipped windows in ticks


class Harness:
    """A table plus a ledger model; every input's intents are applied in order."""

    def __init__(self, *rolls, wallets=None, max_players=6, refuse=()):
        config = load_config(ROOT / "config", ROOT / "rooms").tables["alley_craps"]
        config = dataclasses.replace(config, max_players=max_players)
        self.t = PureTable(config, HZ, TableDice(rolls))
        self.wallets = dict(wallets or {})
        self.stakes: dict[str, tuple[str, int]] = {}
        self.house = 0
        self.refuse = set(refuse)            # players whose next Hold the ledger refuses
        self.log: list = []

    @property
    def money(self) -> int:
        return sum(self.wallets.values()) + sum(a for _, a in self.stakes.values())

    def run(self, events):
        before = self.money
        queue, seen = list(events), []
        while queue:
            e = queue.pop(0)
            seen.append(e)
            if isinstance(e, Hold):
                if e.player in self.refuse or e.amount > self.wallets[e.player]:
                    self.refuse.discard(e.player)
                    queue[:0] = self.t.hold_refused(e.key, "not enough chips")
                    continue
                assert e.key not in self.stakes
                self.wallets[e.player] -= e.amount
                self.stakes[e.key] = (e.player, e.amount)
            elif isinstance(e, Settle):
                held = sum(self.stakes.pop(k)[1] for k in e.stakes)
                for p, a in e.pays:
                    self.wallets[p] += a
                self.house += held - sum(a for _, a in e.pays)
            elif isinstance(e, Refund):
                p, a = self.stakes.pop(e.stake)
                self.wallets[p] += a
        assert self.house == 0
        assert self.money == before
        for p in self.t.seated():                 # every fact renders for every player
            for e in seen:
                self.t.render(e, Viewer(p, Prefs(), seated=True))
        self.log += seen
        return seen

    def sit(self, *players):
        out = []
        for p in players:
            self.wallets.setdefault(p, 1000)
            out += self.run(self.t.sit(p, self.wallets[p]))
        return out

    def act(self, player, *words):
        return self.run(self.t.act(player, list(words), self.wallets[player]))

    def advance(self, ticks):
        return self.run(self.t.advance(ticks))

    def leave(self, player):
        return self.run(self.t.leave(player))

    def held(self, player):
        return sum(a for p, a in self.stakes.values() if p == player)


def of(events, kind):
    return [e for e in events if isinstance(e, kind)]


def said(events, player=None):
    return " | ".join(e.text for e in of(events, Note) if player is None or e.to is None or player in e.to)


def seen_by(table, events, player):
    v = Viewer(player, Prefs(), seated=True)
    return "\n".join(line for e in events for line in table.render(e, v))


def test_a_game_needs_two_seated_and_a_start():
    h = Harness()
    h.sit("ann")
    out = h.act("ann", "start")
    assert "needs at least 2 players" in said(out) and h.t.engine is None
    assert "No game is running" in said(h.act("ann", "bet", "10"))
    h.sit("bob")
    assert h.stakes == {}                                   # sitting holds nothing
    out = h.act("bob", "start")
    assert of(out, ev.GameStarted)[0].players == ("ann", "bob")
    assert [(e.player, e.amount) for e in of(out, Hold)] == [("ann", 100), ("bob", 100)]
    assert h.wallets == {"ann": 900, "bob": 900}
    assert h.t.shooter() == "ann"
    assert "you are the shooter" in seen_by(h.t, out, "ann")
    assert "already running" in said(h.act("ann", "start"))


def test_full_table_starts_by_itself_and_turns_away_more():
    h = Harness(max_players=3)
    h.sit("ann", "bob")
    assert h.t.engine is None
    out = h.sit("cat")
    assert "table is full: the game starts" in said(out) and not of(out, Hold)
    out = h.advance(1)                                   # the next tick starts it
    assert of(out, ev.GameStarted)[0].players == ("ann", "bob", "cat")
    out = h.sit("dan")
    assert "table is full (3 players)" in said(out, "dan") and "dan" not in h.t.seated()


def test_a_full_table_does_not_start_again_by_itself_after_a_game():
    h = Harness((3, 4), max_players=2)
    h.sit("ann", "bob")
    h.advance(1)
    h.act("ann", "bet", "100")
    out = h.act("bob", "fade", "100") + h.act("ann", "roll")
    assert of(out, ev.GameOver) and h.t.engine is None
    assert h.advance(10 * BET) == [] and h.t.engine is None


def test_a_wallet_short_of_the_buy_in_cannot_sit():
    h = Harness(wallets={"ann": 50})
    out = h.sit("ann")
    assert "buy-in here is 100" in said(out, "ann") and h.t.seated() == []


def test_later_arrivals_wait_for_the_next_game():
    h = Harness((3, 4), (6, 5))
    h.sit("ann", "bob")
    h.act("ann", "start")
    out = h.sit("cat")
    assert "you will play in the next one" in said(out, "cat")
    assert h.held("cat") == 0 and h.t.waiting() == ["cat"]
    assert "not in this game" in said(h.act("cat", "fade", "10"))
    h.act("ann", "bet", "100")
    h.act("bob", "fade", "100")                          # cat is never asked
    out = h.act("ann", "roll")                           # 7: ann cleans bob out
    over = of(out, ev.GameOver)[0]
    assert (over.winner, over.pot, over.net, over.reason) == ("ann", 200, 100, ev.GameEnd.CLEANED_HOUSE)
    assert h.wallets == {"ann": 1100, "bob": 900, "cat": 1000}
    assert {r.player for r in of(out, WalletReport)} == {"ann", "bob"}
    assert h.t.dice.rotations == 1 and h.t.engine is None
    assert "AND WE HAVE THE GAME WINNER! Congratulations, ann! You have won the total pot of 200" \
        in seen_by(h.t, out, "ann")
    out = h.act("cat", "start")                          # the next game takes everyone seated
    assert of(out, ev.GameStarted)[0].players == ("ann", "bob", "cat")


def test_bet_window_passes_the_bones():
    h = Harness()
    h.sit("ann", "bob")
    h.act("ann", "start")
    assert h.advance(BET - 1) == []
    out = h.advance(1)
    assert of(out, ev.TimedOut) == [ev.TimedOut("ann", ev.Waiting.BET)]
    assert h.t.shooter() == "bob"
    assert "ann did not set the action in time" in seen_by(h.t, out, "bob")


def test_fade_window_sits_the_opponent_out_and_asks_the_next():
    h = Harness()
    h.sit("ann", "bob", "cat")
    h.act("ann", "start")
    h.act("ann", "bet", "50")
    out = h.advance(FADE)
    assert of(out, ev.TimedOut) == [ev.TimedOut("bob", ev.Waiting.FADE)]
    assert of(out, ev.FadeAsked)[0].player == "cat"
    assert "You have had your turn" in seen_by(h.t, h.act("bob", "fade", "10"), "bob")


def test_roll_window_the_dealer_rolls_and_choice_window_passes():
    h = Harness((4, 4), (2, 2), (6, 2))
    h.sit("ann", "bob")
    h.act("ann", "start")
    h.act("ann", "bet", "30")
    h.act("bob", "fade", "30")
    out = h.advance(ROLL)
    assert of(out, ev.Rolled)[0].by_dealer and of(out, ev.Rolled)[0].total == 8
    assert "The dealer rolls for ann" in seen_by(h.t, out, "bob")
    h.act("ann", "roll")                                 # 4: no decision
    out = h.act("ann", "roll")                           # 8: the point is made
    assert of(out, ev.Balances)[0].bankrolls == (("ann", 130), ("bob", 70))
    assert "Balances: ann 130, bob 70." in seen_by(h.t, out, "bob")
    assert of(out, ev.ChoiceAsked)
    out = h.advance(CHOICE)
    assert of(out, ev.BonesPassed)[0].to_shooter == "bob"


def test_shooter_may_pass_and_typed_amounts_are_checked():
    h = Harness()
    h.sit("ann", "bob")
    h.act("ann", "start")
    assert "Usage: bet <amount>" in said(h.act("ann", "bet"))
    assert "whole number of chips" in said(h.act("ann", "bet", "lots"))
    assert "multiples of 10" in seen_by(h.t, h.act("ann", "bet", "15"), "ann")
    assert "only the shooter" in seen_by(h.t, h.act("bob", "bet", "10"), "bob").lower()
    out = h.act("ann", "pass")
    assert of(out, ev.BonesPassed)[0].reason is ev.PassReason.CHOSE and h.t.shooter() == "bob"


def test_player_who_drops_mid_pass_is_settled_with_it_and_paid():
    h = Harness((4, 5), (6, 3))
    h.sit("ann", "bob", "cat")
    h.act("ann", "start")
    h.act("ann", "bet", "60")
    h.act("bob", "fade", "40")
    h.act("cat", "fade", "20")
    h.act("ann", "roll")                                 # point 9
    out = h.run(h.t.disconnect("bob"))
    assert of(out, ev.PlayerLeft) == [ev.PlayerLeft("bob", 40)]
    assert "bob" not in h.t.seated() and h.held("bob") == 100 and h.wallets["bob"] == 900
    out = h.act("ann", "roll")                           # 9: ann wins 60
    assert of(out, ev.PaidOut) == [ev.PaidOut("bob", 60)]
    assert WalletReport("bob") in out and "60 chips" in said(out, "bob")
    assert h.wallets["bob"] == 960 and h.held("bob") == 0
    assert h.held("ann") + h.held("cat") == 240            # the stayers were held again
    assert h.t.engine is not None                        # ann and cat play on


def test_leaving_with_nothing_in_play_pays_at_once_and_last_standing_wins():
    h = Harness((5, 6))
    h.sit("ann", "bob")
    h.act("ann", "start")
    h.act("ann", "bet", "20")
    h.act("bob", "fade", "20")
    h.act("ann", "roll")                                 # 11: ann 120, bob 80
    out = h.leave("bob")
    assert "You leave the game" in said(out, "bob")
    over = of(out, ev.GameOver)[0]
    assert (over.winner, over.pot, over.reason) == ("ann", 120, ev.GameEnd.LAST_STANDING)
    assert h.wallets == {"ann": 1020, "bob": 980} and h.stakes == {}
    assert "You have won the total pot of 120" in seen_by(h.t, out, "ann")


def test_shutdown_returns_every_bankroll_mid_pass():
    h = Harness((4, 4))
    h.sit("ann", "bob")
    h.act("ann", "start")
    h.act("ann", "bet", "50")
    h.act("bob", "fade", "50")
    h.act("ann", "roll")                                 # point 8: the pass is in play
    out = h.run(h.t.close("The casino is closing."))
    assert of(out, ev.GameClosed) and h.stakes == {}
    assert h.wallets == {"ann": 1000, "bob": 1000}
    assert {r.player for r in of(out, WalletReport)} == {"ann", "bob"}
    assert h.t.engine is None and h.run(h.t.close("again")) == []


def test_a_refused_buy_in_leaves_that_player_out_and_the_game_is_called_off():
    h = Harness(refuse={"bob"})
    h.sit("ann", "bob")
    out = h.act("ann", "start")
    assert of(out, ev.BuyInRefused) == [ev.BuyInRefused("bob")]
    assert "could not hold your chips" in said(out, "bob")
    out = h.advance(1)                                   # the consequence comes with the next input
    assert of(out, ev.GameOver)[0].reason is ev.GameEnd.CANCELLED
    assert h.wallets == {"ann": 1000, "bob": 1000} and h.t.seated() == ["ann", "bob"]


def test_a_whole_game_by_ticks_ends_with_one_player_holding_everything():
    rolls = [(3, 4), (1, 1), (6, 5), (2, 1), (4, 3)] * 10
    h = Harness(*rolls)
    h.sit("ann", "bob", "cat")
    h.act("cat", "start")
    for _ in range(200):
        e = h.t.engine
        if e is None:
            break
        v = e.view()
        if v.phase.value in ("betting", "choosing") and v.action == 0:
            out = h.act(v.shooter, "bet", str(e.bankrolls[v.shooter]))
        elif v.phase.value == "fading":
            out = h.act(v.waiting_for, "fade", str(min(e.bankrolls[v.waiting_for], v.action - sum(dict(v.fades).values()))))
        elif v.phase.value == "rolling":
            out = h.act(v.shooter, "roll")
        else:
            out = h.advance(1)
        assert out
    over = of(h.log, ev.GameOver)[0]
    assert over.reason is ev.GameEnd.CLEANED_HOUSE and over.pot == 300
    assert h.wallets[over.winner] == 1200 and h.stakes == {}
    assert sorted(h.wallets.values()) == [900, 900, 1200]
    assert of(h.log, ev.Balances) and h.t.dice.rotations == 1


def test_table_view_and_rules():
    h = Harness((4, 4))
    h.sit("ann", "bob", "cat")
    v = Viewer("ann", Prefs(), seated=True)
    assert "No game is running" in "\n".join(h.t.view(v))
    h.act("ann", "start")
    h.act("ann", "bet", "50")
    h.act("bob", "fade", "30")
    h.act("cat", "fade", "20")
    h.act("ann", "roll")
    h.sit("dan")
    text = "\n".join(h.t.view(v))
    assert "Shooter: ann" in text and "covered 50 (bob 30, cat 20)" in text and "Point: 8" in text
    assert "Waiting for ann to roll (30 s left)" in text and "Waiting for the next game: dan" in text
    assert all(len(line) <= 80 for line in h.t.view(v))
    rules = "\n".join(h.t.rules())
    assert "NO MORE BETS" in rules and "held from your wallet by the ledger" in rules


def test_a_shooter_who_leaves_before_the_roll_calls_the_pass_off():
    h = Harness()
    h.sit("ann", "bob", "cat")
    h.act("ann", "start")
    h.act("ann", "bet", "40")
    h.act("bob", "fade", "20")                           # cat is still being asked
    out = h.leave("ann")
    assert of(out, ev.PlayerLeft) == [ev.PlayerLeft("ann", 0)]
    assert h.wallets["ann"] == 1000 and h.t.shooter() == "bob"
    assert "called off" in seen_by(h.t, out, "bob")


def test_a_leaver_who_sits_again_waits_and_is_told_once_when_paid():
    h = Harness((2, 2), (3, 4))
    h.sit("ann", "bob", "cat")
    h.act("ann", "start")
    h.act("ann", "bet", "30")
    h.act("bob", "fade", "30")
    h.act("ann", "roll")                                 # point 4
    h.leave("bob")
    h.sit("bob")
    assert h.t.waiting() == ["bob"] and "not in this game" in said(h.act("bob", "roll"))
    out = h.act("ann", "roll")                           # seven out: bob's fade wins
    assert of(out, ev.PaidOut) == [ev.PaidOut("bob", 130)]
    assert out.count(WalletReport("bob")) == 1 and h.wallets["bob"] == 1030
    assert h.leave("bob") and "bob" not in h.t.seated()   # leaving while waiting is just leaving


def test_watchers_see_the_balances_and_dice_follow_the_viewers_prefs():
    h = Harness((1, 2))
    h.sit("ann", "bob")
    h.act("ann", "start")
    h.act("ann", "bet", "10")
    out = h.act("bob", "fade", "10") + h.act("ann", "roll")
    watcher = Viewer("zed", Prefs(), seated=False)
    plain = "\n".join(line for e in out for line in h.t.render(e, watcher))
    assert "[1][2] 1 + 2 = 3: craps!" in plain and "Balances: ann 90, bob 110." in plain
    assert "+-------+" in plain and "\x1b[" not in plain
    fancy = Viewer("zed", Prefs(color=True, unicode=True), seated=False)
    text = "\n".join(line for e in out for line in h.t.render(e, fancy))
    assert "\u2680 \u2681" in text and "┌───────┐" in text and "\x1b[" in text


def test_a_shooter_who_drops_once_covered_has_the_dealer_roll_it_out():
    h = Harness((4, 4), (6, 1))
    h.sit("ann", "bob", "cat")
    h.act("ann", "start")
    h.act("ann", "bet", "40")
    h.act("bob", "fade", "40")
    out = h.run(h.t.disconnect("ann"))
    assert of(out, ev.PlayerLeft) == [ev.PlayerLeft("ann", 40)]
    assert [r.by_dealer for r in of(out, ev.Rolled)] == [True, True]     # point 8, then seven out
    assert of(out, ev.PaidOut) == [ev.PaidOut("ann", 60)] and h.wallets["ann"] == 960
    assert h.t.shooter() == "bob" and h.t.engine is not None

"""The Pig table: seats, `start`, deadlines, the computer's pace, leaving, stakes.

Driven by ticks with fixed dice, no network. The staked games run through a
real Table and a real ledger file (with a minimal app object), so antes,
a refused ante, the pot and shutdown refunds are checked against the ledger's
own invariants.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from server.config.load import load_config
from server.games.intents import Hold, Refund, Settle
from server.games.pig import events as ev
from server.render.prefs import Prefs
from server.games.seam import HandResult, Note, Viewer, WalletReport
from server.games.pig.dealer import PigDealer
from support.dice import TableDice
from support.pure_table import PureTable

ROOT = Path(__file__).resolve().parents[2]
HZ = 10
DEADLINE, PACE = 60 * HZ, 1 * HZ


def config(**options):
    cfg = load_config(ROOT / "config", ROOT / "rooms").tables["pig"]
    return dataclasses.replace(cfg, options=dataclasses.replace(cfg.options, **options))


def table(*rolls, **options) -> PigDealer:
    t = PureTable(config(**options), HZ, TableDice(rolls))
    return t


def seat(t: PigDealer, *players: str) -> PigDealer:
    for p in players:
        t.sit(p, 1000)
    return t


def kinds(events, kind):
    return [e for e in events if isinstance(e, kind)]


def notes(events, player=None):
    return " | ".join(e.text for e in kinds(events, Note)
                      if player is None or e.to is None or player in e.to)


def text(t: PigDealer, events, who="ann") -> str:
    viewer = Viewer(who, Prefs(), seated=who in t.seated())
    return "\n".join(line for e in events for line in t.render(e, viewer))


# --- start rules -------------------------------------------------------------
def test_one_player_starts_against_the_computer_and_goes_first():
    t = seat(table(), "ann")
    out = t.act("ann", ["start"], 1000)
    started = kinds(out, ev.GameStarted)
    assert started == [ev.GameStarted(("ann", "computer"), 100, 0, 0, True)]
    assert not kinds(out, Hold)                     # no stake against the computer
    assert kinds(out, ev.TurnStarted)[0].player == "ann"
    assert t.phase() == "playing" and t.seeder() == "ann"
    assert "Welcome to the game of Pig. First to 100 wins." in text(t, out)


def test_two_to_six_players_play_each_other_in_seat_order():
    t = seat(table(), "ann", "bob", "cat", "dan", "eve", "fay")
    assert "full (6 players)" in notes(t.sit("gus", 1000), "gus")
    out = t.act("cat", ["start"], 1000)
    assert kinds(out, ev.GameStarted)[0].players == ("ann", "bob", "cat", "dan", "eve", "fay")
    assert not kinds(out, ev.GameStarted)[0].vs_computer
    assert "already under way" in notes(t.act("bob", ["start"], 1000), "bob")
    assert "It is ann's turn." in text(t, t.act("bob", ["roll"], 1000), "bob")


def test_nobody_seated_cannot_start_and_a_seat_is_needed_to_play():
    t = table()
    assert "Sit down first" in notes(t.act("ann", ["start"], 1000))
    assert t.game is None and t.phase() == "waiting" and t.seeder() is None
    t = seat(table(), "computer")
    assert "Cannot start: the name 'computer' is taken" in notes(t.act("computer", ["start"], 1000))
    t = seat(table(), "ann")
    assert "No game is running: type 'start'." in notes(t.act("ann", ["roll"], 1000))


# --- time ------------------------------------------------------------------------
def test_a_player_who_idles_past_the_deadline_holds_and_each_roll_restarts_the_clock():
    t = seat(table((3, 4), (2, 2)), "ann", "bob")
    t.act("ann", ["start"], 1000)
    assert t.advance(DEADLINE - 5) == []
    t.act("ann", ["roll"], 1000)                    # the clock starts again
    assert t.advance(DEADLINE - 1) == []
    out = t.advance(1)
    assert kinds(out, ev.TurnEnded) == [ev.TurnEnded("ann", 7, 7, ev.TurnEnd.TIMEOUT)]
    assert kinds(out, ev.TurnStarted)[0].player == "bob"
    assert "Time is up: you hold." in text(t, out, "ann")
    assert "Time is up: ann holds." in text(t, out, "bob")
    out = t.advance(DEADLINE)                       # bob idles too: he banks nothing
    assert kinds(out, ev.TurnEnded) == [ev.TurnEnded("bob", 0, 0, ev.TurnEnd.TIMEOUT)]


def test_the_computer_rolls_at_its_pace_and_holds_at_19():
    t = seat(table((5, 5), (6, 6), (3, 3), (4, 4)), "ann")
    t.act("ann", ["start"], 1000)
    out = t.act("ann", ["hold"], 1000)              # ann banks nothing; the computer is up
    assert kinds(out, ev.TurnStarted)[-1] == ev.TurnStarted("computer", 0, 2, True)
    assert t.seeder() == "ann"                     # the human keeps the client seed
    assert t.advance(PACE - 1) == []
    out = t.advance(1)
    assert [e.dice for e in kinds(out, ev.Rolled)] == [(5, 5)]
    out = t.advance(PACE)
    assert [e.round_score for e in kinds(out, ev.Rolled)] == [22]
    assert kinds(out, ev.TurnEnded) == [ev.TurnEnded("computer", 22, 22, ev.TurnEnd.HOLD)]
    lines = text(t, out)
    assert "6, 6 Current Round Score: 22" in lines and "computer: 22" in lines
    assert "Your turn: 'roll' or 'hold'" in lines


def test_a_computer_win_names_it_and_counts_rounds_then_rotates_and_reports_wallets():
    t = seat(table((6, 6), (6, 5), target=20), "ann")
    t.act("ann", ["start"], 1000)
    t.act("ann", ["hold"], 1000)
    out = t.advance(2 * PACE)
    over = kinds(out, ev.GameOver)
    assert over == [ev.GameOver("computer", 23, 2, 0, ev.GameEnd.TARGET)]
    assert kinds(out, WalletReport) == [WalletReport("ann")]
    assert dict(kinds(out, HandResult)[0].fields) == {"game": 1, "winner": "computer", "reason": "target",
                                                      "rounds": 2, "pot": 0}
    assert t.dice.rotations == 1 and t.phase() == "waiting"
    assert "computer wins!" in text(t, out) and "2 rounds" in text(t, out)
    assert "Last game: computer won with 23, 2 rounds." in "\n".join(t.view(Viewer("ann", Prefs(), True)))


# --- leaving and late arrivals ---------------------------------------------------
def test_leavers_are_out_and_the_last_one_left_wins():
    t = seat(table((2, 3)), "ann", "bob", "cat", "eve")
    t.act("ann", ["start"], 1000)
    out = t.leave("bob")                            # not on turn: the game goes on
    assert kinds(out, ev.PlayerLeft) == [ev.PlayerLeft("bob")]
    assert "out of the game" in notes(out, "bob") and t.seated() == ["ann", "cat", "eve"]
    assert "bob has left the game." in text(t, out, "cat")
    out = t.leave("ann")                            # on turn: the turn moves to cat
    assert kinds(out, ev.TurnStarted)[0].player == "cat"
    out = t.act("cat", ["roll"], 1000)
    assert not kinds(out, ev.GameOver) and t.game.round_score == 5
    t.sit("dan", 1000)
    out = t.disconnect("dan")                       # not in this game: just gone
    assert not kinds(out, ev.PlayerLeft) and "dan has gone" in notes(out)
    t.sit("ann", 1000)                              # back, but waits for the next game
    assert "next game" in notes(t.act("ann", ["roll"], 1000), "ann")
    out = t.leave("eve")                            # one player left: cat wins
    assert kinds(out, ev.GameOver) == [ev.GameOver("cat", 0, 2, 0, ev.GameEnd.WALKOVER)]
    assert kinds(out, WalletReport) == [WalletReport("cat")]
    assert t.phase() == "waiting" and t.dice.rotations == 1


def test_a_disconnect_is_a_leave_and_one_left_wins_by_walkover():
    t = seat(table(), "ann", "bob")
    t.act("ann", ["start"], 1000)
    out = t.disconnect("ann")
    assert kinds(out, ev.GameOver) == [ev.GameOver("bob", 0, 1, 0, ev.GameEnd.WALKOVER)]
    assert kinds(out, WalletReport) == [WalletReport("bob")]
    assert "bob wins! Everyone else has left the game." in text(t, out, "bob")
    assert t.dice.rotations == 1 and t.seated() == ["bob"]


def test_leaving_a_game_against_the_computer_ends_it():
    t = seat(table(), "ann")
    t.act("ann", ["start"], 1000)
    out = t.leave("ann")
    assert kinds(out, ev.GameOver)[0].reason is ev.GameEnd.ABANDONED
    assert t.phase() == "waiting" and t.seated() == []
    assert t.advance(10 * DEADLINE) == []


def test_a_player_who_sits_during_a_game_plays_in_the_next_one():
    t = seat(table((6, 6), (6, 6), target=20), "ann")
    t.act("ann", ["start"], 1000)
    assert "you play in the next one" in notes(t.sit("bob", 1000), "bob")
    assert "next game" in notes(t.act("bob", ["hold"], 1000), "bob")
    view = "\n".join(t.view(Viewer("bob", Prefs(), True)))
    assert "Waiting for the next game: bob." in view and "> ann" in view
    t.act("ann", ["roll"], 1000)
    t.act("ann", ["roll"], 1000)
    out = t.act("ann", ["hold"], 1000)
    assert kinds(out, ev.GameOver)[0].winner == "ann"
    assert kinds(out, WalletReport) == [WalletReport("ann")]     # bob did not play
    assert "ann is ready" in notes(t.act("ann", ["ready"], 1000))  # after a game, everyone confirms
    out = t.act("bob", ["start"], 1000)
    assert kinds(out, ev.GameStarted)[0].players == ("ann", "bob")


# --- stakes through the real host and ledger ---------------------------------------
class Session:
    def __init__(self, key):
        self.key, self.name, self.prefs, self.closed, self.lines = key, key, Prefs(), False, []

    def tell(self, *lines):
        self.lines.extend(lines)


class App:
    """What a Table needs of the casino: ledger, online sessions, the clock."""

    def __init__(self, ledger, players):
        from server.tables.manager import Manager
        self.ledger, self.run_id, self.seed = ledger, "test", None
        self.manager = Manager(HZ)
        self.online = {p: Session(p) for p in players}
        self.table_time = Clocked()


class Clocked:
    """The table-time store: each seat's end, as (player, table, millis)."""

    def __init__(self):
        self.added = []
        self.rounds = []

    async def add(self, player, table, millis):
        self.added.append((player, table, millis))

    async def add_round(self, player, table):
        self.rounds.append((player, table))


async def staked_host(tmp_path, rolls, chips):
    from server.ledger import Ledger
    from server.tables.table import Table
    ledger = await Ledger.open(tmp_path / "pig.db")
    for player, amount in chips.items():
        await ledger.mint(f"start:{player}", player, amount, "starting chips")
    app = App(ledger, chips)
    host = Table(app, config(stake=50, target=20))
    host.dice = TableDice(rolls)
    host.install(host.dealer.config)
    for player in chips:
        await host.run(lambda p=player: host.sit(app.online[p], chips[p]))
    return app, host


async def do(host, player, word):
    await host.run(lambda: host.apply(host.dealer.act(player, [word], 0)))


async def wallets(app, *players):
    return {p: (await app.ledger.balance(p)).wallet for p in players}


async def test_a_staked_game_among_three_antes_refuses_a_short_wallet_and_pays_the_pot(tmp_path):
    from server.ledger import check
    chips = {"ann": 1000, "bob": 1000, "cat": 1000, "dan": 30}
    app, host = await staked_host(tmp_path, [(6, 5), (1, 3), (6, 6)], chips)
    await do(host, "bob", "start")
    assert await wallets(app, *chips) == {"ann": 950, "bob": 950, "cat": 950, "dan": 30}
    assert "Your ante of 50 chips could not be held" in "\n".join(app.online["dan"].lines)
    assert "dan's ante could not be held" in "\n".join(app.online["ann"].lines)
    await do(host, "ann", "roll")                   # 11; dan is dropped with this input
    assert host.dealer.game.players == ("ann", "bob", "cat") and host.dealer.game.pot == 150
    await do(host, "ann", "hold")
    await do(host, "bob", "roll")                   # a one: bob's turn is over
    await do(host, "cat", "hold")
    await do(host, "ann", "roll")                   # 12 more: 23 on a hold wins
    await do(host, "ann", "hold")
    assert await wallets(app, *chips) == {"ann": 1100, "bob": 950, "cat": 950, "dan": 30}
    said = "\n".join(app.online["ann"].lines)
    assert "ann wins!" in said and "ann takes the pot of 150 chips." in said and "4 rounds" in said
    assert "Wallet: 1100 chips." in said and "Wallet: 950 chips." in "\n".join(app.online["cat"].lines)
    assert "Wallet:" not in "\n".join(app.online["dan"].lines)      # dan was out from the start
    assert (await app.ledger.balance("ann")).held == {}
    await app.ledger.close()
    report = check(tmp_path / "pig.db")
    assert report.ok and report.open_holds == 0, report


async def test_a_leaver_forfeits_to_the_pot_and_shutdown_refunds_the_rest(tmp_path):
    from server.ledger import check
    chips = {"ann": 1000, "bob": 1000, "cat": 1000}
    app, host = await staked_host(tmp_path, [], chips)
    await do(host, "ann", "start")
    await host.run(lambda: host.leave("cat"))
    assert await wallets(app, *chips) == {"ann": 950, "bob": 950, "cat": 950}
    await host.close("The casino is closing.")
    # Every ante comes back, the leaver's too: nobody won the pot.
    assert await wallets(app, *chips) == {"ann": 1000, "bob": 1000, "cat": 1000}
    assert "every ante is refunded" in "\n".join(app.online["bob"].lines)
    await app.ledger.close()
    report = check(tmp_path / "pig.db")
    assert report.ok and report.open_holds == 0, report


async def test_an_ante_refused_with_too_few_left_calls_the_game_off(tmp_path):
    from server.ledger import check
    chips = {"ann": 1000, "bob": 10}
    app, host = await staked_host(tmp_path, [], chips)
    await do(host, "ann", "start")
    assert (await app.ledger.balance("ann")).held == {"pig": 50}
    app.manager.subscribe(host)
    app.manager.tick_elapsed(1)                     # the next input acts on the refusal
    await host.idle()
    assert await wallets(app, *chips) == {"ann": 1000, "bob": 10}
    assert "The game is called off" in "\n".join(app.online["ann"].lines)
    assert host.dealer.phase() == "waiting"
    await host.close("bye")
    await app.ledger.close()
    assert check(tmp_path / "pig.db").ok


def test_reload_applies_from_the_next_game_and_a_removed_table_waits_for_no_game():
    t = seat(table(), "ann")
    t.act("ann", ["start"], 1000)
    assert not t.between_hands(False)
    assert not t.reconfigure(load_config(ROOT / "config", ROOT / "rooms").tables["bank_craps"])
    assert t.reconfigure(config(target=50, turn_deadline=30))
    assert t.game.options.target == 100                     # the game in play keeps its rules
    view = "\n".join(t.view(Viewer("ann", Prefs(), True)))
    assert "This game plays to 100; new settings apply from the next game." in view
    t.leave("ann")
    assert t.between_hands(False)
    t.sit("ann", 1000)
    out = t.act("ann", ["start"], 1000)
    assert kinds(out, ev.GameStarted)[0].target == 50
    assert "After 30 s without a move you hold." in text(t, out)


def test_close_refunds_every_ante_and_the_table_rules_mention_the_stake():
    t = seat(table(stake=25), "ann", "bob", "cat")
    out = t.act("ann", ["start"], 1000)
    holds = kinds(out, Hold)
    assert [(h.player, h.amount) for h in holds] == [("ann", 25), ("bob", 25), ("cat", 25)]
    out = t.close("The casino is closing.")
    assert sorted(r.stake for r in kinds(out, Refund)) == sorted(h.key for h in holds)
    assert not kinds(out, Settle) and kinds(out, ev.GameClosed)
    assert "The game of Pig is stopped; every ante is refunded." in text(t, out)
    assert t.close("again") == []
    assert any("each player antes 25 chips" in line for line in t.rules())
    t = seat(table(), "ann")                        # against the computer: nothing to refund
    t.act("ann", ["start"], 1000)
    out = t.close("The casino is closing.")
    assert not kinds(out, Refund) and "The game of Pig is stopped." in text(t, out)

"""The alley craps table: seats, game starts and the pure engine behind them.

Seating policy (docs/play-alley-craps.md "Seats and starting a game", issue 6):
- `play alley` takes a seat (up to max_players) if the wallet covers the
  buy-in; nothing is held yet. A game starts when someone seated types `start`
  with at least min_players seated, or by itself on the tick after an arrival
  fills the table (from advance, not sit: a sit's answer may not be applied in
  full, e.g. when a reload re-seats everyone at a fresh table). The
  engine holds every buy-in through the ledger in start(); a refused buy-in
  leaves that player out of the game (still seated, for the next one).
- Who sits down while a game runs waits for the next game.
- `leave` and a dropped connection are the same: the player is out of the game
  at once; the engine keeps their live fade in the pass in play and pays their
  bankroll back when that pass ends (at once if none is in play).
- Shutdown calls a pass in play off and returns every table bankroll.
- After each game: every player still seated is told their wallet, and the
  dice rotate (reveal and re-commit).

The engine (server.games.alley) decides everything about the game and its
money; this adapter declares the words (ACTIONS, at the bottom), keeps the
seats, adds the wallet reports and hands the view (server.games.alley.view) a
frozen AlleySnapshot of the table, never itself.
"""
from __future__ import annotations

import re
from typing import Sequence

from server.config.model import GameOptions, TableConfig
from server.dice.source import TableDraws
from server.games.alley.options import AlleyOptions
from server.games.alley import events as ev
from server.games.alley.game import AlleyGame
from server.games.alley.snapshot import AlleySnapshot
from server.games.alley.state import Phase, start_problem
from server.games.alley import view as render
from server.games.actions import Action, Actions, Move
from server.games.seam import AnyDealer, Dealer, Event, Note, WalletReport
from server.games.seating import Seating


_AMOUNT = re.compile(r"\d{1,9}")
_BET_USAGE = "Usage: bet <amount>, e.g. bet 20"
_FADE_USAGE = "Usage: fade <amount> to take part of the action, or 'fade' to decline"


def _amount(rest: Sequence[str], usage: str) -> int | str:
    """The one amount typed after the verb, or a one-line usage reason."""
    if len(rest) != 1:
        return usage
    if not _AMOUNT.fullmatch(rest[0]):
        return f"The amount must be a whole number of chips. {usage}."
    return int(rest[0])


def parse_bet(rest: Sequence[str]) -> ev.Bet | str:
    """`bet 60` -> Bet(60), or the reason it is not a bet. A reason is told
    only once the table knows the player is in the game (see _play)."""
    amount = _amount(rest, _BET_USAGE)
    return amount if isinstance(amount, str) else ev.Bet(amount)


def parse_fade(rest: Sequence[str]) -> ev.Fade | str:
    """`fade 20` -> Fade(20); `fade` alone declines (Fade(0))."""
    if not rest:
        return ev.Fade(0)
    amount = _amount(rest, _FADE_USAGE)
    return amount if isinstance(amount, str) else ev.Fade(amount)


class AlleyDealer(Dealer[AlleySnapshot]):
    config: TableConfig[AlleyOptions]

    def __init__(self, config: TableConfig[AlleyOptions], tick_hz: int, dice: TableDraws,
                 seating: Seating) -> None:
        super().__init__(config, tick_hz, dice, seating, ACTIONS, render.VIEWS)   # seat order: order of play
        self.options = config.options
        self.engine: AlleyGame | None = None    # the game running, if any
        self.in_game: tuple[str, ...] = ()      # who the current (or last) game started with
        self.games = 0                          # game counter: keeps money keys unique
        self.last_result: ev.GameOver | ev.GameClosed | None = None
        self.last_dice: tuple[int, int] | None = None
        self._full = False                      # an arrival filled the table: start on the next tick

    # --- who is who -------------------------------------------------------------
    @property
    def seats(self) -> list[str]:
        return self.seating.names()

    def playing(self) -> tuple[str, ...]:
        """Seated players in the running game (not waiting, not out)."""
        return self.engine.players if self.engine is not None else ()

    def waiting(self) -> list[str]:
        """Seated players who will play in the next game."""
        playing = set(self.playing())
        return [p for p in self.seats if p not in playing]

    # has_live_bets: never (the base's False): a leaver is out at once, and
    # the engine plays their fade out.

    def shooter(self) -> str | None:
        return self.engine.shooter if self.engine is not None else None

    def roles(self) -> dict[str, str]:
        shooter = self.shooter()
        return {shooter: "has the dice"} if shooter else {}

    def seeder(self) -> str | None:
        return self.shooter()

    def between_hands(self, at_rest: bool) -> bool:
        """No pass in play: a removed table may close now, returning every
        player's table bankroll."""
        return self.engine is None or self.engine.phase not in (Phase.FADING, Phase.ROLLING)

    def phase(self) -> str:
        if self.engine is None:
            return f"waiting for players ({len(self.seats)} seated)"
        return self.engine.phase.value

    # --- seating ----------------------------------------------------------------
    def sit_problem(self, player: str, wallet: int) -> str | None:
        if wallet < self.options.buy_in:
            return f"The buy-in here is {self.options.buy_in} chips and your wallet has {wallet}."
        return None

    def seated(self, player: str, back: bool) -> list[Event]:
        o, most = self.options, self.config.max_players
        events: list[Event] = [
            Note(None, f"{player} sits down at the alley craps table."),
            Note((player,), f"Welcome to {self.config.id}: {max(2, o.min_players)} to {most} players "
                            f"bet against each other, the house takes nothing. The buy-in is {o.buy_in} "
                            "chips: the ledger holds it from your wallet when the game starts, and "
                            "your table bankroll comes back to your wallet when you leave or the "
                            "game ends. 'table rules' explains the game.")]
        if self.engine is not None:
            return events + [Note((player,), "A game is in progress: you will play in the next one. "
                                             "'table' shows how it stands.")]
        if len(self.seats) >= most:
            self._full = True       # started by the next tick, so its Holds go through the table
            return events + [Note(None, "The table is full: the game starts.")]
        return events + [self._start_hint()]

    def _start_hint(self, to: tuple[str, ...] | None = None) -> Note:
        """Who is seated and how a game starts: news for the table when a seat
        or a game changes (`to` None), a reminder for one player when their
        command was refused (issue 38 item 2: a refusal is said to the one who
        typed it only)."""
        least = max(2, self.options.min_players)
        names = ", ".join(self.seats) or "nobody"
        if len(self.seats) < least:
            return Note(to, f"Seated: {names}. A game needs at least {least} players.")
        return Note(to, f"Seated: {names}. Anyone seated can type 'start' to begin.")

    def unseated(self, player: str, how: str) -> list[Event]:
        """Leaving and a dropped connection are the same: out of the game at
        once; the engine plays out a live fade fairly."""
        if player not in self.playing():
            return []
        assert self.engine is not None
        events = self.engine.leave(player)
        left = next((e for e in events if isinstance(e, ev.PlayerLeft)), None)
        if left is not None and left.at_risk:
            told = Note((player,), f"You leave the game. Your {left.at_risk} in the pass in play stays "
                                   "in it; your table bankroll comes back to your wallet when that pass "
                                   "is decided.")
        else:
            told = Note((player,), "You leave the game.")
        return [told, *self._after(events)]

    # --- commands ---------------------------------------------------------------
    def _bet(self, move: Move) -> list[Event]:
        return self._play(move.player, parse_bet(move.args))

    def _fade(self, move: Move) -> list[Event]:
        return self._play(move.player, parse_fade(move.args))

    def _roll(self, move: Move) -> list[Event]:
        return self._play(move.player, ev.Roll())

    def _pass(self, move: Move) -> list[Event]:
        return self._play(move.player, ev.PassDice())

    def _play(self, player: str, command: ev.Action | str) -> list[Event]:
        """bet, fade, roll, pass: the engine's command, once the player is in the
        running game (a typing mistake is told after that, as before)."""
        if self.engine is None:
            return [Note((player,), "No game is running."), self._start_hint((player,))]
        if player not in self.playing():
            return [Note((player,), "You are not in this game: you will play in the next one.")]
        if isinstance(command, str):
            return [Note((player,), command)]
        return self._after(self.engine.act(player, command))

    def _start_command(self, move: Move) -> list[Event]:
        player = move.player
        if self.engine is not None:
            where = "you are playing in it" if player in self.playing() else "you will play in the next one"
            return [Note((player,), f"A game is already running: {where}.")]
        problem = start_problem(self.seats, self.options, self.config.max_players)
        if problem:
            return [Note((player,), f"Cannot start: {problem} ({len(self.seats)} seated).")]
        return [Note(None, f"{player} starts the game.")] + self._start()

    def _start(self) -> list[Event]:
        self._full = False
        self.games += 1
        self.in_game = tuple(self.seats)
        self.last_result, self.last_dice = None, None
        self.engine = AlleyGame(self.in_game, self.options, self.dice, self.tick_hz,
                                max_players=self.config.max_players,
                                game_id=f"{self.config.id}:g{self.games}")
        return self._after(self.engine.start())

    # --- time and the table's other inputs ---------------------------------------
    def advance(self, ticks: int) -> list[Event]:
        if self.engine is None:
            full, self._full = self._full, False
            if full and not start_problem(self.seats, self.options, self.config.max_players):
                return self._start()
            return []
        return self._after(self.engine.advance(ticks))

    def hold_refused(self, key: str, reason: str) -> list[Event]:
        if self.engine is None:
            return []
        facts = self.engine.hold_refused(key)
        told = [Note((f.player,), f"The cashier could not hold your chips ({reason}): you are out of "
                                  "this game and your chips are in your wallet.")
                for f in facts if isinstance(f, ev.BuyInRefused)]
        return [*told, *facts]

    def close(self, why: str) -> list[Event]:
        if self.engine is None:
            return []
        return self._after(self.engine.close(why))


    # --- after every engine answer ----------------------------------------------
    def _after(self, events: Sequence[Event]) -> list[Event]:
        """Add what the table adds to the engine's events: wallet reports, the
        end of a game (rotate the dice, free the table for the next start)."""
        out: list[Event] = []
        for e in events:
            out.append(e)
            if isinstance(e, ev.Rolled):
                self.last_dice = e.dice
            elif isinstance(e, ev.PaidOut) and e.player not in self.playing():
                out += [Note((e.player,), f"Your {e.amount} chips from the alley craps game are back "
                                          "in your wallet."), WalletReport(e.player)]
            elif isinstance(e, (ev.GameOver, ev.GameClosed)):
                out += self._game_done(e)
        return out

    def _game_done(self, result: ev.GameOver | ev.GameClosed) -> list[Event]:
        reports: list[Event] = [WalletReport(p) for p in self.playing()]   # leavers were told when paid
        self.engine, self.last_result = None, result
        if isinstance(result, ev.GameClosed):
            return reports
        self.dice.rotate()
        return [*reports, self._start_hint()]

    # --- what people see ----------------------------------------------------------
    def snapshot(self) -> AlleySnapshot:
        """The table as the view reads it, frozen: built per render call."""
        engine = self.engine
        return AlleySnapshot(
            table_id=self.config.id, max_players=self.config.max_players, options=self.options,
            commands=ACTIONS.reminder("table", "table rules", "leave"), tick_hz=self.tick_hz, seats=tuple(self.seats), playing=self.playing(),
            waiting=tuple(self.waiting()), games=self.games,
            game=engine.view() if engine is not None else None,
            last_result=self.last_result, last_dice=self.last_dice)


def make(config: TableConfig[GameOptions], tick_hz: int, dice: TableDraws, seating: Seating) -> AnyDealer:
    """The catalogue's MakeDealer: an alley craps dealer for a `game: alley_craps` table."""
    return AlleyDealer(config.narrowed(AlleyOptions), tick_hz, dice, seating)


# No row sets `needs` or `phases`: a bare `bet`, or any word with no game
# running or from a player waiting for the next game, is answered by _play in
# the order players have always been told (no game, not in it, then usage).
ACTIONS = Actions[AlleyDealer]("Alley craps", (
    Action("start", "start", "start a game of alley craps with everyone seated (at least 2).",
           AlleyDealer._start_command, opens=True),
    Action("bet", "bet <amount>", "as the shooter, set the action (after a pass: shoot another pass "
           "for that much).", AlleyDealer._bet, opens=True),
    Action("fade", "fade <amount>", "take that much of the shooter's action when asked; 'fade' alone "
           "declines.", AlleyDealer._fade),
    Action("roll", "roll", "as the shooter, roll the dice; after a pass, shoot another pass.",
           AlleyDealer._roll),
    Action("pass", "pass", "as the shooter, pass the bones to the next player (after a pass, or "
           "instead of betting).", AlleyDealer._pass),
))

"""Pig at its table: seats, `start`, and the pure engine (server.games.pig) wired to the table.

Seating policy (docs/play-pig.md, tracker issue 7):
- anyone may sit while there is a free seat (`max_players`); people who sit
  during a game wait for the next one;
- a seated player is in the next game only when ready: sitting down while no
  game runs makes you ready; after a game ends, or after sitting down during
  one, you type `ready` (or `start`). So `start` never drags in someone who
  walked away from the screen, and nobody waits out an absent player's turns;
- `start` begins a game among everyone seated: one player plays the computer
  (no stake), two to `max_players` play each other and, with `stake > 0`, each
  antes the stake through the ledger and the winner takes the pot;
- `leave` (and a disconnect, which is the same thing) takes the player out of
  the game at once: their ante stays in the pot, and one player left wins it;
- shutdown (`close`) refunds every ante;
- after every game each human player is told their wallet and the dice rotate
  (reveal and re-commit), so the game's rolls can be verified.

The engine's `hold_refused` answers with facts only; what follows (the turn
moving on, or a called-off game with its refunds) comes with the engine's next
input, and the table calls `advance` every manager tick, so that is at most one
tick later.
"""
from __future__ import annotations

from typing import Sequence

from server.config.model import GameOptions, TableConfig
from server.dice.source import TableDraws
from server.games.pig.options import PigOptions
from server.games.pig import events as ev
from server.games.pig.game import Phase, PigGame, start_problem
from server.games.actions import Action, Actions, Move
from server.games.seam import AnyDealer, Dealer, Event, HandResult, Note, RoundPlayed, WalletReport
from server.games.seating import Seating
from server.games.pig import view as render
from server.games.pig.snapshot import GameSnapshot, PigSnapshot

COMPUTER = "computer"



class PigDealer(Dealer[PigSnapshot]):
    config: TableConfig[PigOptions]

    def __init__(self, config: TableConfig[PigOptions], tick_hz: int, dice: TableDraws, seating: Seating) -> None:
        super().__init__(config, tick_hz, dice, seating, ACTIONS, render.VIEWS)
        self.options = config.options
        self.ready: set[str] = set(seating.names())   # who plays in the next game
        self.game: PigGame | None = None
        self.games = 0
        self.last: ev.GameOver | None = None    # how the last game ended, for `table`

    # --- who is who -------------------------------------------------------
    def _playing(self) -> PigGame | None:
        """The game in play, or None (no game yet, or the last one is over)."""
        game = self.game
        return game if game is not None and game.phase is Phase.PLAYING else None

    def playing(self) -> bool:
        return self._playing() is not None

    def in_game(self, player: str) -> bool:
        game = self._playing()
        return game is not None and player in game.players and player != game.computer

    # has_live_bets: never (the base's False): a player who leaves is out at
    # once, and their ante stays in the pot.

    def phase(self) -> str:
        return "playing" if self.playing() else "waiting"

    def roles(self) -> dict[str, str]:
        game = self._playing()
        if game is not None and game.current is not None and game.current != game.computer:
            return {game.current: "has the turn"}
        return {}

    def seeder(self) -> str | None:
        """Who may set the client seed: the human on turn (the lone human
        throughout a game against the computer), else the first seat."""
        game = self._playing()
        if game is not None:
            current = game.current
            if current == game.computer:
                return game.players[0]
            return current
        names = self.seating.names()
        return names[0] if names else None

    # --- seating ------------------------------------------------------------
    def seated(self, player: str, back: bool) -> list[Event]:
        if self.playing():
            welcome = ("A game is under way: type 'ready' and you play in the next one. "
                       "'table' shows the scores.")
        else:
            self.ready.add(player)
            welcome = (f"Type 'start' to play the computer, or wait for others and 'start' a "
                       f"game among you. First to {self.options.target} wins.")
        if self.options.stake > 0:
            welcome += (f" Games among players cost an ante of {self.options.stake} chips each; "
                        "the winner takes the pot.")
        return [Note(None, f"{player} sits down at the Pig table."), Note((player,), welcome)]

    def unseated(self, player: str, how: str) -> list[Event]:
        """Up from the table; in a game, out of it at once (their ante stays in the pot)."""
        self.ready.discard(player)
        game = self._playing()
        if game is None or not self.in_game(player):
            return []
        return [Note((player,), "You are out of the game."), *self._after(game, game.leave(player))]

    # --- commands (the words are declared in ACTIONS below) ---------------------
    def _turn(self, move: Move) -> list[Event]:
        game = self._playing()
        if game is None or not self.in_game(move.player):
            return [Note((move.player,), "You play in the next game; this one is under way.")]
        return self._after(game, game.act(move.player, move.word))

    def _start(self, move: Move) -> list[Event]:
        player = move.player
        if self.playing():
            return [Note((player,), "A game is already under way: type 'ready' to play in the next one.")]
        self.ready.add(player)
        players = [p for p in self.seating.names() if p in self.ready]
        problem = start_problem(players, self.config.max_players, COMPUTER)
        if problem:
            return [Note((player,), f"Cannot start: {problem}.")]
        self.games += 1
        game = PigGame(players, self.options, self.dice, self.tick_hz,
                       max_players=self.config.max_players,
                       game_id=f"{self.config.id}:g{self.games}", computer_name=COMPUTER)
        self.game = game
        return self._after(game, game.start())

    def _ready(self, move: Move) -> list[Event]:
        player = move.player
        if self.in_game(player):
            return [Note((player,), "You are playing in this game.")]
        if player in self.ready:
            return [Note((player,), "You are ready: you play in the next game.")]
        self.ready.add(player)
        return [Note(None, f"{player} is ready for the next game.")]

    def _after(self, game: PigGame, events: Sequence[Event]) -> list[Event]:
        """The events of `game`; if it just ended: rotate the dice, tell each
        human still in it their wallet (after the Settle or Refunds before it
        in the list, so after the money is durable)."""
        over = next((e for e in events if isinstance(e, ev.GameOver)), None)
        if over is None:
            return list(events)
        self.last = over
        self.dice.rotate()
        self.ready.clear()          # everyone confirms for the next game
        humans = [p for p in game.players if p != game.computer and p in self.seating]
        result = HandResult((("game", self.games), ("winner", over.winner or "none"),
                             ("reason", over.reason.value), ("rounds", over.rounds), ("pot", over.pot)))
        played: list[Event] = []
        if over.winner is not None and over.pot == 0:      # a game for no chips: a round all the same
            played.append(RoundPlayed(tuple(p for p in game.players if p != game.computer)))
        return [*events, *(WalletReport(p) for p in humans), result, *played]

    # --- time and the table's other inputs -----------------------------------
    def advance(self, ticks: int) -> list[Event]:
        game = self._playing()
        if game is None:
            return []
        return self._after(game, game.advance(ticks))

    def hold_refused(self, key: str, reason: str) -> list[Event]:
        if self.game is None:
            return []
        facts = self.game.hold_refused(key)
        notes = [Note((f.player,), f"Your ante of {self.options.stake} chips could not be held: {reason}")
                 for f in facts if isinstance(f, ev.AnteRefused)]
        return [*notes, *facts]

    def close(self, why: str) -> list[Event]:
        game = self._playing()
        if game is None:
            return []
        return [Note(None, why), *game.close("shutdown")]

    def between_hands(self, at_rest: bool) -> bool:
        """No game running: a removed table may close now."""
        return not self.playing()

    def reconfigure(self, config: TableConfig[GameOptions]) -> bool:
        """New settings (`reload`) take effect at once for the next game; a game
        in play keeps the options it started with (its engine holds them)."""
        if config.game != "pig":
            return False
        self.config = config.narrowed(PigOptions)
        self.options = self.config.options
        return True


    # --- what people see ------------------------------------------------------
    def snapshot(self) -> PigSnapshot:
        """The table as the view reads it: a frozen copy, built per render call."""
        game = self.game
        return PigSnapshot(
            table_id=self.config.id, max_players=self.config.max_players, options=self.options,
            seated=tuple(self.seating.names()), ready=frozenset(self.ready),
            game=None if game is None else GameSnapshot(
                number=self.games, playing=game.phase is Phase.PLAYING, options=game.options,
                vs_computer=game.vs_computer, players=game.players, computer=game.computer,
                scores=tuple(game.scores.items()), current=game.current,
                round_score=game.round_score, rounds=game.rounds, pot=game.pot),
            last=self.last, commands=ACTIONS.reminder("table", "table rules", "leave", "help pig"))


def make(config: TableConfig[GameOptions], tick_hz: int, dice: TableDraws, seating: Seating) -> AnyDealer:
    """The catalogue's MakeDealer: a Pig dealer for a `game: pig` table."""
    return PigDealer(config.narrowed(PigOptions), tick_hz, dice, seating)


ACTIONS = Actions[PigDealer]("Pig", (
    Action("start", "start", "begin a game of Pig: alone you play the computer; with others who are ready, "
           "you play each other.", PigDealer._start, opens=True, remind=False),
    Action("ready", "ready", "play in the next game (after a game ends, or if you sat down during one).",
           PigDealer._ready, remind=False),
    Action("roll", "roll", "on your turn, roll both dice once and add them to your round score.",
           PigDealer._turn, phases=("playing",), not_now="No game is running: type 'start'."),
    Action("hold", "hold", "on your turn, bank your round score and pass the dice.",
           PigDealer._turn, phases=("playing",), not_now="No game is running: type 'start'."),
))

"""The Pig table as a pure state machine (spec 003, docs/play-pig.md).

The seam with the table, in the manner of h11: commands and elapsed ticks
go in, lists of events come out; nothing here awaits, sleeps, prints, reads a
clock or makes randomness (dice come from the DiceSource handed in).

    problem = start_problem(players, max_players)          # None, or a one-line reason
    game = PigGame(players, options, dice, ticks_per_second,
                   max_players=table.max_players, game_id="pig-table-1:g7")
    events = game.start()           # antes (Hold) + GameStarted + the first TurnStarted
    events = game.act(player, "roll")   # or "hold"
    events = game.advance(ticks)    # deadlines and the computer's paced rolls
    events = game.leave(player)     # the player is out; one left wins the pot
    events = game.hold_refused(key) # the ledger refused an ante (facts only)
    events = game.close("shutdown") # shutdown: every ante is refunded

Every returned list mixes facts (server.games.pig.events) and money intents
(server.games.intents); the table applies the intents in order and hands
the facts to the renderer. It reports a refused Hold with `hold_refused(key)`
as soon as it learns of it, even in the middle of a batch: the answer is facts
only, and the consequences (with any money they move) come with the next
input, so no intent ever names a stake whose Hold the table has not written
yet. The table must keep calling `advance` while a game runs. `game_id` must
make the intent keys unique within the table (e.g. table id plus a game
counter). A refused command is a `Refused` event with a one-line reason and
changes nothing.

Who plays: one player plays the computer (named `computer_name`, last in
turn order, no stake). Two to `max_players` play each other; with
`options.stake > 0` each antes the stake (one Hold each, key
`<game_id>:ante:<player>`) and the winner is paid the whole pot by one Settle
closing every ante (house net 0). A player who leaves forfeits their ante to
the pot, not to the house. `close` refunds every ante, the leavers' too.

Time: `turn_deadline` and `computer_pace` are seconds in PigOptions; the game
turns them into ticks with the `ticks_per_second` it is given. A human who
idles `turn_deadline` on their turn (the clock restarts at each roll) holds.
The computer rolls once every `computer_pace` (0 plays its turn at once), so
people can follow its turn roll by roll. A "round" is one player's turn, as
003 words it ("A Player begins a round (for a players turn)"); the count
includes the winning turn.
"""
from __future__ import annotations

from enum import Enum
from types import MappingProxyType
from typing import Mapping, Sequence

from server.games.pig.options import PigOptions
from server.dice.source import DiceSource
from server.games.intents import Hold, MoneyIntent, Refund, Settle
from server.games.pig.events import (
    AnteRefused, Fact, GameClosed, GameEnd, GameOver, GameStarted, PlayerLeft,
    Refused, Rolled, TurnEnd, TurnEnded, TurnStarted,
)
from server.games.pig.rules import RollOutcome, computer_continues, roll_outcome

Event = Fact | MoneyIntent
ACTIONS = ("roll", "hold")
_TURN_END: Mapping[RollOutcome, TurnEnd] = MappingProxyType(      # read-only: no state shared by tables
    {RollOutcome.ONE: TurnEnd.ONE, RollOutcome.SNAKE_EYES: TurnEnd.SNAKE_EYES})


class Phase(Enum):
    READY = "ready"        # built, start() not yet called
    PLAYING = "playing"
    OVER = "over"
    CLOSED = "closed"


def start_problem(players: Sequence[str], max_players: int = 6,
                  computer_name: str = "computer") -> str | None:
    """Why these players cannot start a game, or None: for the table's `start`."""
    if not players:
        return "nobody is seated at the table"
    if len(players) > max_players:
        return f"at most {max_players} players can play Pig at this table"
    if len(set(players)) != len(players):
        return "a player is seated twice"
    if len(players) == 1 and players[0] == computer_name:
        return f"the name {computer_name!r} is taken by the computer"
    return None


def seconds_to_ticks(seconds: float, ticks_per_second: int, *, allow_zero: bool = False) -> int:
    """A configured duration in whole ticks; at least one unless zero is allowed."""
    ticks = round(seconds * ticks_per_second)
    return max(0 if allow_zero else 1, ticks)


class PigGame:
    """One game of Pig; see the module docstring for the seam."""

    def __init__(self, players: Sequence[str], options: PigOptions, dice: DiceSource,
                 ticks_per_second: int, *, max_players: int = 6, game_id: str = "pig",
                 computer_name: str = "computer") -> None:
        problem = start_problem(players, max_players, computer_name)
        if problem:
            raise ValueError(problem)
        self.options = options
        self.vs_computer = len(players) == 1
        self.computer = computer_name if self.vs_computer else None
        self._dice = dice
        self._id = game_id
        self._order: list[str] = list(players) + ([computer_name] if self.vs_computer else [])
        self._scores = {p: 0 for p in self._order}
        self._turn = 0                      # index into _order of the player on turn
        self._round_score = 0
        self._rounds = 0
        self._clock = 0                     # ticks left before the next timed step
        self._deadline = seconds_to_ticks(options.turn_deadline, ticks_per_second)
        self._pace = seconds_to_ticks(options.computer_pace, ticks_per_second, allow_zero=True)
        self._stake = 0 if self.vs_computer else options.stake
        self._antes: dict[str, str] = {}    # open ante stakes: player -> Hold key
        self._pot = 0
        self._refused: list[str] = []       # antes refused, not yet acted on
        self.phase = Phase.READY

    # ---- what the table and renderer may read ----------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self._order)

    @property
    def scores(self) -> dict[str, int]:
        return dict(self._scores)

    @property
    def current(self) -> str | None:
        return self._order[self._turn] if self.phase is Phase.PLAYING else None

    @property
    def round_score(self) -> int:
        return self._round_score

    @property
    def rounds(self) -> int:
        return self._rounds

    @property
    def pot(self) -> int:
        return self._pot

    # ---- inputs ----------------------------------------------------------------
    def start(self) -> list[Event]:
        """Antes, the opening fact and the first turn."""
        if self.phase is not Phase.READY:
            raise RuntimeError("the game has already started")
        self.phase = Phase.PLAYING
        events: list[Event] = []
        if self._stake > 0:
            for p in self._order:
                key = f"{self._id}:ante:{p}"
                self._antes[p] = key
                self._pot += self._stake
                events.append(Hold(key, p, self._stake))
        events.append(GameStarted(tuple(self._order), self.options.target, self._stake,
                                  self._pot, self.vs_computer))
        return events + self._begin_turn()

    def act(self, player: str, action: str) -> list[Event]:
        """A player's `roll` or `hold`."""
        events = self._flush()
        problem = self._act_problem(player, action)
        if problem:
            return events + [Refused(player, problem)]
        if action == "roll":
            return events + self._roll(player)
        return events + self._hold(player, TurnEnd.HOLD)

    def advance(self, ticks: int) -> list[Event]:
        """Time passing: turn deadlines expire, the computer takes its next roll."""
        if ticks < 0:
            raise ValueError("ticks cannot be negative")
        events = self._flush()
        while ticks > 0 and self.phase is Phase.PLAYING:
            if ticks < self._clock:
                self._clock -= ticks
                break
            ticks -= self._clock
            player = self._order[self._turn]
            if player == self.computer:
                events += self._roll(player)
            else:
                events += self._hold(player, TurnEnd.TIMEOUT)
        return events

    def leave(self, player: str) -> list[Event]:
        """The player is out; their ante stays in the pot."""
        events = self._flush()
        if player not in self._order:
            return events + [Refused(player, "you are not playing at this table")]
        if self.phase is not Phase.PLAYING:
            self._order.remove(player)
            return events + [PlayerLeft(player)]
        return events + [PlayerLeft(player)] + self._drop(player)

    def hold_refused(self, *keys: str) -> list[Event]:
        """The ledger refused these antes: those players are out without a stake.

        Only facts come back: the table may still be applying Holds of the same
        batch, so what follows (the turn moving on, or a cancelled game and its
        Refunds when fewer than two remain) comes with the next input."""
        refused = [p for p, k in self._antes.items() if k in keys]
        if self.phase is not Phase.PLAYING:
            return []
        for player in refused:
            del self._antes[player]
            self._pot -= self._stake
            self._refused.append(player)
        return [AnteRefused(player) for player in refused]

    def close(self, reason: str = "shutdown") -> list[Event]:
        """Shutdown or eviction: refund every ante, end the game."""
        self._refused.clear()
        if self.phase in (Phase.OVER, Phase.CLOSED):
            return []
        self.phase = Phase.CLOSED
        events: list[Event] = [Refund(f"{self._id}:refund:{p}", key) for p, key in self._antes.items()]
        self._antes.clear()
        self._pot = 0
        return events + [GameClosed(reason)]

    # ---- the turn --------------------------------------------------------------
    def _act_problem(self, player: str, action: str) -> str | None:
        if player not in self._order or player == self.computer:
            return "you are not playing at this table"
        if self.phase is Phase.READY:
            return "the game has not started yet"
        if self.phase is not Phase.PLAYING:
            return "the game is over"
        if action not in ACTIONS:
            return f"unknown action {action!r}: type roll or hold"
        on_turn = self._order[self._turn]
        if on_turn != player:
            return f"it is {on_turn}'s turn"
        return None

    def _begin_turn(self) -> list[Event]:
        self._rounds += 1
        self._round_score = 0
        player = self._order[self._turn]
        computer = player == self.computer
        events: list[Event] = [TurnStarted(player, self._scores[player], self._rounds, computer)]
        if not computer:
            self._clock = self._deadline
            return events
        self._clock = self._pace
        while self._pace == 0 and self.phase is Phase.PLAYING and self._order[self._turn] == player:
            events += self._roll(player)
        return events

    def _roll(self, player: str) -> list[Event]:
        dice = self._dice.roll()
        outcome = roll_outcome(dice)
        if outcome is RollOutcome.ADDED:
            self._round_score += sum(dice)
        else:
            self._round_score = 0
            if outcome is RollOutcome.SNAKE_EYES:
                self._scores[player] = 0
        events: list[Event] = [Rolled(player, dice, self._round_score, outcome)]
        if outcome is not RollOutcome.ADDED:
            events.append(TurnEnded(player, self._scores[player], 0, _TURN_END[outcome]))
            return events + self._next_turn()
        if player != self.computer:
            self._clock = self._deadline
        elif computer_continues(self._scores[player], self._round_score, self.options.target):
            self._clock = self._pace
        else:
            events += self._hold(player, TurnEnd.HOLD)
        return events

    def _hold(self, player: str, reason: TurnEnd) -> list[Event]:
        banked = self._round_score
        self._scores[player] += banked
        self._round_score = 0
        events: list[Event] = [TurnEnded(player, self._scores[player], banked, reason)]
        if self._scores[player] >= self.options.target:
            return events + self._win(player, GameEnd.TARGET)
        return events + self._next_turn()

    def _next_turn(self) -> list[Event]:
        self._turn = (self._turn + 1) % len(self._order)
        return self._begin_turn()

    # ---- endings ---------------------------------------------------------------
    def _flush(self) -> list[Event]:
        """Act on refused antes reported since the last input."""
        refused, self._refused = self._refused, []
        if not refused or self.phase is not Phase.PLAYING:
            return []
        if len(self._order) - len(refused) < 2:
            for player in refused:
                self._order.remove(player)
            return self._cancel()
        events: list[Event] = []
        for player in refused:
            events += self._drop(player)
        return events

    def _drop(self, player: str) -> list[Event]:
        """Remove a player mid-game: a lone survivor wins; the turn moves on if it was theirs."""
        if self.vs_computer:
            self._order.remove(player)
            self.phase = Phase.OVER
            return [GameOver(None, 0, self._rounds, 0, GameEnd.ABANDONED)]
        index = self._order.index(player)
        on_turn = index == self._turn
        self._order.remove(player)
        if len(self._order) == 1:
            return self._win(self._order[0], GameEnd.WALKOVER)
        if index < self._turn:
            self._turn -= 1
        if on_turn:
            self._turn %= len(self._order)
            return self._begin_turn()
        return []

    def _win(self, winner: str, reason: GameEnd) -> list[Event]:
        self.phase = Phase.OVER
        events: list[Event] = []
        pot = self._pot
        if self._antes:
            events.append(Settle(f"{self._id}:pot", tuple(self._antes.values()), ((winner, pot),)))
            self._antes.clear()
        return events + [GameOver(winner, self._scores[winner], self._rounds, pot, reason)]

    def _cancel(self) -> list[Event]:
        self.phase = Phase.OVER
        events: list[Event] = [Refund(f"{self._id}:refund:{p}", key) for p, key in self._antes.items()]
        self._antes.clear()
        self._pot = 0
        return events + [GameOver(None, 0, self._rounds, 0, GameEnd.CANCELLED)]

"""Simplified craps at a table: one seat, the 001/002 game, wired to the table.

Seating policy: a solo table (max_players 1). Leaving with a bet in play waits
until it is decided (the player rolls it out); a disconnect forfeits the live
stakes; shutdown refunds them. The dice rotate (reveal and re-commit) after
every decided game.

A table with `dice: classic` (docs/play-simplified-craps.md "Classic dice") rolls from a
ClassicSource instead of the fair dice: the player's `seed msvc 22` (taken
in the fair dice' place: Dealer.own_draws) starts a C program's rand()
stream, which carries on from game to game. Whoever knows the seed knows
every roll, so such a table moves no chips: the engine's money intents are
counted against a practice bankroll kept here for the sitting, and none
reaches the table, so the ledger never sees the table.

The words are declared in commands.ACTIONS; what people see is view.py, which
reads facts and the frozen snapshots this dealer hands out (`seat`, `state`).
"""
from __future__ import annotations

from typing import Protocol, Self, runtime_checkable

from server.config.model import GameOptions, TableConfig
from server.dice.classic import SEED_USAGE, ClassicSource
from server.dice.source import OwnDraws, TableDraws
from server.games.actions import Action, Move
from server.games.craps.options import CrapsOptions
from server.games.intents import Forfeit, Hold, Refund, Settle
from server.games.seam import AnyDealer, Ask, Dealer, Event, HandResult, Note, WalletReport
from server.games.seating import Seating
from server.games.simplified import events as ev
from server.games.simplified import view as views
from server.games.simplified.view import PRACTICE_BANKROLL, ClassicState, GameState, TableState
from server.games.simplified.commands import ACTIONS
from server.games.simplified.engine import Phase, SimplifiedCraps
from server.render.width import glue

SEED_PROMPT = "Seed (Enter to skip): "
SEED_WORD = "seed"      # the word the seed question's answer comes back as (not a game word)


@runtime_checkable
class ClientSeeded(Protocol):
    """Draws mixed with a client seed (server.dice.fair.FairDice), which the
    seed question shows."""

    @property
    def client_seed(self) -> str: ...


@runtime_checkable
class SeedsClient(ClientSeeded, Protocol):
    """Draws whose client seed the seed question's answer may set, and put
    back to the table's own for the next player."""

    @property
    def default_client_seed(self) -> str: ...
    def set_client_seed(self, text: str) -> str | None: ...


class SimplifiedDealer(Dealer[TableState]):
    classic: ClassicSource | None = None        # dice: classic - the C program's rolls (set per table)
    config: TableConfig[CrapsOptions]

    def __init__(self, config: TableConfig[CrapsOptions], tick_hz: int, dice: TableDraws,
                 seating: Seating) -> None:
        super().__init__(config, tick_hz, dice, seating, ACTIONS, views.VIEWS)
        self.options = config.options
        self.engine: SimplifiedCraps | None = None
        self.sittings = 0
        self.practice = PRACTICE_BANKROLL             # a classic table's bankroll for the sitting
        self._practice_stakes: dict[str, int] = {}
        self._new_source()
        if seating.names():                     # a reload keeps the player seated
            self._new_engine(seating.names()[0])

    @property
    def player(self) -> str | None:
        names = self.seating.names()
        return names[0] if names else None

    def phase(self) -> str:
        return self.engine.phase.value if self.engine else "empty"

    def _client_seed(self) -> str:
        if not isinstance(self.dice, ClientSeeded):
            raise TypeError("simplified craps offers a dice seed: its draws need a client seed")
        return self.dice.client_seed

    def _new_engine(self, player: str) -> None:
        self.sittings += 1
        dice = self.classic if self.classic is not None else self.dice
        self.engine = SimplifiedCraps(self.config, player, dice, f"{self.config.id}:s{self.sittings}")

    def _new_source(self) -> None:
        """A classic table's own dice, unseeded, taking the table's `seed` (or none)."""
        self.classic = ClassicSource(self.config.id) if self.options.dice == "classic" else None

    def plays_for_chips(self) -> bool:
        """Classic dice play a practice bankroll, never written to the ledger."""
        return self.classic is None

    def own_draws(self) -> OwnDraws | None:
        """A classic table's dice answer `seed` and `fair` themselves."""
        return self.classic

    # --- seating ----------------------------------------------------------------
    def seated(self, player: str, back: bool) -> list[Event]:
        if self.engine is None or self.engine.player != player:
            if self.classic is not None:          # a new sitting: fresh practice chips, no seed yet
                self._new_source()
                self.practice, self._practice_stakes = PRACTICE_BANKROLL, {}
            elif isinstance(self.dice, SeedsClient):   # nobody is offered the last player's seed
                self.dice.set_client_seed(self.dice.default_client_seed)
            self._new_engine(player)
        if self.classic is not None:
            return self._classic_welcome(player)
        return [Note((player,), f"You sit down at {self.config.id}. Minimum bet {self.config.min_bet}. "
                                f"Type: {glue('bet', 'pass', '<amount>')} or {glue('bet', 'dontpass', '<amount>')}."),
                Note((player,), f"Choose a seed for your dice: type any word or number now, or press "
                                f"Enter to keep '{self._client_seed()}'. "
                                f"{glue('seed', '<text>')} changes it at any time."),
                self._offer_seed(player)]

    def _classic_welcome(self, player: str) -> list[Event]:
        return [Note((player,), f"You sit down at {self.config.id}, a practice table with classic dice. "
                                f"Minimum bet {self.config.min_bet}."),
                Note((player,), "The dice are what a C program rolls (die = rand() % 6 + 1), predictable by "
                                f"design, so no chips move here: you play a practice bankroll of "
                                f"{self.practice:,}, never written to the ledger."),
                Note((player,), f"Choose the program and its seed: {SEED_USAGE} "
                                f"(for example: seed msvc 22). Then {glue('bet', 'pass', '<amount>')} and roll.")]

    def _offer_seed(self, player: str) -> Ask:
        """The seed question of spec 001, asked once as the player sits down
        (001 asks at the start, not per bet): the next line is the seed; Enter
        skips and a command runs as usual. `seed <text>` changes it later."""
        return Ask(player, SEED_PROMPT, SEED_WORD)

    def _seed(self, player: str, words: list[str]) -> list[Event]:
        if not words:
            return [Note((player,), f"No new seed: the dice keep '{self._client_seed()}'.")]
        if not isinstance(self.dice, SeedsClient):
            raise TypeError("simplified craps offers a dice seed: its draws need a client seed")
        problem = self.dice.set_client_seed(" ".join(words))
        if problem:
            return [Note((player,), problem + " The dice keep '" + self._client_seed() + "'.")]
        return [Note((player,), f"Seed set: your rolls now use '{self._client_seed()}' ('fair' shows "
                                "how to check them).")]

    def has_live_bets(self, player: str) -> bool:
        """A leave waits for live bets; practice chips never hold anyone."""
        return bool(self.engine and self.engine.stakes) and self.classic is None

    def unseated(self, player: str, how: str) -> list[Event]:
        if self.engine is None:
            return []
        events: list[Event] = list(self.engine.close(forfeit=True)) if how == "gone" else []
        self.engine = None
        return self._practise(events)

    # --- play (the words are declared in commands.ACTIONS) -------------------------
    def act(self, player: str, words: list[str], wallet: int) -> list[Event]:
        """A game word (dispatched through ACTIONS by the base Dealer), or the
        answer to the seed question: the Ask routes it back as SEED_WORD."""
        if words[0] == SEED_WORD and player == self.player:
            return self._seed(player, words[1:])
        return super().act(player, words, wallet)

    def perform(self, action: Action[Self], move: Move) -> list[Event]:
        """A word needs the game the player sat down to (the table seats one)."""
        if move.player != self.player or self.engine is None:
            return [Note((move.player,), "Sit down first.")]
        return action.run(self, move)

    def play(self, move: Move, command: ev.Command) -> list[Event]:
        """Every word's handler (commands.ACTIONS): the engine plays the parsed command."""
        assert self.engine is not None      # perform checked it
        if self.classic is not None:
            return self._play_classic(move, command, self.engine, self.classic)
        events: list[Event] = list(self.engine.act(command, move.wallet))
        over = next((e for e in events if isinstance(e, ev.GameOver)), None)
        if over is not None:
            self.dice.rotate()
            events.append(WalletReport(move.player))
            events.append(HandResult((("player", move.player), ("side", over.side.value),
                                      ("result", over.outcome.value), ("net", over.net))))
        return events

    def _play_classic(self, move: Move, command: ev.Command, engine: SimplifiedCraps,
                      source: ClassicSource) -> list[Event]:
        """A word at a classic table: the practice bankroll is the wallet, the
        stream rolls on, and no money intent leaves the dealer."""
        events: list[Event] = []
        if isinstance(command, ev.Roll) and engine.phase in (Phase.COME_OUT, Phase.POINT):
            if not source.seeded:
                return [Note((move.player,), f"Classic dice need a seed first: {SEED_USAGE} "
                                             "(for example: seed msvc 22).")]
            if source.fresh and source.seed is not None:
                events.append(Note((move.player,), f"Classic dice: {source.seed.text}, as rand() "
                                                   f"after {source.seed.said}."))
        events += self._practise(list(engine.act(command, self.practice)))
        over = next((e for e in events if isinstance(e, ev.GameOver)), None)
        if over is not None:
            events.append(ev.Practice(self.practice))
            events.append(HandResult((("player", move.player), ("side", over.side.value),
                                      ("result", over.outcome.value), ("net", over.net),
                                      ("practice", True))))
        return events

    def _practise(self, events: list[Event]) -> list[Event]:
        """At a classic table, count the engine's money intents against the
        practice bankroll and keep them from the table; elsewhere, pass them on."""
        if self.classic is None:
            return events
        kept: list[Event] = []
        for e in events:
            if isinstance(e, Hold):
                self.practice -= e.amount
                self._practice_stakes[e.key] = e.amount
            elif isinstance(e, Settle):
                self.practice += sum(chips for _, chips in e.pays)
                for key in e.stakes:
                    self._practice_stakes.pop(key, None)
            elif isinstance(e, Refund):
                self.practice += self._practice_stakes.pop(e.stake, 0)
            elif isinstance(e, Forfeit):
                self._practice_stakes.pop(e.stake, None)
            else:
                kept.append(e)
        return kept

    def reconfigure(self, config: TableConfig[GameOptions]) -> bool:
        """New limits and rules apply from the next game; a game in play
        finishes under the rules it started with."""
        if config.game != "craps" or config.options.variant != "simplified":
            return False
        mine = config.narrowed(CrapsOptions)
        if mine.options.dice != self.options.dice or (self.engine and self.engine.stakes):
            return False
        self.config, self.options = mine, mine.options
        if self.engine is not None:
            self._new_engine(self.engine.player)
        return True

    def hold_refused(self, key: str, reason: str) -> list[Event]:
        """The ledger would not hold a stake: that wager is off, said in one line."""
        if self.engine is None:
            return []
        to = tuple(self.seating.names())
        return [Note(to, f"Refused: your {e.what} of {e.amount} is off: {reason}.")
                if isinstance(e, ev.HoldCancelled) else e for e in self.engine.hold_refused(key)]

    def close(self, why: str) -> list[Event]:
        if self.engine is None:
            return []
        return [Note(None, why), *self._practise(list(self.engine.close(forfeit=False)))]

    def roles(self) -> dict[str, str]:
        return {self.player: "chooses the seed"} if self.player else {}

    def seeder(self) -> str | None:
        return self.player

    # --- the snapshot for view.py -----------------------------------------------
    def snapshot(self) -> TableState:
        """The table as it stands, frozen: for facts, `look`, `table`, GMCP."""
        e = self.engine
        game = None if e is None else GameState(e.phase, e.side, e.flat, e.odds, e.point, e.ride_amount)
        classic = None
        if self.classic is not None:
            seed = self.classic.seed
            classic = ClassicState(self.practice, seed.text if seed else None, seed.said if seed else None,
                                   self.classic.rolls)
        return TableState(self.config.id, self.config.min_bet, self.config.max_bet, self.player, game, classic,
                          self.options)


def make(config: TableConfig[GameOptions], tick_hz: int, dice: TableDraws, seating: Seating) -> AnyDealer:
    """The catalogue's MakeDealer: a simplified craps dealer (`game: craps`, `variant: simplified`)."""
    return SimplifiedDealer(config.narrowed(CrapsOptions), tick_hz, dice, seating)

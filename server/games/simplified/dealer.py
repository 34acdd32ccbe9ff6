"""Simplified craps at a table: one seat, the 001/002 game, wired to the host.

Seating policy: a solo table (max_players 1). Leaving with a bet in play waits
until it is decided (the player rolls it out); a disconnect forfeits the live
stakes; shutdown refunds them. The dice rotate (reveal and re-commit) after
every decided game.

The words are declared in commands.ACTIONS; what people see is view.py, which
reads facts and the frozen snapshots this dealer hands out (`seat`, `state`).
"""
from __future__ import annotations

from typing import Protocol, runtime_checkable

from server.config.model import TableConfig
from server.dice.source import TableDraws
from server.games.actions import Move
from server.games.craps.options import CrapsOptions
from server.games.seam import Ask, Dealer, Event, HandResult, Note, Viewer, WalletReport
from server.games.seating import Seating
from server.games.simplified import events as ev
from server.games.simplified import view as views
from server.games.simplified.view import GameState, Seat, TableState
from server.games.simplified.commands import ACTIONS, command_of
from server.games.simplified.engine import SimplifiedCraps
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
    """Draws whose client seed the seed question's answer may set."""

    def set_client_seed(self, text: str) -> str | None: ...


class SimplifiedDealer(Dealer):
    word = "craps"
    actions = ACTIONS

    def __init__(self, config: TableConfig, tick_hz: int, dice: TableDraws, seating: Seating) -> None:
        super().__init__(config, tick_hz, dice, seating)
        if not isinstance(config.options, CrapsOptions):
            raise TypeError(f"table {config.id} is not a craps table")
        self.options: CrapsOptions = config.options
        self.engine: SimplifiedCraps | None = None
        self.sittings = 0
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
        self.engine = SimplifiedCraps(self.config, player, self.dice, f"{self.config.id}:s{self.sittings}")

    # --- seating ----------------------------------------------------------------
    def seated(self, player: str, back: bool) -> list[Event]:
        if self.engine is None or self.engine.player != player:
            self._new_engine(player)
        return [Note((player,), f"You sit down at {self.config.id}. Minimum bet {self.config.min_bet}. "
                                f"Type: {glue('bet', 'pass', '<amount>')} or {glue('bet', 'dontpass', '<amount>')}."),
                Note((player,), f"Choose a seed for your dice: type any word or number now, or press "
                                f"Enter to keep '{self._client_seed()}'."),
                self._offer_seed(player)]

    def _offer_seed(self, player: str) -> Ask:
        """The seed question of spec 001, asked as each game starts: the next
        line is the seed; Enter skips and a command runs as usual."""
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

    def live(self, player: str) -> bool:
        return bool(self.engine and self.engine.stakes)

    def unseated(self, player: str, how: str) -> list[Event]:
        if self.engine is None:
            return []
        events: list[Event] = list(self.engine.close(forfeit=True)) if how == "gone" else []
        self.engine = None
        return events

    # --- play (the words are declared in commands.ACTIONS) -------------------------
    def act(self, player: str, words: list[str], wallet: int) -> list[Event]:
        """A game word (dispatched through ACTIONS by the base Dealer), or the
        answer to the seed question: the Ask routes it back as SEED_WORD."""
        if player != self.player or self.engine is None:
            return [Note((player,), f"Sit down first: play {self.word}.")]
        if words[0] == SEED_WORD:
            return self._seed(player, words[1:])
        return super().act(player, words, wallet)

    def play(self, move: Move) -> list[Event]:
        """Every word's handler (commands.ACTIONS): the engine plays the parsed command."""
        if self.engine is None:
            return [Note((move.player,), f"Sit down first: play {self.word}.")]
        events: list[Event] = list(self.engine.act(command_of(move.args), move.wallet))
        if any(isinstance(e, ev.BetPlaced) for e in events):
            events.append(self._offer_seed(move.player))     # a game starts: a seed for it?
        over = next((e for e in events if isinstance(e, ev.GameOver)), None)
        if over is not None:
            self.dice.rotate()
            events.append(WalletReport(move.player))
            events.append(HandResult((("player", move.player), ("side", over.side.value),
                                      ("result", over.outcome.value), ("net", over.net))))
        return events

    def reconfigure(self, config: TableConfig) -> bool:
        """New limits and rules apply from the next game; a game in play
        finishes under the rules it started with."""
        options = config.options
        if not isinstance(options, CrapsOptions) or options.variant != "simplified" \
                or (self.engine and self.engine.stakes):
            return False
        self.config, self.options = config, options
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
        return [Note(None, why), *self.engine.close(forfeit=False)]

    def roles(self) -> dict[str, str]:
        return {self.player: "chooses the seed"} if self.player else {}

    def seeder(self) -> str | None:
        return self.player

    # --- snapshots for view.py ----------------------------------------------------
    def seat(self) -> Seat:
        """Who the facts are about: all that rendering a fact reads of the table."""
        return Seat(self.player)

    def state(self) -> TableState:
        """The table as it stands, frozen: for `look`, `table` and GMCP."""
        e = self.engine
        game = None if e is None else GameState(e.phase, e.side, e.flat, e.odds, e.point, e.ride_amount)
        return TableState(self.config.id, self.config.min_bet, self.config.max_bet, self.player, game)

    # --- what people see ------------------------------------------------------
    def render(self, event: Event, viewer: Viewer) -> list[str]:
        return views.event_lines(event, self.seat(), viewer)

    def view(self, viewer: Viewer) -> list[str]:
        return views.table_lines(self.state(), viewer)

    def rules(self) -> list[str]:
        return views.rules_lines(self.options)

    def table_data(self) -> dict[str, object]:
        return views.table_data(self.state())

    def event_data(self, event: Event) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
        """Facts as data for client scripts (GMCP, docs/gmcp.md)."""
        return views.event_data(event, self.seat())

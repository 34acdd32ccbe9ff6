"""Simplified craps at a table: one seat, the 001/002 game, rendered for people.

Seating policy: a solo table (max_players 1). Leaving with a bet in play waits
until it is decided (the player rolls it out); a disconnect forfeits the live
stakes; shutdown refunds them. The dice rotate (reveal and re-commit) after
every decided game.
"""
from __future__ import annotations

from typing import Any

from server.config.model import TableConfig
from server.games.simplified import events as ev
from server.games.actions import Move
from server.games.simplified.commands import ACTIONS, command_of
from server.games.simplified.engine import Phase, SimplifiedCraps
from server.games.simplified.rules import Outcome, Side
from server.render.dice import dice_art
from server.render.text import paint
from server.render.width import fit_all, glue
from server.games.seam import Dealer, Ask, HandResult, Note, Viewer, WalletReport, render_note
from server.games.seating import Seating

_SIDE = {Side.PASS: "pass line", Side.DONT: "don't pass"}
SEED_PROMPT = "Seed (Enter to skip): "
SEED_WORD = "seed"      # the word the seed question's answer comes back as (not a game word)


RULES = [
    "Simplified craps: you against the house, one player at a time.",
    "Bet the pass line (you win on 7 or 11 at the come-out, lose on 2, 3 or 12)",
    "or don't pass (the mirror image; a come-out 12 is a push unless the table says otherwise).",
    "Any other come-out total is the point: roll it again before a 7 to win the pass line.",
    "After the point is set you may press (double) your bet, and take true odds:",
    "2:1 on 4 and 10, 3:2 on 5 and 9, 6:5 on 6 and 8 (laid the other way on don't pass).",
    "After a win, ride (bet stake and winnings again on the same side) or collect.",
]


class SimplifiedDealer(Dealer):
    word = "craps"
    actions = ACTIONS


    def __init__(self, config: TableConfig, tick_hz: int, dice: Any, seating: Seating) -> None:
        self.config = config
        self.dice = dice
        self.seating = seating
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

    def _new_engine(self, player: str) -> None:
        self.sittings += 1
        self.engine = SimplifiedCraps(self.config, player, self.dice, f"{self.config.id}:s{self.sittings}")

    def sit_problem(self, player: str, wallet: int) -> str | None:
        return None

    def seated(self, player: str, back: bool) -> list[Any]:
        if self.engine is None or self.engine.player != player:
            self._new_engine(player)
        return [Note((player,), f"You sit down at {self.config.id}. Minimum bet {self.config.min_bet}. "
                                f"Type: {glue('bet', 'pass', '<amount>')} or {glue('bet', 'dontpass', '<amount>')}."),
                Note((player,), f"Choose a seed for your dice: type any word or number now, or press "
                                f"Enter to keep '{self.dice.client_seed}'."),
                self._offer_seed(player)]

    def _offer_seed(self, player: str) -> Ask:
        """The seed question of spec 001, asked as each game starts: the next
        line is the seed; Enter skips and a command runs as usual."""
        return Ask(player, SEED_PROMPT, SEED_WORD)

    def _seed(self, player: str, words: list[str]) -> list[Any]:
        if not words:
            return [Note((player,), f"No new seed: the dice keep '{self.dice.client_seed}'.")]
        problem = self.dice.set_client_seed(" ".join(words))
        if problem:
            return [Note((player,), problem + " The dice keep '" + self.dice.client_seed + "'.")]
        return [Note((player,), f"Seed set: your rolls now use '{self.dice.client_seed}' ('fair' shows "
                                "how to check them).")]

    def live(self, player: str) -> bool:
        return bool(self.engine and self.engine.stakes)

    def unseated(self, player: str, how: str) -> list[Any]:
        if self.engine is None:
            return []
        events = self.engine.close(forfeit=True) if how == "gone" else []
        self.engine = None
        return events

    def act(self, player: str, words: list[str], wallet: int) -> list[Any]:
        """A game word (dispatched through ACTIONS by the base Dealer), or the
        answer to the seed question: the Ask routes it back as SEED_WORD."""
        if player != self.player or self.engine is None:
            return [Note((player,), f"Sit down first: play {self.word}.")]
        if words[0] == SEED_WORD:
            return self._seed(player, words[1:])
        return super().act(player, words, wallet)

    def play(self, move: Move) -> list[Any]:
        """Every word's handler (commands.ACTIONS): the engine plays the parsed command."""
        if self.engine is None:
            return [Note((move.player,), f"Sit down first: play {self.word}.")]
        events = self.engine.act(command_of(move.args), move.wallet)
        if any(isinstance(e, ev.BetPlaced) for e in events):
            events.append(self._offer_seed(move.player))     # a game starts: a seed for it?
        over = next((e for e in events if isinstance(e, ev.GameOver)), None)
        if over is not None:
            self.dice.rotate()
            events.append(WalletReport(move.player))
            events.append(HandResult((("player", move.player), ("side", over.side.value),
                                      ("result", over.outcome.value), ("net", over.net))))
        return events

    def advance(self, ticks: int) -> list[Any]:
        return []     # a solo table never forces anything

    def reconfigure(self, config: TableConfig) -> bool:
        """New limits and rules apply from the next game; a game in play
        finishes under the rules it started with."""
        if config.options.variant != "simplified" or (self.engine and self.engine.stakes):
            return False
        self.config = config
        if self.engine is not None:
            self._new_engine(self.engine.player)
        return True

    def hold_refused(self, key: str, reason: str) -> list[Any]:
        """The ledger would not hold a stake: that wager is off, said in one line."""
        if self.engine is None:
            return []
        events = self.engine.hold_refused(key)
        to = tuple(self.seating.names())
        return [Note(to, f"Refused: your {e.what} of {e.amount} is off: {reason}.")
                if isinstance(e, ev.HoldCancelled) else e for e in events]

    def close(self, why: str) -> list[Any]:
        if self.engine is None:
            return []
        events = self.engine.close(forfeit=False)
        return [Note(None, why), *events]


    def roles(self) -> dict[str, str]:
        return {self.player: "chooses the seed"} if self.player else {}

    def seeder(self) -> str | None:
        return self.player

    # --- what people see ------------------------------------------------------
    def view(self, viewer: Viewer) -> list[str]:
        e = self.engine
        lines = [f"Simplified craps table {self.config.id}: min bet {self.config.min_bet}, "
                 f"max {self.config.max_bet}."]
        if e is None:
            return fit_all(lines + ["Nobody is playing. Type 'play craps' to sit down."], viewer.prefs.width)
        lines.append(f"Player: {self.player}. Phase: {e.phase.value}.")
        if e.side is not None and e.flat:
            point = f", point {e.point}" if e.point else ", come-out roll next"
            odds = f", odds {e.odds}" if e.odds else ""
            lines.append(f"Bet: {e.flat} on the {_SIDE[e.side]}{odds}{point}.")
        if e.phase is Phase.WON:
            lines.append(f"You won: 'ride' to bet {e.ride_amount} again on the {_SIDE[e.side]}, or 'collect'.")
        return fit_all(lines, viewer.prefs.width)

    def table_data(self) -> dict[str, Any]:
        e = self.engine
        return {"point": (e.point or None) if e else None, "bet": e.flat if e else 0,
                "side": e.side.value if e and e.side else None, "odds": e.odds if e else 0}

    def event_data(self, event: Any) -> list[Any]:
        """Facts as data for client scripts (GMCP, docs/gmcp.md)."""
        if isinstance(event, ev.Rolled):
            return [("Casino.Roll", {"dice": list(event.dice), "total": event.total,
                                     "point_before": event.point}, None)]
        if isinstance(event, ev.GameOver):
            return [("Casino.Settlement", {"player": self.player, "side": event.side.value,
                                           "result": event.outcome.value, "how": event.how,
                                           "net": event.net}, None)]
        return []

    def rules(self) -> list[str]:
        o = self.config.options
        bar = "a come-out 12 pushes don't pass" if o.dont_pass_bar == 12 else "don't pass wins on 2, 3 and 12"
        press = {"pass": "the pass line may press", "both": "both sides may press", "none": "no pressing"}[o.press]
        odds = "3-4-5x odds" if o.odds == 0 else f"{o.odds}x odds"
        return RULES + [f"At this table: {bar}; {press}; {odds}."]

    def render(self, event: Any, viewer: Viewer) -> list[str]:
        note = render_note(event, viewer)
        if note is not None:
            return note
        you = viewer.key == self.player
        who = "You" if you else self.player
        c = viewer.prefs.color
        if isinstance(event, ev.Refused):
            return [event.reason] if you else []
        if isinstance(event, ev.BetPlaced):
            verb = "let it ride:" if event.ride else "bet"
            lines = [f"{who} {verb} {event.amount} on the {_SIDE[event.side]}. Type 'roll'."]
            return ([event.note] if event.note and you else []) + lines
        if isinstance(event, ev.Rolled):
            return [*dice_art(event.dice, viewer.prefs),
                    f"{who} rolled {event.dice[0]} and {event.dice[1]}: {paint(str(event.total), 'bold', color=c)}."]
        if isinstance(event, ev.PointSet):
            offer = " You may 'press' (double your bet) or take 'odds <amount>'." if event.can_press and you else ""
            return [f"The point is {event.point}.{offer} Roll again."]
        if isinstance(event, ev.RollAgain):
            return [f"No decision; the point is still {event.point}. Roll again."] if you else []
        if isinstance(event, ev.Pressed):
            return [f"{who} pressed: the bet is now {event.flat}."]
        if isinstance(event, ev.OddsPlaced):
            verb = "laid" if event.side is Side.DONT else "took"
            lines = [f"{who} {verb} {event.amount} in odds on the {event.point} (wins {event.wins})."]
            return ([event.note] if event.note and you else []) + lines
        if isinstance(event, ev.GameOver):
            return self._game_over(event, who, you, c)
        if isinstance(event, ev.Collected):
            return [f"{who} collected {event.amount} chips."]
        if isinstance(event, ev.HoldCancelled):
            return [f"The {event.what} of {event.amount} is off."] if you else []
        if isinstance(event, ev.Closed):
            if event.refunded:
                return [f"{event.refunded} chips in live bets were refunded."] if you else []
            return []
        return []

    def _game_over(self, e: ev.GameOver, who: str, you: bool, c: bool) -> list[str]:
        if e.outcome is Outcome.WIN:
            head = paint(f"{who} won {e.net}", "bright_green", "bold", color=c)
        elif e.outcome is Outcome.LOSE:
            head = paint(f"{who} lost {-e.net}", "bright_red", "bold", color=c)
        else:
            head = paint("Push: the bet is returned", "yellow", color=c)
        lines = [f"{head} ({e.how}, {e.total}) on the {_SIDE[e.side]}."]
        if you and e.ride:
            lines.append(f"Type 'ride' to bet {e.ride} again, 'collect', or a new bet.")
        elif you:
            lines.append("Place a new bet to play again.")
        return lines


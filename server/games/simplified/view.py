"""What simplified craps looks like to one viewer, and as data for client scripts.

Every function here reads a fact (events.py) and a frozen snapshot the dealer
hands out (`Seat` for facts, `TableState` for the table), never the dealer or
its engine, so nothing here can change the game and the dealer's state stays
its own. A fact reads differently only for the seated player ("You rolled")
and everyone else ("ann rolled"): the one name it compares a viewer with is
the seated player's, as the table's watcher rule asks (seam.Dealer).

At a classic-dice table (`dice: classic`) the dice and the decisions read as
at any table ("You rolled 3 and 1: 4.", "The point is 4.", "You won 10"):
only the money differs, the practice bankroll.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from server.games.craps.options import CrapsOptions
from server.games.seam import Event, Viewer, Views
from server.games.simplified import events as ev
from server.games.simplified.engine import Phase
from server.games.simplified.rules import Outcome, Side
from server.dice.classic import SEED_USAGE
from server.dice.kinds import DICE
from server.render.text import paint, sentence
from server.render.width import fit_all

PRACTICE_BANKROLL = 1000    # a classic table's practice chips per sit-down (001's bankroll, in chips)

SIDE: Mapping[Side, str] = MappingProxyType({Side.PASS: "pass line", Side.DONT: "don't pass"})

RULES = (
    "Simplified craps: you against the house, one player at a time.",
    "Bet the pass line (you win on 7 or 11 at the come-out, lose on 2, 3 or 12)",
    "or don't pass (the mirror image; a come-out 12 is a push unless the table says otherwise).",
    "Any other come-out total is the point: roll it again before a 7 to win the pass line.",
    "After the point is set you may press (double) your bet, and take true odds:",
    "2:1 on 4 and 10, 3:2 on 5 and 9, 6:5 on 6 and 8 (laid the other way on don't pass).",
    "After a win, ride (bet stake and winnings again on the same side) or collect.",
)


@dataclass(frozen=True)
class Seat:
    """Who a fact is about: the one seated player (None: nobody), and whether
    the table rolls classic dice (its money is the practice bankroll). All a
    fact's rendering reads besides the fact."""

    player: str | None
    classic: bool = False


@dataclass(frozen=True)
class ClassicState:
    """A classic-dice table's practice bankroll and seed, as `table` shows them."""

    practice: int
    seed: str | None            # as typed: "msvc 22" (None: no seed yet)
    said: str | None            # as C seeds: "srand(22) on Windows (Microsoft C)"
    rolls: int                  # since that seed


@dataclass(frozen=True)
class GameState:
    """The game in play, as the table shows it."""

    phase: Phase
    side: Side | None
    flat: int
    odds: int
    point: int | None
    ride: int


@dataclass(frozen=True)
class TableState:
    """The table as `look`/`table` and GMCP show it: limits, the player, the game."""

    table: str
    min_bet: int
    max_bet: int
    player: str | None
    game: GameState | None        # None: nobody is playing
    classic: ClassicState | None = None   # a classic-dice (practice) table
    options: CrapsOptions = CrapsOptions(variant="simplified")   # its rules, for `table rules`

    @property
    def seat(self) -> Seat:
        """Who the facts are about: all that rendering a fact reads of the table."""
        return Seat(self.player, classic=self.classic is not None)


# --- facts -------------------------------------------------------------------
def event_lines(event: Event, seat: Seat, viewer: Viewer) -> list[str]:
    you = viewer.key == seat.player
    who = "You" if you else (seat.player or "The player")
    c = viewer.prefs.color
    if seat.classic:
        classic = classic_lines(event, who, you, c)
        if classic is not None:
            return classic
    if isinstance(event, ev.Refused):
        return [event.reason] if you else []
    if isinstance(event, ev.BetPlaced):
        verb = "let it ride:" if event.ride else "bet"
        lines = [f"{who} {verb} {event.amount} on the {SIDE[event.side]}. Type 'roll'."]
        return ([sentence(event.note)] if event.note and you else []) + lines
    if isinstance(event, ev.Rolled):        # a screen reader hears the words, not the pips
        return [*([] if viewer.prefs.screenreader else DICE.art(event.dice, viewer.prefs)),
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
        return ([sentence(event.note)] if event.note and you else []) + lines
    if isinstance(event, ev.GameOver):
        return game_over_lines(event, who, you, c)
    if isinstance(event, ev.Collected):
        return [collected_line(event.amount, who, you, "wallet")]
    if isinstance(event, ev.HoldCancelled):
        return [f"The {event.what} of {event.amount} is off."] if you else []
    if isinstance(event, ev.Closed):
        if event.refunded:
            return [f"{event.refunded} chips in live bets were refunded."] if you else []
        return []
    return []


def classic_lines(event: Event, who: str, you: bool, c: bool) -> list[str] | None:
    """A fact at a classic-dice table where it reads otherwise than at any
    table: the money is the practice bankroll. The dice and decisions read as
    at every table, in the casino's one voice; the rolls and amounts are the
    C program's, exact (tests/e2e/test_classic_runs.py tells a run back in
    spec 002's words and compares it with 002's text). None: as at any table."""
    if isinstance(event, ev.Collected):
        return [collected_line(event.amount, who, you, "practice bankroll")]
    if isinstance(event, ev.Practice):
        return [f"Practice bankroll: {event.bankroll:,} (practice chips; your wallet is untouched)."] \
            if you else []
    if isinstance(event, ev.Closed):
        return []                   # practice chips: nothing was refunded or forfeited
    return None


def collected_line(amount: int, who: str, you: bool, where: str) -> str:
    """`collect` moves nothing: a win is paid at once, so the chips it keeps
    from riding are in the wallet (or the practice bankroll) already."""
    if you:
        return (f"Your {amount} chips stay in your {where}, where the win already put them; "
                "nothing rides. Bet again when you like.")
    return f"{who} keeps the {amount} chips and lets nothing ride."


def game_over_lines(e: ev.GameOver, who: str, you: bool, c: bool) -> list[str]:
    if e.outcome is Outcome.WIN:
        head = paint(f"{who} won {e.net}", "bright_green", "bold", color=c)
    elif e.outcome is Outcome.LOSE:
        head = paint(f"{who} lost {-e.net}", "bright_red", "bold", color=c)
    else:
        head = paint("Push: the bet is returned", "yellow", color=c)
    lines = [f"{head} ({e.how}, {e.total}) on the {SIDE[e.side]}."]
    if e.odds and e.outcome is Outcome.WIN:      # what each part won, the stakes back besides
        lines.append(f"The {SIDE[e.side]} won {e.flat_win} and the odds won {e.odds_win}.")
    if you and e.ride:
        lines.append(f"Type 'ride' to bet {e.ride} again, 'collect', or a new bet.")
    elif you:
        lines.append("Place a new bet to play again.")
    return lines


# --- the table ---------------------------------------------------------------
def table_lines(state: TableState, viewer: Viewer) -> list[str]:
    lines = [f"Simplified craps table {state.table}: min bet {state.min_bet}, max {state.max_bet}."]
    k = state.classic
    if k is not None:
        lines += ["Classic dice: a C program's rand() (die = rand() % 6 + 1), predictable by design.",
                  "A practice table: no chips move; each sitting plays a practice bankroll of "
                  f"{PRACTICE_BANKROLL:,}, never written to the ledger.",
                  f"Dice: {k.seed} ({k.said}), {k.rolls} roll(s) since the seed." if k.seed
                  else f"Dice: no seed yet - type {SEED_USAGE}."]
    g = state.game
    if g is None:
        return fit_all(lines + ["Nobody is playing. Type 'play craps' to sit down."], viewer.prefs.width)
    lines.append(f"Player: {state.player}. Phase: {g.phase.value}.")
    if k is not None:
        lines.append(f"Practice bankroll: {k.practice:,}.")
    if g.side is not None and g.flat:
        point = f", point {g.point}" if g.point else ", come-out roll next"
        odds = f", odds {g.odds}" if g.odds else ""
        lines.append(f"Bet: {g.flat} on the {SIDE[g.side]}{odds}{point}.")
    if g.phase is Phase.WON and g.side is not None:
        lines.append(f"You won: 'ride' to bet {g.ride} again on the {SIDE[g.side]}, or 'collect'.")
    return fit_all(lines, viewer.prefs.width)


def rules_lines(o: CrapsOptions) -> list[str]:
    bar = "a come-out 12 pushes don't pass" if o.dont_pass_bar == 12 else "don't pass wins on 2, 3 and 12"
    press = {"pass": "the pass line may press", "both": "both sides may press", "none": "no pressing"}[o.press]
    odds = "3-4-5x odds" if o.odds == 0 else f"{o.odds}x odds"
    lines = [*RULES, f"At this table: {bar}; {press}; {odds}."]
    if o.dice == "classic":
        lines += [f"Classic dice: {SEED_USAGE} rolls what that C program rolls (rand() % 6 + 1, "
                  "the first die first), from game to game until a new seed.",
                  f"Predictable by design, so no chips move: a practice bankroll of {PRACTICE_BANKROLL:,} "
                  "per sitting, never written to the ledger."]
    return lines


# --- data for client scripts (GMCP Casino.*, docs/gmcp.md) ---------------------
def table_data(state: TableState) -> dict[str, object]:
    g = state.game
    return {"point": (g.point or None) if g else None, "bet": g.flat if g else 0,
            "side": g.side.value if g and g.side else None, "odds": g.odds if g else 0}


def event_data(event: Event, seat: Seat) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
    if isinstance(event, ev.Rolled):
        return [("Casino.Roll", {"dice": list(event.dice), "total": event.total,
                                 "point_before": event.point}, None)]
    if isinstance(event, ev.GameOver):
        return [("Casino.Settlement", {"player": seat.player, "side": event.side.value,
                                       "result": event.outcome.value, "how": event.how,
                                       "net": event.net}, None)]
    return []


def _facts(state: TableState, event: Event, viewer: Viewer) -> list[str]:
    return event_lines(event, state.seat, viewer)


def _rules(state: TableState) -> list[str]:
    return rules_lines(state.options)


def _fact_data(state: TableState, event: Event) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
    return event_data(event, state.seat)


VIEWS = Views(_facts, table_lines, _rules, table_data, _fact_data)

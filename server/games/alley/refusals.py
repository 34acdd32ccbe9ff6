"""What may be typed when at an alley craps table: the refusals, as one table.

A command the moment does not allow is refused with a one-line reason and
changes nothing (game.py). Whether the moment allows it depends only on the
phase, the shooter, the pass in play and the typer's chips, so the answer is a
table read top to bottom - for anyone, then for the command - and the game's
handlers are left with what the command does.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable

from server.games.alley import events as ev
from server.games.alley.rules import amount_problem
from server.games.alley.seats import Seats
from server.games.alley.state import PassState, Phase


@dataclass(frozen=True)
class Moment:
    """Who typed, and where the game stands: all a refusal looks at."""

    player: str
    phase: Phase
    shooter: str | None
    play: PassState | None          # the pass being bet or rolled
    seats: Seats
    unit: int                       # the bet unit

    @property
    def queue(self) -> list[str]:
        """Opponents still to be asked to fade; the first is being asked."""
        return self.play.queue if self.play else []

    @property
    def bank(self) -> int:
        return self.seats.bank[self.player]


Rule = tuple[Callable[[Moment], bool], str]   # refused when ..., and why ({shooter}, {asked} filled in)
BETWEEN_PASSES = (Phase.BETTING, Phase.CHOOSING)


def _not_shooter(m: Moment) -> bool:
    return m.player != m.shooter


ANYONE: tuple[Rule, ...] = (
    (lambda m: m.phase is Phase.READY, "the game has not started yet"),
    (lambda m: m.phase in (Phase.OVER, Phase.CLOSED), "the game is over"),
    (lambda m: m.player not in m.seats.seated, "you are not playing at this table"),
)

COMMANDS: MappingProxyType[type, tuple[Rule, ...]] = MappingProxyType({
    ev.Bet: (
        (_not_shooter, "only the shooter sets the action; {shooter} is shooting"),
        (lambda m: m.phase not in BETWEEN_PASSES, "the action is already set"),
    ),
    ev.Fade: (
        (lambda m: m.phase is not Phase.FADING or m.play is None, "there is no action to fade right now"),
        (lambda m: m.play is not None and m.player == m.play.shooter, "the shooter cannot fade their own action"),
        (lambda m: not m.seats.has_money(m.player), "you are cleaned out"),
        (lambda m: m.player not in m.queue, "you have had your turn on this pass"),
        (lambda m: m.player != m.queue[0], "wait your turn: {asked} is being asked"),
    ),
    ev.Roll: (
        (_not_shooter, "only the shooter rolls; {shooter} is shooting"),
        (lambda m: m.phase is Phase.BETTING, "set the action first: bet <amount>"),
        (lambda m: m.phase is Phase.FADING, "wait: the opponents are still fading"),
    ),
    ev.PassDice: (
        (_not_shooter, "only the shooter passes the bones; {shooter} is shooting"),
        (lambda m: m.phase not in BETWEEN_PASSES, "the pass is in play: it must be decided first"),
    ),
})


def declines(fade: ev.Fade) -> bool:
    """`fade` or `fade 0`: this opponent sits the pass out (False is no number of chips)."""
    return fade.amount == 0 and not isinstance(fade.amount, bool)


def refusal(m: Moment, action: object) -> str | None:
    """Why `m.player` may not type `action` now, or None: the rules, then the amount."""
    rules = next((r for kind, r in COMMANDS.items() if isinstance(action, kind)), None)
    for refused, reason in ANYONE + (rules or ()):
        if refused(m):
            return reason.format(shooter=m.shooter, asked=m.queue[0] if m.queue else None)
    if rules is None:
        return "unknown command: bet, fade, roll or pass"
    if isinstance(action, ev.Bet):
        return amount_problem(action.amount, m.unit, m.bank, "your bankroll")
    if isinstance(action, ev.Fade) and not declines(action) and m.play is not None:
        uncovered = m.play.action - m.play.covered
        limit = "the uncovered action" if uncovered <= m.bank else "your bankroll"
        return amount_problem(action.amount, m.unit, min(uncovered, m.bank), limit)
    return None

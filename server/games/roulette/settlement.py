"""Settling one spin: a single Settle for the whole spin, one Settlement per player.

docs/architecture.md "One settlement per roll": a roll (here a spin) that decides many wagers writes one
durable transaction, not one per wager. So every live stake is closed by one
Settle whose pays are summed per player, and each player then gets one
consolidated fact listing what won and lost.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from server.games.intents import Settle

from .events import Event, Line, Outcome, Settlement, Wager
from .payout import settle


def settle_spin(wagers: Sequence[Wager], pocket: int, spin: int, la_partage: bool,
                new_key: Callable[[], str], away: Collection[str] = ()) -> list[Event]:
    """[Settle, Settlement...] for the wagers on the layout when the ball drops in `pocket`.

    Players come in the order of their first wager; a player who gets nothing
    back is listed with 0 (the ledger moves nothing for it, but the table knows
    whom a settlement pending recovery concerns). No wagers, no events.
    """
    lines: dict[str, list[Line]] = {}
    for w in wagers:
        back = settle(w.bet, pocket, la_partage)
        outcome = Outcome.WON if pocket in w.bet.numbers else Outcome.HALF if back else Outcome.LOST
        lines.setdefault(w.player, []).append(Line(w, outcome, back))
    if not lines:
        return []
    paid = {p: sum(ln.returned for ln in ls) for p, ls in lines.items()}
    events: list[Event] = [Settle(new_key(), tuple(w.handle for w in wagers),
                                  tuple(paid.items()))]
    for player, ls in lines.items():
        events.append(Settlement(
            spin, player, pocket,
            won=tuple(ln for ln in ls if ln.outcome is Outcome.WON),
            lost=tuple(ln for ln in ls if ln.outcome is not Outcome.WON),
            staked=sum(ln.wager.bet.amount for ln in ls), paid=paid[player],
            away=player in away))
    return events

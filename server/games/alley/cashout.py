"""Money leaving an alley craps table: who is paid what, and when.

Chips leave the table only while no pass is in play (escrow.py says why): after
a pass is decided or called off, when someone with chips has left, when the game
ends and when the table closes. Each time it is one `Escrow.pay_out`; these
functions say whom it pays - a leaver their bankroll; a player who stays their
bankroll, held again at once; at the end the winner the pot, or everyone their
buy-in if no pass was decided - and which facts tell the players. They change
the Seats and the Escrow only: the game's phase is the game's to set.
"""
from __future__ import annotations

from server.games.alley import events as ev
from server.games.alley.escrow import Escrow
from server.games.alley.events import Event
from server.games.alley.seats import Seats


def settle_up(seats: Seats, escrow: Escrow, *, decided: bool, buy_in: int) -> tuple[list[Event], bool]:
    """No pass in play: announce the cleaned out, then pay leavers, or end the
    game if fewer than two can play on (the second value says it ended).
    `decided`: whether any pass has been decided (if not, an end cancels)."""
    events: list[Event] = [ev.CleanedOut(q) for q in seats.newly_cleaned_out()]
    active = seats.active()
    if len(active) >= 2:
        return events + pay_leavers(seats, escrow), False
    return events + end(seats, escrow, active[0] if active else None, decided=decided, buy_in=buy_in), True


def pay_leavers(seats: Seats, escrow: Escrow) -> list[Event]:
    """Between passes: pay leavers, and bring the stakes in line with the
    bankrolls (a decided pass moved chips) so that the ledger holds them."""
    owed = seats.take_unpaid()
    banks = seats.seated_banks()
    if not any(owed.values()) and escrow.holds_exactly(banks):
        return []
    return [*escrow.pay_out(owed, banks),
            *(ev.PaidOut(q, a) for q, a in owed.items() if a)]


def end(seats: Seats, escrow: Escrow, winner: str | None, *, decided: bool, buy_in: int) -> list[Event]:
    """The game is over: everything on the table goes out, and nothing is held again."""
    pays = seats.take_unpaid()
    if not decided:
        pays.update(seats.seated_banks())
        winner, reason = None, ev.GameEnd.CANCELLED
    elif winner is None:
        reason = ev.GameEnd.NOBODY_LEFT
    else:
        pays[winner] = seats.bank[winner]
        everything = buy_in * len(seats.order)
        reason = ev.GameEnd.CLEANED_HOUSE if pays[winner] == everything else ev.GameEnd.LAST_STANDING
    intents = escrow.pay_out(pays, {})
    seats.bank = {q: 0 for q in seats.bank}
    pot = pays.get(winner, 0) if winner else 0
    paid = [ev.PaidOut(q, a) for q, a in pays.items() if a and q != winner]
    return [*intents, *paid, ev.GameOver(winner, pot, pot - buy_in if winner else 0, reason)]


def close(seats: Seats, escrow: Escrow, reason: str) -> list[Event]:
    """Shutdown: every bankroll, a pass in play or not, goes back to its wallet."""
    balances = seats.balances()
    intents = escrow.pay_out(dict(seats.bank), {})
    seats.unpaid = []
    seats.bank = {q: 0 for q in seats.order if q in seats.seated}
    return [*intents, ev.GameClosed(reason, balances)]

"""High card as one viewer sees it: a fact and the table's snapshot, never the dealer."""
from __future__ import annotations

from server.games.seam import Event, Viewer, Views

from .cards import CARD, rank
from .events import BetsShown, Dealt, Snapshot


def event_lines(table: Snapshot, event: Event, viewer: Viewer) -> list[str]:
    if isinstance(event, BetsShown):
        if viewer.key != event.player:
            return []
        return bets_lines(table, event.player)
    if isinstance(event, Dealt):
        lines = [f"Deal {event.deal}: the house draws {rank(event.house)}.",
                 *CARD.art((event.house,), viewer.prefs)]
        for (player, card), (_, net) in zip(event.cards, event.net):
            result = "wins" if net > 0 else "loses" if net < 0 else "pushes"
            lines.append(f"{player} draws {rank(card)} and {result} {abs(net)}.")
        return lines
    return []


def bets_lines(table: Snapshot, player: str) -> list[str]:
    mine = [w for w in table.bets if w.player == player]
    if not mine:
        return ["You have no bet down."]
    return [f"Your bet: {w.amount} chips." for w in mine]


def table_view(table: Snapshot, viewer: Viewer) -> list[str]:
    lines = [f"High card table {table.table}: bets {table.min_bet} to {table.max_bet}, "
             f"ties go to the {'house' if table.ties == 'house' else 'bettor (a push)'}."]
    for wager in table.bets:
        lines.append(f"  {wager.player}: {wager.amount} chips down.")
    if table.last is not None:
        lines.append(f"Last deal: house {rank(table.last.house)}, "
                     + ", ".join(f"{p} {rank(c)}" for p, c in table.last.cards) + ".")
    return lines


def rules_lines(table: Snapshot) -> list[str]:
    tie = "A tie goes to the house." if table.ties == "house" else "A tie is a push: the stake comes back."
    return ["High card: each bettor and the house draw one card of 2 to A.",
            f"A higher card than the house's pays 1:1. {tie}"]


def table_data(table: Snapshot) -> dict[str, object]:
    return {"bets": {w.player: w.amount for w in table.bets}}


def event_data(table: Snapshot, event: Event) -> list[tuple[str, dict[str, object], tuple[str, ...] | None]]:
    return []


VIEWS = Views(event_lines, table_view, rules_lines, table_data, event_data)

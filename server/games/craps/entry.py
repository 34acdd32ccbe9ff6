"""Bank craps in the catalogue: its words with their help, and its dealer."""
from __future__ import annotations

from server.config.model import TableConfig
from server.games.craps.dealer import ACTIONS, BankCrapsDealer
from server.games.craps.options import CRAPS_KEYS
from server.games.craps.help import PAYOUT_LINES, TOPICS
from server.games.seam import GameEntry, OddsSheet


def odds_sheet(table: TableConfig) -> OddsSheet:
    """`casino odds` for a bank craps table: every bet, by exact Markov chains."""
    from server.games.craps.edge import house_edges
    o = table.options
    odds = "3-4-5x (6x laid)" if o.odds == 0 else f"{o.odds}x"
    return OddsSheet(f"{table.id}: bank craps, odds {odds}, field 12 pays {o.field_12}:1, "
                     f"bets {table.min_bet}..{table.max_bet}", tuple(house_edges(table)))


BANK_CRAPS = GameEntry(
    key="bank_craps",
    title="Bank craps",
    phrase="bank craps",
    word="craps",
    game="craps",
    variant="bank",
    summary="everyone against the house; shooters take turns",
    actions=ACTIONS,
    keys=CRAPS_KEYS,
    make=BankCrapsDealer,
    help_lines=PAYOUT_LINES,
    odds=odds_sheet,
    topics=TOPICS,
)

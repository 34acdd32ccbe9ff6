"""Which GameTable plays each configured table."""
from __future__ import annotations

from typing import Any

from server.config.model import TableConfig


def make_game(config: TableConfig, tick_hz: int, seed: int | None) -> Any | None:
    """The GameTable for `config`, or None for a game not playable yet."""
    if config.game == "craps" and config.options.variant == "simplified":
        from server.tables.simplified import SimplifiedTable
        return SimplifiedTable(config, seed)
    if config.game == "craps":
        from server.tables.bank.table import BankCrapsTable
        return BankCrapsTable(config, tick_hz, seed)
    if config.game == "alley_craps":
        from server.tables.alley.table import AlleyTable
        return AlleyTable(config, tick_hz, seed)
    if config.game == "pig":
        from server.tables.pig import PigTable
        return PigTable(config, tick_hz, seed)
    return None

"""What `reload` asks of a running table, carried out when the table allows.

A changed config is taken live where the game can (new limits for new
wagers: Dealer.reconfigure); otherwise it waits until no stake is open, when a
new dealer is built for it at the same seats. A table removed from the config
takes no new games or wagers and closes, refunding what is left, once the
hand in play is over (as its game defines a hand). The table asks `settle`
after every input, so a waiting change happens on the first input that
finds the table ready.
"""
from __future__ import annotations

from typing import Protocol

from server.config.model import GameOptions, TableConfig
from server.games.seam import Event, Note
from server.tables.core import TableCore
from server.tables.money import Cashier

APPLIED_LIVE = "The operator changed this table's settings; they apply to new wagers now."
WAITS = "The operator changed this table's settings; they apply once no bets are live."
IN_EFFECT = "This table's new settings are in effect."
REMOVED = "This table has been removed: it closes after the current hand, refunding what is left. No new bets."
CLOSED = "This table is now closed."


class Changing(Protocol):
    """What a change needs of its table (server.tables.table.Table)."""

    @property
    def core(self) -> TableCore: ...
    @property
    def cashier(self) -> Cashier: ...
    async def apply(self, events: list[Event]) -> None: ...
    def install(self, config: TableConfig[GameOptions]) -> None: ...
    def tell_table(self, text: str) -> None: ...
    async def close_now(self) -> None: ...          # a removed table's hand is over: refund and close


class Changes:
    def __init__(self) -> None:
        self.retiring = False                       # removed from the config: closes when idle
        self.next_config: TableConfig[GameOptions] | None = None   # waits for the table to idle

    @property
    def waiting(self) -> bool:
        return self.retiring or self.next_config is not None

    async def reconfigure(self, table: Changing, config: TableConfig[GameOptions]) -> str:
        """A changed config: live where the game can take it, else once the table is idle."""
        if table.core.dealer.reconfigure(config):
            table.tell_table(APPLIED_LIVE)
            return "applied now"
        self.next_config = config
        await self.settle(table)
        if self.next_config is None:
            return "applied now (the table was idle)"
        table.tell_table(WAITS)
        return "applies when the table is idle"

    async def retire(self, table: Changing) -> None:
        """Removed from the config: no new games or wagers, then close once the hand is over."""
        self.retiring = True
        table.tell_table(REMOVED)
        await self.settle(table)

    async def settle(self, table: Changing) -> None:
        """Apply a waiting change if the table is idle now, or close a removed
        table once its current hand is over (refunding what is left)."""
        if self.retiring:
            if hand_over(table.core, table.cashier):
                await table.close_now()
            return
        if self.next_config is not None and table.cashier.at_rest:
            config, self.next_config = self.next_config, None
            table.install(config)
            for player in table.core.seating.names():
                await table.apply([e for e in table.core.dealer.seated(player, False)
                                   if isinstance(e, Note) and e.to])
            table.tell_table(IN_EFFECT)


def hand_over(core: TableCore, cashier: Cashier) -> bool:
    """Between hands, as the game defines them (a game in progress at Pig, a
    pass in play at alley craps, a point at bank craps), or, for a game that
    does not say, nothing at stake."""
    if cashier.pending:
        return False
    return core.dealer.between_hands(cashier.at_rest)

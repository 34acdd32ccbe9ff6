"""The ledger stakes behind the table bankrolls of an alley craps game.

The problem: chips move between players inside the game (Tony's fade becomes
Bill's), but a ledger stake is a fixed amount held from one wallet, and a
Settle can only close stakes and pay wallets from what they held (the rest
goes to the house, which must get nothing here). So the game never tries to
move chips between stakes pass by pass. Instead:

* At the start each player's buy-in is one Hold. From then on the open stakes
  together hold exactly the sum of the table bankrolls (chips only change
  hands inside the game), though no single stake matches its owner's bankroll.
* When chips must leave the table (a player with money leaves, the game ends,
  the table closes) one Settle closes EVERY open stake and pays each player
  concerned their bankroll; whoever stays at the table is paid too and held
  again at once for their bankroll (a fresh Hold, new key). Paid equals held,
  so the house nets exactly 0, and each stake ends exactly once.
* The same "pay out and re-hold" also follows every decided pass, so between
  passes each player's open stakes hold exactly their bankroll: a crash
  (kill -9) mid-game refunds each player their bankroll as of the last decided
  pass, not their buy-in. One Settle plus one Hold per player with chips.
* This "pay out and re-hold" happens only between passes, never while a pass
  is being faded or rolled, so a refused re-Hold (reported to the game by the
  table) simply means that player has left with their bankroll already in their
  wallet.

What was at risk: a Settle here closes whole bankrolls, though a pass put only
the shooter's covered action and each fade at risk. So each Settle names, in
its `risked`, the chips each player had at risk in the passes it settles
(`at_risk`, recorded as a pass is decided; usually one pass): the ledger counts
those, not the bankrolls, as the player's wagers (`stats`, `statement`, `top`).
A Settle that decides no pass (a leaver paid between passes, a game cancelled,
a table closed) names nobody: nothing was wagered in it.

Keys: `<game_id>:stake:<n>:<player>` for Holds, `<game_id>:settle:<n>` for
Settles; n counts up, so a retried intent is recognised by the ledger.
"""
from __future__ import annotations

from typing import Mapping

from server.games.intents import Hold, MoneyIntent, Settle


class Escrow:
    """Which stakes are open and what they hold; builds balanced intents."""

    def __init__(self, game_id: str) -> None:
        self._id = game_id
        self._open: dict[str, tuple[str, int]] = {}   # key -> (player, amount)
        self._holds = 0
        self._settles = 0
        self._risked: dict[str, int] = {}             # player -> chips at risk since the last Settle

    @property
    def total(self) -> int:
        """Chips held by the open stakes."""
        return sum(amount for _, amount in self._open.values())

    def hold(self, player: str, amount: int) -> Hold:
        """A new stake of `amount` from `player`'s wallet."""
        self._holds += 1
        key = f"{self._id}:stake:{self._holds}:{player}"   # ':stake:' is server.ledger.ops.BANKROLL_MARK
        self._open[key] = (player, amount)
        return Hold(key, player, amount)

    def holds_exactly(self, banks: Mapping[str, int]) -> bool:
        """Whether the open stakes hold each player's bankroll, no more, no less."""
        held: dict[str, int] = {}
        for player, amount in self._open.values():
            held[player] = held.get(player, 0) + amount
        return held == {p: a for p, a in banks.items() if a > 0}

    def at_risk(self, player: str, amount: int) -> None:
        """A decided pass had `amount` of `player`'s chips at risk (named by the next Settle)."""
        if amount > 0:
            self._risked[player] = self._risked.get(player, 0) + amount

    def drop(self, key: str) -> tuple[str, int] | None:
        """The ledger refused this Hold: the stake never existed."""
        return self._open.pop(key, None)

    def pay_out(self, pays: Mapping[str, int], rehold: Mapping[str, int]) -> list[MoneyIntent]:
        """Close every open stake, pay `pays` and `rehold` to wallets, hold `rehold` again.

        The amounts must add up to what the stakes hold: the house takes nothing.
        """
        total = sum(pays.values()) + sum(rehold.values())
        if total != self.total:
            raise AssertionError(f"pay-out of {total} does not match the {self.total} held")
        if not self._open:
            return []
        self._settles += 1
        paid = {**pays, **rehold}
        settle = Settle(f"{self._id}:settle:{self._settles}", tuple(self._open),
                        tuple((p, a) for p, a in paid.items() if a > 0), tuple(self._risked.items()))
        self._open.clear()
        self._risked.clear()
        return [settle, *(self.hold(p, a) for p, a in rehold.items() if a > 0)]

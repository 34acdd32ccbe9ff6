"""Money intents: what a game asks the table to do with chips.

A game never touches the ledger. It emits these alongside its facts; the table
applies them to the ledger in order and reports back. Every intent carries an
idempotency key unique within the table, so a retry never moves chips twice.

Stakes are named by their key: the key of the Hold that created a stake is the
stake's handle for the Settle, Refund or Forfeit that ends it.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Hold:
    """Move `amount` from `player`'s wallet to the table's pending account."""

    key: str
    player: str
    amount: int


@dataclass(frozen=True)
class Settle:
    """Close `stakes` and pay `pays` (player -> chips) to wallets.

    What the closed stakes held minus what is paid goes to the house; when the
    pays exceed the stakes the house pays the difference (bank craps wins).
    Player-versus-player games pay exactly what the stakes held. One Settle
    may close many players' stakes (bank craps settles a whole roll at once);
    a player's pays add up, and a pay of 0 names a player who gets nothing
    back (the ledger moves nothing for it; the table tells them if the
    settlement is pending recovery).

    `risked` (player -> chips) is what each player had at risk in what this
    settlement decides, when that is not what its stakes held: alley craps'
    escrow holds a whole table bankroll and settles it after every pass, though
    only the pass's fade was at risk (a player it does not name risked nothing:
    their bankroll came back untouched). None: the stakes are the wagers (every
    other game). The ledger counts `risked` as the wagers of the settlement in
    `stats`, `statement` and `top`.
    """

    key: str
    stakes: tuple[str, ...]
    pays: tuple[tuple[str, int], ...]
    risked: tuple[tuple[str, int], ...] | None = None


@dataclass(frozen=True)
class Refund:
    """Return a stake to its owner untouched (shutdown, removal, a push)."""

    key: str
    stake: str


@dataclass(frozen=True)
class Forfeit:
    """A stake goes to the house (a player disconnected with a live bet)."""

    key: str
    stake: str


MoneyIntent = Hold | Settle | Refund | Forfeit


class IntentKeys:
    """The idempotency keys of one table's intents, numbered from 1 under its
    id: `<table>:<n>`, or `<table>:<what><n>`. The table makes them unique
    across runs and across dealers of one run (a reload's new dealer) by its
    own prefix (Cashier.key), so a game only counts."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.count = 0

    def __call__(self, what: str = "") -> str:
        self.count += 1
        return f"{self.table_id}:{what}{self.count}"

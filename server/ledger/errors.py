"""What can go wrong with a ledger call, as the caller must tell it apart.

Three different stories reach a table, and each is told differently:
- `Refused` (and its kinds): the operation was judged and nothing moved; the
  bet is cancelled or the intent was wrong. Retrying unchanged is pointless.
- `KeyConflict`: a key was reused for a different operation, a programming
  error in the caller.
- `LedgerUnavailable`: the write could not be made durable. Nothing is known
  to be paid; the player hears "pending recovery", the stake stays held, and a
  retry with the same key (or the next start-up's recovery) resolves it.
"""
from __future__ import annotations


class LedgerError(Exception):
    """Base of every ledger error."""


class Refused(LedgerError):
    """The operation was judged and refused; nothing moved."""


class InsufficientFunds(Refused):
    """A wager larger than the wallet."""

    def __init__(self, player: str, amount: int, balance: int) -> None:
        super().__init__(f"insufficient funds: player={player} wanted={amount} balance={balance}")
        self.player = player
        self.amount = amount
        self.balance = balance


class UnknownStake(Refused):
    """A stake handle that is not an open hold of that table (unknown or already closed)."""


class UnknownPlayer(Refused):
    """A payment to a player who has no wallet."""


class NotOwned(Refused):
    """A wallet this shard does not own (another shard hosts its player): only its owner writes it."""


class Fenced(LedgerError):
    """A batch touched wallets another shard took meanwhile (their epoch moved on): rolled
    back, nothing moved. `lost` are those wallets' ids."""

    def __init__(self, lost: set[int]) -> None:
        super().__init__(f"{len(lost)} wallets were taken by another shard")
        self.lost = lost


class KeyConflict(LedgerError):
    """The same idempotency key was used for a different operation."""


class InvalidOperation(LedgerError, ValueError):
    """Arguments no ledger could accept (non-positive amount, empty table...)."""


class LedgerUnavailable(LedgerError):
    """The write failed: not durable, nothing reported as paid; retry or recover."""


class LedgerClosed(LedgerError):
    """The ledger was closed; no more operations are accepted."""

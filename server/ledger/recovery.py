"""What start-up recovery tells: the records it keeps and the notices players read.

Table state is not persisted, so at start-up every hold still open is closed:
a closing operation whose write failed but whose outcome was recorded
(`pending_outcomes`) is completed as recorded; every other open hold is
refunded. The store does the moving; this module words the results, so the
operator log and the player hear the same facts.
"""
from __future__ import annotations

from server.ledger.errors import LedgerError
from server.ledger.mirror import Closed
from server.ledger.ops import Kind, Op, Recovered

ACTION = {Kind.SETTLE: "settled", Kind.REFUND: "refunded", Kind.FORFEIT: "forfeited"}

Told = list[tuple[str, str]]   # (player, notice text)


def refund_notice(table: str, amount: int) -> str:
    return (f"Your stake of {amount} chips at table {table} was still open when the casino "
            f"stopped; it has been refunded to your wallet.")


def completed(op: Op, closed: Closed | LedgerError | None) -> tuple[list[Recovered], Told]:
    """Describe applying one recorded outcome: `closed` is what the store returned.

    A list of closed stakes means it was applied now; None means it had been
    applied already (nothing to tell); a refusal means it no longer fits (its
    stakes were closed another way) and was discarded.
    """
    table = op.table or ""
    if closed is None:
        return [], []
    if isinstance(closed, LedgerError):
        return [Recovered("discarded", table, ",".join(op.stakes), None, 0, op.key)], []
    action = ACTION[op.kind]
    done = [Recovered(action, table, handle, player, amount, op.key) for handle, player, amount in closed]
    staked: dict[str, int] = {}
    for _, player, amount in closed:
        staked[player] = staked.get(player, 0) + amount
    pays = dict(op.pays)
    told = []
    for player in sorted(set(staked) | set(pays)):
        if op.kind is Kind.SETTLE:
            text = (f"A settlement at table {table} was interrupted by a failure and has now been "
                    f"completed: your stakes {staked.get(player, 0)}, paid to you {pays.get(player, 0)}.")
        else:
            text = (f"Your stake of {staked[player]} chips at table {table} was {action} "
                    f"(recorded before a failure, completed at restart).")
        told.append((player, text))
    return done, told

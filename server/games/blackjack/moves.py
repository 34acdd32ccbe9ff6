"""Which decisions a hand allows, as one table of rules with their reasons.

Each row is a condition a move needs and the words a player reads when it
fails (h11 keeps its legal transitions in one table the same way), so the
engine, the table view's "you may: hit, stand, double" and the exact-money
test's random player all read the same rules. Money (whether the wallet
covers a double or a split) is the dealer's question, not this table's.
"""
from __future__ import annotations

import enum
from collections.abc import Callable

from .hands import Hand
from .options import BlackjackOptions


class Move(enum.StrEnum):
    HIT = "hit"
    STAND = "stand"
    DOUBLE = "double"
    SPLIT = "split"
    SURRENDER = "surrender"


Check = Callable[[Hand, int, BlackjackOptions], bool]       # the hand, the player's hand count, the rules


def _reason_max(o: BlackjackOptions) -> str:
    return f"this table plays at most {o.max_hands} hands a player" if o.max_hands > 1 \
        else "this table does not split"


RULES: dict[Move, tuple[tuple[Check, str | Callable[[BlackjackOptions], str]], ...]] = {
    Move.HIT: (
        (lambda h, n, o: not h.split_aces, "split aces take one card each"),
    ),
    Move.STAND: (),
    Move.DOUBLE: (
        (lambda h, n, o: len(h.cards) == 2, "you may double on your first two cards only"),
        (lambda h, n, o: not h.split_aces, "split aces take one card each"),
        (lambda h, n, o: not h.split or o.double_after_split, "this table does not double after a split"),
    ),
    Move.SPLIT: (
        (lambda h, n, o: h.pair, "a split needs two cards of the same rank"),
        (lambda h, n, o: n < o.max_hands, _reason_max),
        (lambda h, n, o: not h.split_aces or o.resplit_aces, "split aces are not split again at this table"),
    ),
    Move.SURRENDER: (
        (lambda h, n, o: o.surrender == "late", "this table offers no surrender"),
        (lambda h, n, o: len(h.cards) == 2 and not h.split,
         "you may surrender your first two cards only, before any split"),
    ),
}


def refusal(move: Move, hand: Hand, hands: int, options: BlackjackOptions) -> str | None:
    """Why `move` is not open to `hand` (one of `hands` the player has), or None."""
    for check, reason in RULES[move]:
        if not check(hand, hands, options):
            return reason if isinstance(reason, str) else reason(options)
    return None


def legal(hand: Hand, hands: int, options: BlackjackOptions) -> tuple[Move, ...]:
    """The moves open to `hand` now, in the order players read them."""
    return tuple(m for m in Move if refusal(m, hand, hands, options) is None)

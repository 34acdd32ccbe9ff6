"""Which of a player's wagers `unbet <target>` names.

A target is the wager's number as `bets` lists it (from 1), a bet's name
(`red`, `split 17 20`, `corner 18 20`: the same pockets however typed), a
kind alone (`split`: all of them), or `all`. A bare number is always a wager
number here; `unbet straight 17` names the bet on 17.
"""
from __future__ import annotations

from .bets import Bet, parse_target
from .events import Wager


def pick(mine: list[Wager], target: str | int) -> list[Wager] | str:
    """The wagers of `mine` the target names, or a one-line reason."""
    typed = " ".join(str(target).split()).casefold()
    if typed == "all":
        return list(mine)
    if typed.isascii() and typed.isdigit():
        i = int(typed[:6])
        if 1 <= i <= len(mine):
            return [mine[i - 1]]
        return f"you have no bet number {typed[:6]}; 'bets' lists your {len(mine)}"
    got = parse_target(typed)
    if isinstance(got, str):
        return got
    kind, pockets = got
    chosen = [w for w in mine if w.bet.kind is kind and (pockets is None or w.bet.numbers == pockets)]
    if not chosen:
        name = kind.value if pockets is None else Bet(kind, pockets, 1).name
        return f"you have no {name} bet on the layout"
    return chosen

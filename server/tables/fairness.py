"""`seed <text>` and `fair` at a table: who may mix in a client seed, and the
draws' commitment and revealed seeds (docs/fairness.md).

A table whose rolls are not the fair ones (classic dice) has its own source,
which answers both in their place.
"""
from __future__ import annotations

from server.dice.fair import FairDice
from server.dice.view import fair_lines
from server.games.seam import AnyDealer, GameEntry

# Players have no `casino` command of their own: `fair` says where the verifier is.
VERIFIER = ("'casino verify' is the casino command of this open-source server: install the server "
            "on your own computer and run it there (docs/fairness.md shows how). Or open the browser "
            "page's 'verify' link: it checks a seed in your browser, asking the server nothing.")
ROTATED = "The server seed was retired and revealed; a new one is committed."


def set_seed(dealer: AnyDealer, dice: FairDice, entry: GameEntry, player: str, text: str) -> str:
    """The answer to `seed <text>` from `player`: the client seed mixed into the
    next draws, if the game says this player may choose it."""
    who = dealer.seeder()
    if who != player:
        return (f"Only {who} may set the client seed now (the shooter, or the first seated)." if who
                else "Nobody may set the client seed now.")
    own = dealer.own_draws()
    if own is not None:
        return own.take_seed(text)
    problem = dice.set_client_seed(text)
    return problem or (f"Client seed set to '{dice.client_seed}'. The next draw of the "
                       f"{entry.draws.name} uses nonce {dice.nonce}.")


def fair_text(dealer: AnyDealer, dice: FairDice, entry: GameEntry) -> list[str] | None:
    """What `fair` says of a table's own source, or None when its draws are the fair ones."""
    own = dealer.own_draws()
    return own.fair_lines() if own is not None else None


def fair_draws(dice: FairDice, entry: GameEntry) -> list[str]:
    """The fair draws' commitment and revealed seeds, and where to verify them."""
    return [*fair_lines(dice, entry.draws), VERIFIER]

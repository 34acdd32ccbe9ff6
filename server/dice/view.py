"""The `fair` view: what a player needs to check a table's draws, as text lines.

Plain lines (no colour) of at most 80 columns (a client seed of 64
characters included), so the telnet command can print them as they are and a
player can copy a seed into `casino verify`. Narrower, the session's `fit`
puts each 64-digit seed whole on a line of its own, without indent and wider
than the screen, which the client wraps softly: a copied seed is one token at
every width (issue 38 item 15; docs/fairness.md). A client seed may hold
spaces, so it is glued: `fit` never breaks a line inside it.

Every draw is named by the table's DrawKind (server.dice.kinds): dice
tables read as they always have; draws of another size (a wheel's draw(37))
carry the `--draw n` a player must pass to verify them.
"""
from __future__ import annotations

from server.dice.derive import DICE_OUTCOMES
from server.dice.fair import FairDice, Revealed
from server.dice.kinds import DICE, SHARED, DrawKind, plain
from server.render.width import glue

SHOW_REVEALED = 5
_VERIFY = "casino verify --server-seed S --client-seed C --nonce N"


def _whole(seed: str) -> str:
    """A client seed as one group `fit` never breaks (it may hold spaces)."""
    return glue(*seed.split(" "))


def kind_of(n: int, kinds: tuple[DrawKind, ...] = ()) -> DrawKind:
    """The kind that draws `n` outcomes: one of `kinds`, a shared one, or plain."""
    for kind in (*kinds, *SHARED):
        if kind.outcomes == n:
            return kind
    return plain(n)


def draw_line(nonce: int, n: int, value: int, kinds: tuple[DrawKind, ...] = ()) -> str:
    """One draw as `casino verify` prints it: dice with their total, a wheel's pocket."""
    return kind_of(n, kinds).line(nonce, value)


def _segments(r: Revealed) -> str:
    if not r.client_seeds:
        return "no rolls"
    parts = []
    for i, (first, seed) in enumerate(r.client_seeds):
        last = r.client_seeds[i + 1][0] - 1 if i + 1 < len(r.client_seeds) else r.rolls - 1
        span = f"nonce {first}" if first == last else f"nonces {first}-{last}"
        quoted = _whole("'" + seed + "'")
        parts.append(f"client seed {quoted} {span}")
    return ", ".join(parts)


def _served(r: Revealed, kinds: tuple[DrawKind, ...]) -> str:
    """What a retired seed served: rolls as before, other draws with their --draw."""
    shuffle = next((k for k in kinds if k.rebuild is not None), None)
    if shuffle is not None and len(r.sizes) > 2:
        return f"{r.rolls} draws, {shuffle.name} shuffles (--draw {shuffle.name}): {_segments(r)}"
    if r.sizes in ((), (DICE_OUTCOMES,)):
        return f"{r.rolls} roll(s): {_segments(r)}"
    noun = kind_of(r.sizes[0], kinds).one if len(r.sizes) == 1 else "draw"
    sizes = " or ".join(str(n) for n in r.sizes)
    return f"{r.rolls} {noun}(s) (--draw {sizes}): {_segments(r)}"


def _check_lines(sizes: set[int], kinds: tuple[DrawKind, ...]) -> list[str]:
    """How to verify: the dice line unless the table only drew other sizes.

    A size without a noun drops "a ..." so even --draw 4294967296 fits 80 columns.
    """
    others = sorted(sizes - {DICE_OUTCOMES})
    lines = [] if others and DICE_OUTCOMES not in sizes else [f"Check a roll: {_VERIFY}"]
    for n in others:
        one = kind_of(n, kinds).one
        prefix = f"Check a {one}" if one != "draw" else "Check"
        lines.append(f"{prefix}: {_VERIFY} --draw {n}")
    return lines


def fair_lines(dice: FairDice, kind: DrawKind = DICE, show_revealed: int = SHOW_REVEALED) -> list[str]:
    """The `fair` command's output for one table's draws, named by its kind
    ("dice", "wheel"). A table rolling from its own source (classic dice)
    says what that source is instead."""
    what, kinds = kind.name, (kind,)
    lines = [
        f"Provably fair {what} at table {dice.table_id}.",
        "Server seed commitment (SHA-256):",
        f"  {dice.commitment}",
        f"Client seed: {_whole(dice.client_seed)}",
        f"Next nonce: {dice.nonce}   (set your client seed with: seed <text>)",
    ]
    if dice.deterministic:
        lines.append(f"deterministic: {what} derived from --seed {dice.seed}")
    revealed = dice.revealed[:show_revealed]
    if not revealed:
        lines.append("No server seed revealed yet; a seed is revealed when it is retired.")
    else:
        lines.append("Revealed server seeds, newest first:")
        for r in revealed:
            lines.append(f"  {r.server_seed}")
            lines.append(f"    commitment {r.commitment}")
            lines.append(f"    {_served(r, kinds)}")
    if kind.rebuild is not None:          # a whole shuffle: rebuilt at once, not draw by draw
        lines.append(f"Check a {kind.name}: {_VERIFY} --draw {kind.name} --decks D")
        return lines
    # Before any draw, how the table's own kind is checked.
    sizes = {r.n for r in dice.rolls}.union(*(r.sizes for r in revealed)) or {kind.outcomes}
    lines.extend(_check_lines(sizes, kinds))
    return lines

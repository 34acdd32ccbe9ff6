"""The `fair` view: what a player needs to check a table's dice, as text lines.

Plain lines (no colour) of at most 80 columns (a client seed of 64
characters included), so the telnet command can print them as they are and a
player can copy a seed into `casino verify`.
"""
from __future__ import annotations

from server.dice.fair import FairDice, Revealed

SHOW_REVEALED = 5


def _segments(r: Revealed) -> str:
    if not r.client_seeds:
        return "no rolls"
    parts = []
    for i, (first, seed) in enumerate(r.client_seeds):
        last = r.client_seeds[i + 1][0] - 1 if i + 1 < len(r.client_seeds) else r.rolls - 1
        span = f"nonce {first}" if first == last else f"nonces {first}-{last}"
        parts.append(f"client seed '{seed}' {span}")
    return ", ".join(parts)


def fair_lines(dice: FairDice, show_revealed: int = SHOW_REVEALED) -> list[str]:
    """The `fair` command's output for one table's dice."""
    lines = [
        f"Provably fair dice at table {dice.table_id}.",
        "Server seed commitment (SHA-256):",
        f"  {dice.commitment}",
        f"Client seed: {dice.client_seed}",
        f"Next nonce: {dice.nonce}   (set your client seed with: seed <text>)",
    ]
    if dice.deterministic:
        lines.append(f"deterministic: dice derived from --seed {dice.seed}")
    revealed = dice.revealed[:show_revealed]
    if not revealed:
        lines.append("No server seed revealed yet; a seed is revealed when it is retired.")
    else:
        lines.append("Revealed server seeds, newest first:")
        for r in revealed:
            lines.append(f"  {r.server_seed}")
            lines.append(f"    commitment {r.commitment}")
            lines.append(f"    {r.rolls} roll(s): {_segments(r)}")
    lines.append("Check a roll: casino verify --server-seed S --client-seed C --nonce N")
    return lines

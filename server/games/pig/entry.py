"""Pig (spec 003) in the catalogue: first to the target, against the computer or each other."""
from __future__ import annotations

from server.games.pig.dealer import ACTIONS, make
from server.games.pig.options import PIG_KEYS
from server.games.seam import GameEntry

PIG = GameEntry(
    key="pig",
    title="Pig",
    phrase="Pig",
    word="pig",
    game="pig",
    variant=None,
    summary="first to 100; against the computer or each other",
    actions=ACTIONS,
    keys=PIG_KEYS,
    make=make,
    help_lines=(
        "A 1 loses your round score; double 1s lose your whole score too. 'table rules' has the rest.",
        "Stakes and what they pay: games against the computer are free; among players, where the",
        "  table has a stake, everyone antes it and the winner takes the whole pot. No house cut.",
    ),
)

"""Pig (spec 003) in the catalogue: first to the target, against the computer or each other."""
from __future__ import annotations

from server.games.pig.dealer import PigDealer
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
    words_old={
        "start": "start - begin a game of Pig: alone you play the computer; with others who are ready, you play each other.",
        "ready": "ready - play in the next game (after a game ends, or if you sat down during one).",
        "roll": "roll - on your turn, roll both dice once and add them to your round score.",
        "hold": "hold - on your turn, bank your round score and pass the dice.",
    },
    keys=PIG_KEYS,
    make=PigDealer,
    help_lines=(
        "A 1 loses your round score; double 1s lose your whole score too. 'table rules' has the rest.",
        "Stakes and what they pay: games against the computer are free; among players, where the",
        "  table has a stake, everyone antes it and the winner takes the whole pot. No house cut.",
    ),
    opening_old=("start",),
)

"""What a blackjack table draws, for `fair`, `casino verify` and GMCP: a shoe.

One shuffle is many draws (swap i of the Fisher-Yates is a draw in
[0, i + 1)), so the kind carries `rebuild`: given the revealed seeds, the
first nonce and the decks, the whole shoe in dealing order, numbered, so a
player finds card k of the shoe on line k and can check every card dealt.
"""
from __future__ import annotations

from server.dice.kinds import DrawKind, Faces
from server.render.prefs import Prefs

from .cards import DECK, Card
from .shoe import rebuild

PER_LINE = 10


def shoe_lines(server_seed: str, client_seed: str, nonce: int, decks: int) -> list[str]:
    """The shoe a seed shuffled, ten cards a line, numbered from the first card dealt."""
    order = rebuild(server_seed, client_seed, decks, nonce)
    lines = [f"shoe of {decks} deck{'s' if decks != 1 else ''} ({len(order)} cards) from nonce {nonce} "
             f"to {nonce + len(order) - 2}, in the order dealt:"]
    for i in range(0, len(order), PER_LINE):
        row = " ".join(c.name.rjust(4) for c in order[i:i + PER_LINE])
        lines.append(f"{i + 1:4}: {row}")
    return lines


def _say(faces: Faces) -> str:
    return " ".join(Card.of(f).name for f in faces)


def _art(faces: Faces, prefs: Prefs) -> list[str]:
    return ["  " + " ".join(Card.of(f).shown(prefs.unicode) for f in faces)]


SHOE = DrawKind("shoe", "shuffle", DECK, lambda v: (v,), _say, _art, count=1, low=0, high=DECK - 1,
                rebuild=shoe_lines)

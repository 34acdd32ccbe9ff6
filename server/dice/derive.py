"""The provably-fair derivation: (server seed, client seed, nonce, n) -> [0, n).

This module is the whole algorithm, so docs/fairness.md and `casino verify`
can point at one place. It is deliberately small and uses only the standard
library, so anyone can re-implement it in another language:

1. key    = the server seed's text as UTF-8 bytes (the 64 hex characters, not
            the 32 bytes they spell).
2. block0 = HMAC-SHA256(key, "<client_seed>:<nonce>")        (UTF-8, nonce in
   blockK = HMAC-SHA256(key, "<client_seed>:<nonce>:<K>")     decimal, K >= 1)
   The byte stream is block0 || block1 || block2 ... (block K is only
   computed when all earlier bytes were rejected).
3. A draw in [0, n), 2 <= n <= 2**32, is rejection sampling on that stream:
   - n <= 256: take single bytes b; the first b < 256 - 256 mod n gives b mod n.
   - n > 256: take 4-byte big-endian words w (bytes 0-3, 4-7, ... of the
     stream); the first w < 2**32 - 2**32 mod n gives w mod n.
   The bound is the largest multiple of n the unit can hold, so every value
   in [0, n) is hit by the same number of byte (word) values: no modulo bias.
4. Two dice are draw(36) split: v = draw(36); die1 = v div 6 + 1;
   die2 = v mod 6 + 1 (the bound is 252 = 7 * 36). The single-zero wheel is
   draw(37), the pocket number itself (the bound is 222 = 6 * 37).

A byte is rejected with probability (256 mod n) / 256 (4/256 for dice,
34/256 for the wheel), so a draw almost always uses the first byte.

The commitment published before a server seed is used is
SHA-256(UTF-8 server seed text), lower-case hex.
"""
from __future__ import annotations

import hashlib
import hmac
import itertools
from typing import Iterable, Iterator

from server.dice.source import Dice

DICE_OUTCOMES = 36      # two dice: draw(36) split by split_dice
WHEEL_POCKETS = 37      # single-zero wheel: draw(37) is the pocket, 0..36
MIN_DRAW = 2
MAX_DRAW = 2 ** 32
BYTE_DRAW_MAX = 256     # up to here a draw takes single bytes, above it words
WORD_BYTES = 4


def commitment(server_seed: str) -> str:
    """The SHA-256 hex of a server seed: what the table shows before using it."""
    return hashlib.sha256(server_seed.encode("utf-8")).hexdigest()


def deterministic_server_seed(seed: int, table_id: str, index: int) -> str:
    """Server seed number `index` of a table under `casino serve --seed N`.

    HMAC-SHA256(key=str(N), msg="<table_id>:<index>") as lower-case hex, so
    every table gets its own reproducible sequence of seeds from one number.
    """
    msg = f"{table_id}:{index}".encode("utf-8")
    return hmac.new(str(seed).encode("utf-8"), msg, hashlib.sha256).hexdigest()


def accept_below(n: int) -> int:
    """The rejection bound of a draw in [0, n): units (bytes or words) below it are used.

    It is the largest multiple of n that a byte (n <= 256) or a 4-byte word
    (n > 256) can hold, so each value is hit equally often. A ValueError for
    n outside 2..2**32 keeps a caller's mistake from becoming a biased draw.
    """
    if not MIN_DRAW <= n <= MAX_DRAW:
        raise ValueError(f"a draw needs {MIN_DRAW} <= n <= 2**32, not {n}")
    span = 256 if n <= BYTE_DRAW_MAX else 2 ** 32
    return span - span % n


def draw_from_bytes(stream: Iterable[int], n: int) -> int:
    """The draw in [0, n) from a byte stream (step 3): the reference rejection loop."""
    bound = accept_below(n)
    units: Iterable[int] = stream
    if n > BYTE_DRAW_MAX:
        it = iter(stream)
        # zip of one iterator 4 times: consecutive, non-overlapping 4-byte groups.
        units = (int.from_bytes(bytes(w), "big") for w in zip(*[it] * WORD_BYTES))
    for u in units:
        if u < bound:
            return u % n
    raise ValueError("byte stream ended before an acceptable byte")


# The two dice of each value of draw(36), precomputed: the hot path of FairDice.
_DICE: tuple[Dice, ...] = tuple((v // 6 + 1, v % 6 + 1) for v in range(DICE_OUTCOMES))


def split_dice(value: int) -> Dice:
    """The two dice of a draw(36) value (step 4): 6 * 6 values, one per ordered pair."""
    return _DICE[value]


def dice_from_bytes(stream: Iterable[int]) -> Dice:
    """Two dice from a byte stream: draw(36) of it, split."""
    return _DICE[draw_from_bytes(stream, DICE_OUTCOMES)]


def byte_stream(server_seed: str, client_seed: str, nonce: int) -> Iterator[int]:
    """The (endless) byte stream of step 2 for one draw."""
    key = server_seed.encode("utf-8")
    base = f"{client_seed}:{nonce}"
    yield from hmac.digest(key, base.encode("utf-8"), "sha256")
    counter = 1
    while True:
        yield from hmac.digest(key, f"{base}:{counter}".encode("utf-8"), "sha256")
        counter += 1


class Deriver:
    """Derives draws for one server seed quickly (the HMAC key is prepared once).

    Same results as `draw` and `derive_roll`; it exists because a table draws
    many times under one seed and the statistical tests derive a million rolls.
    """

    def __init__(self, server_seed: str) -> None:
        self.server_seed = server_seed
        self._mac = hmac.new(server_seed.encode("utf-8"), digestmod=hashlib.sha256)

    def draw(self, client_seed: str, nonce: int, n: int) -> int:
        """Draw `nonce` in [0, n) under `client_seed` (step 3)."""
        bound = accept_below(n)
        mac = self._mac.copy()
        mac.update(f"{client_seed}:{nonce}".encode("utf-8"))
        block0 = mac.digest()
        if n <= BYTE_DRAW_MAX:
            for b in block0:
                if b < bound:
                    return b % n
        # Words, or every byte of block0 rejected: the reference loop over the
        # whole stream (extension blocks are only computed when reached).
        return draw_from_bytes(itertools.chain(block0, _extension(self._mac, client_seed, nonce)), n)

    def roll(self, client_seed: str, nonce: int) -> Dice:
        """Roll `nonce` under `client_seed`: draw(36) split into two dice."""
        return _DICE[self.draw(client_seed, nonce, DICE_OUTCOMES)]


def _extension(mac: "hmac.HMAC", client_seed: str, nonce: int) -> Iterator[int]:
    counter = 1
    while True:
        m = mac.copy()
        m.update(f"{client_seed}:{nonce}:{counter}".encode("utf-8"))
        yield from m.digest()
        counter += 1


def draw(server_seed: str, client_seed: str, nonce: int, n: int) -> int:
    """Draw `nonce` in [0, n) under (server seed, client seed): the reference."""
    return draw_from_bytes(byte_stream(server_seed, client_seed, nonce), n)


def derive_roll(server_seed: str, client_seed: str, nonce: int) -> Dice:
    """The dice of roll `nonce` under (server seed, client seed): draw(36) split."""
    return _DICE[draw(server_seed, client_seed, nonce, DICE_OUTCOMES)]


def derive_draws(server_seed: str, client_seed: str, first_nonce: int, count: int, n: int) -> list[int]:
    """`count` consecutive draws in [0, n) from `first_nonce` on (for `casino verify --count`)."""
    deriver = Deriver(server_seed)
    return [deriver.draw(client_seed, k, n) for k in range(first_nonce, first_nonce + count)]


def derive_rolls(server_seed: str, client_seed: str, first_nonce: int, count: int) -> list[Dice]:
    """`count` consecutive rolls from `first_nonce` on: derive_draws of 36, split."""
    return [_DICE[v] for v in derive_draws(server_seed, client_seed, first_nonce, count, DICE_OUTCOMES)]

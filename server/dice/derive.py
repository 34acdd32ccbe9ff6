"""The provably-fair derivation: (server seed, client seed, nonce) -> two dice.

This module is the whole algorithm, so docs/fairness.md and `casino verify`
can point at one place. It is deliberately small and uses only the standard
library, so anyone can re-implement it in another language:

1. key    = the server seed's text as UTF-8 bytes (the 64 hex characters, not
            the 32 bytes they spell).
2. block0 = HMAC-SHA256(key, "<client_seed>:<nonce>")        (UTF-8, nonce in
   blockK = HMAC-SHA256(key, "<client_seed>:<nonce>:<K>")     decimal, K >= 1)
   The byte stream is block0 || block1 || block2 ... (block K is only
   computed when all earlier bytes were rejected).
3. Take the first byte b of the stream with b < 252 (252 = 7 * 36, so every
   one of the 36 outcomes has exactly 7 byte values: no modulo bias).
4. v = b mod 36; die1 = v div 6 + 1; die2 = v mod 6 + 1.

Rejection happens with probability 4/256 per byte, so one roll almost always
uses the first byte; block1 is needed with probability (4/256)**32.

The commitment published before a server seed is used is
SHA-256(UTF-8 server seed text), lower-case hex.
"""
from __future__ import annotations

import hashlib
import hmac
from typing import Iterable, Iterator

from server.dice.source import Dice

ACCEPT_BELOW = 252      # 7 * 36: bytes 252..255 are rejected
OUTCOMES = 36


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


def dice_from_bytes(stream: Iterable[int]) -> Dice:
    """Two dice from the first acceptable byte of `stream` (step 3 and 4)."""
    for b in stream:
        if b < ACCEPT_BELOW:
            v = b % OUTCOMES
            return (v // 6 + 1, v % 6 + 1)
    raise ValueError("byte stream ended before an acceptable byte")


def byte_stream(server_seed: str, client_seed: str, nonce: int) -> Iterator[int]:
    """The (endless) byte stream of step 2 for one roll."""
    key = server_seed.encode("utf-8")
    base = f"{client_seed}:{nonce}"
    yield from hmac.digest(key, base.encode("utf-8"), "sha256")
    counter = 1
    while True:
        yield from hmac.digest(key, f"{base}:{counter}".encode("utf-8"), "sha256")
        counter += 1


# Dice for each accepted byte value, precomputed: the hot path of FairDice.
_BYTE_DICE: tuple[Dice | None, ...] = tuple(
    ((b % OUTCOMES) // 6 + 1, (b % OUTCOMES) % 6 + 1) if b < ACCEPT_BELOW else None
    for b in range(256)
)


class Deriver:
    """Derives rolls for one server seed quickly (the HMAC key is prepared once).

    Same results as `derive_roll`; it exists because a table rolls many times
    under one seed and the statistical test derives a million rolls.
    """

    def __init__(self, server_seed: str) -> None:
        self.server_seed = server_seed
        self._mac = hmac.new(server_seed.encode("utf-8"), digestmod=hashlib.sha256)

    def roll(self, client_seed: str, nonce: int) -> Dice:
        mac = self._mac.copy()
        mac.update(f"{client_seed}:{nonce}".encode("utf-8"))
        for b in mac.digest():
            dice = _BYTE_DICE[b]
            if dice is not None:
                return dice
        # Every byte of block0 rejected: continue with the extension blocks.
        return dice_from_bytes(_extension(self._mac, client_seed, nonce))


def _extension(mac: "hmac.HMAC", client_seed: str, nonce: int) -> Iterator[int]:
    counter = 1
    while True:
        m = mac.copy()
        m.update(f"{client_seed}:{nonce}:{counter}".encode("utf-8"))
        yield from m.digest()
        counter += 1


def derive_roll(server_seed: str, client_seed: str, nonce: int) -> Dice:
    """The dice of roll `nonce` under (server seed, client seed): the reference."""
    return dice_from_bytes(byte_stream(server_seed, client_seed, nonce))


def derive_rolls(server_seed: str, client_seed: str, first_nonce: int, count: int) -> list[Dice]:
    """`count` consecutive rolls from `first_nonce` on (for `casino verify --count`)."""
    deriver = Deriver(server_seed)
    return [deriver.roll(client_seed, n) for n in range(first_nonce, first_nonce + count)]

"""The general draw in [0, n): rejection bounds, bytes vs words, dice equivalence."""
from __future__ import annotations

import hmac

import pytest

from server.dice.derive import (
    Deriver,
    accept_below,
    derive_draws,
    derive_roll,
    draw,
    draw_from_bytes,
    split_dice,
)

SEED = "3f1e4b5c0f2a9d8e7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928170f6e"


def old_roll(server_seed: str, client_seed: str, nonce: int) -> tuple[int, int]:
    # The dice-only algorithm as published before the general draw, verbatim.
    key, base, k = server_seed.encode(), f"{client_seed}:{nonce}", 0
    while True:
        msg = base if k == 0 else f"{base}:{k}"
        for b in hmac.digest(key, msg.encode(), "sha256"):
            if b < 252:
                v = b % 36
                return v // 6 + 1, v % 6 + 1
        k += 1


def word(value: int) -> list[int]:
    return list(value.to_bytes(4, "big"))


def test_bounds_are_the_largest_multiple_of_n():
    assert accept_below(2) == 256
    assert accept_below(36) == 252          # 7 * 36
    assert accept_below(37) == 222          # 6 * 37
    assert accept_below(256) == 256
    assert accept_below(257) == 2 ** 32 - 2 ** 32 % 257
    assert accept_below(1000) == 4_294_967_000
    assert accept_below(2 ** 32) == 2 ** 32


@pytest.mark.parametrize("n", [0, 1, -5, 2 ** 32 + 1])
def test_n_out_of_range_refused(n):
    with pytest.raises(ValueError):
        accept_below(n)
    with pytest.raises(ValueError):
        draw(SEED, "table", 0, n)
    with pytest.raises(ValueError):
        Deriver(SEED).draw("table", 0, n)


def test_wheel_rejects_bytes_from_222():
    assert draw_from_bytes([222, 223, 255, 221], 37) == 221 % 37 == 36
    assert draw_from_bytes([221], 37) == 36
    assert draw_from_bytes([0], 37) == 0
    assert draw_from_bytes([37], 37) == 0
    with pytest.raises(ValueError):
        draw_from_bytes([222, 255], 37)


def test_every_pocket_has_exactly_six_bytes():
    counts = [0] * 37
    for b in range(accept_below(37)):
        counts[draw_from_bytes([b], 37)] += 1
    assert counts == [6] * 37


def test_n_2_and_256_use_every_byte():
    assert [draw_from_bytes([b], 2) for b in (0, 1, 254, 255)] == [0, 1, 0, 1]
    assert [draw_from_bytes([b], 256) for b in (0, 17, 255)] == [0, 17, 255]


def test_large_n_takes_big_endian_words():
    assert draw_from_bytes([0, 0, 0x03, 0xE9], 1000) == 1001 % 1000 == 1
    assert draw_from_bytes(word(4_294_966_999), 1000) == 999       # bound - 1: kept
    assert draw_from_bytes(word(4_294_967_000) + word(7), 1000) == 7  # bound: skipped
    assert draw_from_bytes([0xFF] * 4 + word(258), 257) == 1
    assert draw_from_bytes([0xFF] * 4, 2 ** 32) == 2 ** 32 - 1     # nothing rejected
    # 3 * 2**30 rejects a quarter of all words, 0xc0000000 being the first.
    assert draw_from_bytes(word(3 * 2 ** 30) + word(5), 3 * 2 ** 30) == 5
    with pytest.raises(ValueError):                                 # no partial word
        draw_from_bytes([0xFF] * 4 + [0, 0, 1], 1000)


def test_large_n_words_follow_the_stream():
    key = SEED.encode()
    block0 = hmac.digest(key, b"alice:4", "sha256")
    first = int.from_bytes(block0[:4], "big")
    assert first < accept_below(1_000_000)
    assert draw(SEED, "alice", 4, 1_000_000) == first % 1_000_000
    assert Deriver(SEED).draw("alice", 4, 1_000_000) == first % 1_000_000


def test_dice_are_draw_36_split():
    deriver = Deriver(SEED)
    for nonce in range(2000):
        expected = old_roll(SEED, "eq", nonce)
        assert split_dice(draw(SEED, "eq", nonce, 36)) == expected
        assert split_dice(deriver.draw("eq", nonce, 36)) == expected
        assert deriver.roll("eq", nonce) == expected
    assert derive_roll(SEED, "table", 127) == old_roll(SEED, "table", 127) == (3, 5)
    assert sorted(split_dice(v) for v in range(36)) == [(a, b) for a in range(1, 7) for b in range(1, 7)]


def test_deriver_matches_reference_for_many_n():
    deriver = Deriver(SEED)
    for n in (2, 3, 36, 37, 100, 255, 256, 257, 1000, 10 ** 9, 3 * 2 ** 30, 2 ** 32):
        got = [deriver.draw("many", k, n) for k in range(200)]
        assert got == [draw(SEED, "many", k, n) for k in range(200)]
        assert got == derive_draws(SEED, "many", 0, 200, n)
        assert all(0 <= v < n for v in got)


@pytest.mark.parametrize("n", [37, 1000])
def test_draw_follows_extension_when_block0_all_rejected(monkeypatch, n):
    # 32 rejected bytes (8 rejected words) cannot be found by search, so fake
    # block0's digest and check both code paths continue into block1.
    expected = draw_from_bytes(hmac.digest(SEED.encode(), b"x:0:1", "sha256"), n)
    all_rejected = bytes([255] * 32)
    orig_digest = hmac.digest

    def fake_digest(key, msg, digest):
        return all_rejected if msg == b"x:0" else orig_digest(key, msg, digest)

    monkeypatch.setattr(hmac, "digest", fake_digest)
    assert draw(SEED, "x", 0, n) == expected

    class FakeMac:
        def __init__(self, inner):
            self.inner, self.msg = inner, b""

        def copy(self):
            return FakeMac(self.inner.copy())

        def update(self, data):
            self.msg += data
            self.inner.update(data)

        def digest(self):
            return all_rejected if self.msg == b"x:0" else self.inner.digest()

    d = Deriver(SEED)
    d._mac = FakeMac(d._mac)
    assert d.draw("x", 0, n) == expected


def test_n_256_is_the_first_byte_of_block0():
    assert draw(SEED, "table", 0, 256) == hmac.digest(SEED.encode(), b"table:0", "sha256")[0]

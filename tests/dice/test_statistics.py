"""Derived draws are uniform (chi-square): a million rolls over the 36 dice
outcomes, and wheel draws over the 37 pockets.

Deterministic: fixed seeds, so it passes or fails the same way every run. At
p = 0.001 the critical value is 66.62 with 35 degrees of freedom (dice) and
67.99 with 36 (the wheel).
"""
from __future__ import annotations

from collections import Counter

from server.dice.derive import Deriver

CRITICAL_35DF_P001 = 66.62
CRITICAL_36DF_P001 = 67.99
N = 1_000_000
N_WHEEL = 200_000       # keeps the test well under a second; see the bias check


def chi_square(counts: Counter, n: int, cells: int) -> float:
    expected = n / cells
    return sum((counts.get(c, 0) - expected) ** 2 / expected for c in range(cells))


def test_million_rolls_uniform():
    deriver = Deriver("5b0c1f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa9988")
    roll = deriver.roll
    counts = Counter((d1 - 1) * 6 + (d2 - 1) for d1, d2 in map(roll, ["stats"] * N, range(N)))
    assert sum(counts.values()) == N
    assert len(counts) == 36
    stat = chi_square(counts, N, 36)
    assert stat < CRITICAL_35DF_P001, stat
    # Totals too: sevens are 6/36 of rolls, within 5 standard deviations.
    sevens = sum(counts[(a - 1) * 6 + (7 - a - 1)] for a in range(1, 7))
    sd = (N * (6 / 36) * (30 / 36)) ** 0.5
    assert abs(sevens - N / 6) < 5 * sd


def test_chi_square_detects_bias():
    # The bound is not vacuous: a plain "byte mod 36" without rejection over
    # all 256 byte values is biased and fails it at this sample size.
    per_byte = N // 256
    counts = Counter({v: per_byte * sum(1 for b in range(256) if b % 36 == v) for v in range(36)})
    n = sum(counts.values())
    assert chi_square(counts, n, 36) > CRITICAL_35DF_P001


def test_wheel_draws_uniform():
    deriver = Deriver("5b0c1f0e9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa9988")
    counts = Counter(map(deriver.draw, ["wheel"] * N_WHEEL, range(N_WHEEL), [37] * N_WHEEL))
    assert sum(counts.values()) == N_WHEEL
    assert set(counts) == set(range(37))
    stat = chi_square(counts, N_WHEEL, 37)
    assert stat < CRITICAL_36DF_P001, stat


def test_wheel_chi_square_detects_bias():
    # At N_WHEEL draws the bound still catches "byte mod 37" without rejection
    # (pockets 34-36 get 6 of 256 byte values, the others 7): about 310 > 67.99.
    counts = Counter({v: sum(1 for b in range(256) if b % 37 == v) for v in range(37)})
    scaled = Counter({v: c * N_WHEEL / 256 for v, c in counts.items()})
    assert chi_square(scaled, N_WHEEL, 37) > CRITICAL_36DF_P001

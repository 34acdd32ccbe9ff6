"""The classic C generators (server/dice/classic.py) against known values of their own.

Each expected value says where it comes from; none is computed by the code
under test. 002's runs themselves are replayed over telnet in
tests/e2e/test_classic_runs.py.
"""
from __future__ import annotations

import pytest

from server.dice.classic import (
    ClassicDice, ClassicSource, GlibcRandom, MacRand, MsvcRand, parse_seed)


def first(generator, n):
    return [generator.rand() for _ in range(n)]


# --- Microsoft C rand() ---------------------------------------------------------
def test_msvc_rand_after_srand_1():
    # The well-known first outputs of rand() with the Microsoft C runtime after
    # srand(1) (the default seed): 41, 18467, 6334, 26500, ...
    assert first(MsvcRand(1), 10) == [41, 18467, 6334, 26500, 19169, 15724, 11478, 29358, 26962, 24464]


def test_msvc_stays_below_rand_max_and_wraps_its_32_bit_state():
    g = MsvcRand(2**32 - 1)          # srand takes an unsigned int: the largest seed
    values = first(g, 1000)
    assert all(0 <= v <= 0x7FFF for v in values)
    # x1 = (4294967295 * 214013 + 2531011) mod 2^32 = 2316998 -> 2316998 >> 16 = 35
    assert values[0] == 35
    assert MsvcRand(2**32 + 5).state == MsvcRand(5).state


# --- the BSD minimal standard rand() (a Mac) -------------------------------------
def test_minimal_standard_after_seed_1():
    # Park and Miller's "minimal standard" (CACM 31(10), 1988): 16807^k mod 2^31-1
    # from seed 1; the same sequence as C++'s std::minstd_rand0.
    assert first(MacRand(1), 10) == [16807, 282475249, 1622650073, 984943658, 1144108930,
                                     470211272, 101027544, 1457850878, 1458777923, 2007237709]


def test_minimal_standard_10000th_value():
    # Park and Miller's check, and the C++ standard's for minstd_rand0 ([rand.predef]):
    # seeded with 1, the 10000th value is 1043618065.
    g = MacRand(1)
    for _ in range(9999):
        g.rand()
    assert g.rand() == 1043618065


def test_minimal_standard_seed_0_is_123459876():
    # docs/play-simplified-craps.md: the state 0 cannot be, so the library seeds 0 as 123459876;
    # 16807 * 123459876 mod (2^31 - 1) = 520932930.
    assert first(MacRand(0), 1) == [16807 * 123459876 % (2**31 - 1)] == [520932930]
    assert first(MacRand(0), 5) == first(MacRand(123459876), 5)


def test_minimal_standard_schrage_matches_plain_arithmetic():
    # Schrage's method must equal the plain modular product for every state it meets.
    for seed in (1, 2, 22, 127773, 2**31 - 2, 2**31 - 1 + 7, 2**32 - 1):
        g, x = MacRand(seed), seed
        for _ in range(200):
            x = 16807 * (x % (2**31 - 1) if x >= 2**31 - 1 else x) % (2**31 - 1)
            assert g.rand() == x


# --- glibc srandom()/random() -----------------------------------------------------
def test_glibc_random_after_srandom_1():
    # The famous first values of glibc random() after srandom(1) (or no seed).
    assert first(GlibcRandom(1), 10) == [1804289383, 846930886, 1681692777, 1714636915, 1957747793,
                                         424238335, 719885386, 1649760492, 596516649, 1189641421]


def test_glibc_srandom_0_seeds_as_1():
    # glibc's srandom_r: "We must make sure the seed is not 0.  Take arbitrarily 1."
    assert first(GlibcRandom(0), 20) == first(GlibcRandom(1), 20)


def test_glibc_documented_algorithm():
    # The TYPE_3 generator as glibc's random_r.c does it, written out as in Peter
    # Selinger's "The GLIBC random number generator" (2007): r[0] = seed,
    # r[i] = 16807 r[i-1] mod (2^31 - 1) for 0 < i < 31, r[i] = r[i-31] for
    # 31 <= i < 34, then r[i] = r[i-31] + r[i-3] mod 2^32; the k-th output is
    # r[k + 344] >> 1 (the first 310 outputs are discarded by srandom).
    for seed in (1, 22, 42, 123456789):
        r = [seed]
        for i in range(1, 31):
            r.append(16807 * r[i - 1] % 2147483647)
        r += r[0:3]
        for i in range(34, 34 + 310 + 50):
            r.append((r[i - 31] + r[i - 3]) % 2**32)
        expected = [v >> 1 for v in r[34 + 310:]]
        assert first(GlibcRandom(seed), 50) == expected[:50]


def test_glibc_values_printed_by_glibc_itself():
    # Printed by a C program calling srandom(n) and random() with glibc 2.36
    # (Debian 12), including the seeds above 2^31 that C's int32 state makes negative.
    printed = {
        22: [1857631170, 1216321778, 1361190386, 41125521, 1124144748],
        42: [71876166, 708592740, 1483128881, 907283241, 442951012],
        2147483647: [1065668062, 2142264300, 1066566375, 1064012770, 2141034222],
        2147483648: [1336741213, 1210407648, 1447044896, 337392383, 82502902],
        4294967295: [254925627, 1205188300, 366127624, 1401405153, 76053476],
    }
    for seed, values in printed.items():
        assert first(GlibcRandom(seed), 5) == values, seed
    # The same program's dice, random() % 6 + 1 first die first, after srandom(42).
    dice = ClassicDice(GlibcRandom(42))
    assert [dice.roll() for _ in range(4)] == [(1, 1), (6, 4), (5, 5), (2, 1)]


# --- dice and seeds -------------------------------------------------------------
def test_dice_are_rand_mod_6_plus_1_first_die_first():
    # MSVC srand(1): 41 % 6 + 1 = 6, 18467 % 6 + 1 = 6; 6334 -> 5, 26500 -> 5.
    dice = ClassicDice(MsvcRand(1))
    assert [dice.roll() for _ in range(2)] == [(6, 6), (5, 5)]
    assert dice.rolls == 2


def test_parse_seed():
    seed = parse_seed("MSVC 22")
    assert not isinstance(seed, str) and seed.text == "msvc 22"
    assert seed.said == "srand(22) on Windows (Microsoft C)"
    assert "seed msvc <n>, seed mac <n> or seed glibc <n>" in parse_seed("lucky 7")
    assert "seed msvc <n>" in parse_seed("msvc")
    assert "whole number from 0 to 4,294,967,295" in parse_seed("mac -1")
    assert "whole number" in parse_seed("glibc 4294967296")
    assert "whole number" in parse_seed("glibc 2.5")


def test_source_carries_the_stream_on_until_a_new_seed():
    source = ClassicSource("t")
    assert not source.seeded
    with pytest.raises(RuntimeError):
        source.roll()
    assert "No seed yet" in source.fair_lines()[-1]
    assert source.take_seed("msvc 22").startswith("Seeded: msvc 22")
    run = [source.roll() for _ in range(4)]
    assert run == [(3, 1), (5, 1), (4, 4), (6, 6)]
    assert source.roll() == (4, 4)              # carries on
    assert source.take_seed("msvc 22").startswith("Seeded: msvc 22")  # the same seed again starts it again
    assert source.roll() == (3, 1)
    assert not source.take_seed("nonsense").startswith("Seeded")
    assert source.roll() == (5, 1)              # a refused seed changes nothing
    assert any("predictable by design" in line for line in source.fair_lines())
    assert "srand(22)" in source.fair_lines()[-2] and source.fair_lines()[-1] == "Rolls since that seed: 2."
    assert all(len(line) <= 80 for line in source.fair_lines())     # `fair` prints at most 80 columns

"""FairDice: commitment and reveal, nonces, rotation, client seeds, determinism."""
from __future__ import annotations

import hashlib

import pytest

from server.dice.derive import derive_roll, deterministic_server_seed, draw, split_dice
from server.dice.fair import FairDice, client_seed_problem
from server.dice.source import FixedDraws
from server.dice.view import fair_lines


def test_reveal_matches_earlier_commitment_and_rolls_verify():
    dice = FairDice("t1")
    committed = dice.commitment
    rolls = [dice.roll() for _ in range(10)]
    revealed = dice.rotate()
    assert hashlib.sha256(revealed.server_seed.encode()).hexdigest() == committed
    assert revealed.commitment == committed
    assert revealed.rolls == 10
    assert revealed.sizes == (36,)
    assert revealed.client_seeds == ((0, "t1"),)
    assert rolls == [derive_roll(revealed.server_seed, "t1", n) for n in range(10)]
    assert dice.commitment != committed


def test_nonce_increments_and_rolls_are_recorded():
    dice = FairDice("t1", seed=7)
    assert dice.nonce == 0
    first = dice.roll()
    second = dice.roll()
    assert dice.nonce == 2
    assert [(r.nonce, r.client_seed, r.dice) for r in dice.rolls] == [
        (0, "t1", first), (1, "t1", second)]
    assert [(r.n, split_dice(r.value)) for r in dice.rolls] == [(36, first), (36, second)]


def test_wheel_draws_take_nonces_are_recorded_and_verify():
    wheel = FairDice("r1", seed=11)
    pockets = [wheel.draw(37) for _ in range(30)]
    assert all(0 <= p < 37 for p in pockets) and len(set(pockets)) > 10
    assert wheel.nonce == 30
    assert [(r.nonce, r.n, r.value, r.dice) for r in wheel.rolls] == [
        (k, 37, p, None) for k, p in enumerate(pockets)]
    revealed = wheel.rotate()
    assert (revealed.rolls, revealed.sizes) == (30, (37,))
    assert pockets == [draw(revealed.server_seed, "r1", k, 37) for k in range(30)]


def test_roll_is_draw_36_split_on_the_same_nonces():
    a, b = FairDice("t1", seed=4), FairDice("t1", seed=4)
    assert [a.roll() for _ in range(40)] == [split_dice(b.draw(36)) for _ in range(40)]
    assert a.rolls == b.rolls


def test_mixed_draws_share_the_nonce_sequence():
    dice = FairDice("t1", seed=6)
    roll = dice.roll()
    pocket = dice.draw(37)
    assert [(r.nonce, r.n) for r in dice.rolls] == [(0, 36), (1, 37)]
    revealed = dice.rotate()
    assert revealed.sizes == (36, 37)
    assert derive_roll(revealed.server_seed, "t1", 0) == roll
    assert draw(revealed.server_seed, "t1", 1, 37) == pocket


def test_bad_draw_size_refused_and_not_recorded():
    dice = FairDice("t1", seed=6)
    for n in (1, 2 ** 32 + 1):
        with pytest.raises(ValueError):
            dice.draw(n)
    assert dice.nonce == 0 and dice.rolls == ()
    assert dice.rotate().sizes == ()


def test_fixed_draws_serve_listed_pockets():
    wheel = FixedDraws([0, 17, 36])
    assert [wheel.draw(37) for _ in range(3)] == [0, 17, 36]
    with pytest.raises(RuntimeError):
        wheel.draw(37)
    with pytest.raises(ValueError):
        FixedDraws([37]).draw(37)


def test_rotate_resets_nonce_and_rolls_and_keeps_revealed_newest_first():
    dice = FairDice("t1", seed=7)
    dice.roll()
    a = dice.rotate()
    dice.roll(); dice.roll()
    b = dice.rotate()
    assert dice.nonce == 0 and dice.rolls == ()
    assert dice.revealed == (b, a)
    assert (a.rolls, b.rolls) == (1, 2)
    assert a.server_seed != b.server_seed


def test_revealed_list_is_bounded():
    dice = FairDice("t1", seed=1, keep_revealed=3)
    seeds = [dice.rotate().server_seed for _ in range(5)]
    assert [r.server_seed for r in dice.revealed] == seeds[::-1][:3]


def test_client_seed_segments_recorded_for_verification():
    dice = FairDice("t1", seed=3)
    dice.roll()
    assert dice.set_client_seed("  alice  ") is None
    assert dice.client_seed == "alice"
    dice.roll(); dice.roll()
    dice.set_client_seed("bob")
    dice.set_client_seed("carol")          # replaces bob: bob served no roll
    dice.roll()
    dice.set_client_seed("dave")           # served no roll before the rotation
    rolls = [r.dice for r in dice.rolls]
    revealed = dice.rotate()
    assert revealed.client_seeds == ((0, "t1"), (1, "alice"), (3, "carol"))
    seeds = ["t1", "alice", "alice", "carol"]
    assert rolls == [derive_roll(revealed.server_seed, s, n) for n, s in enumerate(seeds)]
    assert dice.client_seed == "dave"      # the client seed carries over


def test_different_client_seeds_give_different_rolls():
    a = FairDice("t1", seed=5)
    b = FairDice("t1", seed=5)
    assert b.set_client_seed("something else") is None
    assert a.commitment == b.commitment
    ra = [a.roll() for _ in range(50)]
    rb = [b.roll() for _ in range(50)]
    assert ra != rb


def test_deterministic_mode_is_reproducible_per_table():
    def run(table: str, seed: int) -> list:
        d = FairDice(table, seed=seed)
        out = [d.roll() for _ in range(20)]
        d.rotate()
        return out + [d.roll() for _ in range(20)] + [d.commitment]

    assert run("t1", 42) == run("t1", 42)
    assert run("t1", 42) != run("t2", 42)
    assert run("t1", 42) != run("t1", 43)
    d = FairDice("craps1", seed=42)
    assert d.deterministic
    assert d.rotate().server_seed == deterministic_server_seed(42, "craps1", 0)
    assert d.rotate().server_seed == deterministic_server_seed(42, "craps1", 1)


def test_random_mode_is_not_deterministic():
    a, b = FairDice("t1"), FairDice("t1")
    assert not a.deterministic
    assert a.commitment != b.commitment


@pytest.mark.parametrize("text, fragment", [
    ("", "at least one"), ("   ", "at least one"), ("x" * 65, "at most 64"),
    ("a:b", "':'"), ("bad\x1b[31m", "printable")])
def test_bad_client_seeds_refused_and_change_nothing(text, fragment):
    dice = FairDice("t1", seed=1)
    reason = dice.set_client_seed(text)
    assert reason is not None and fragment in reason and "\n" not in reason
    assert dice.client_seed == "t1"
    assert client_seed_problem("x" * 64) is None


def test_fair_view_lines():
    dice = FairDice("t1", seed=9)
    lines = fair_lines(dice)
    assert any(dice.commitment in l for l in lines)
    assert "deterministic: dice derived from --seed 9" in lines
    assert any("No server seed revealed" in l for l in lines)
    dice.roll(); dice.set_client_seed("alice"); dice.roll(); dice.roll()
    old = dice.rotate()
    lines = fair_lines(dice)
    text = "\n".join(lines)
    assert old.server_seed in text and old.commitment in text
    assert "client seed 't1' nonce 0, client seed 'alice' nonces 1-2" in text
    assert "Next nonce: 0" in text
    assert "deterministic" not in "\n".join(fair_lines(FairDice("t1")))


def test_fair_view_fits_80_columns():
    dice = FairDice("a_long_table_id", seed=2**62)
    for seed in ("x" * 64, "y" * 64):
        dice.set_client_seed(seed)
        dice.roll()
    dice.rotate()
    dice.set_client_seed("z" * 64)
    lines = fair_lines(dice)
    assert all(len(line) <= 80 for line in lines if "client seed '" not in line)

"""FairDice: commitment and reveal, nonces, rotation, client seeds, determinism."""
from __future__ import annotations

import hashlib

import pytest

from server.dice.derive import derive_roll, deterministic_server_seed, draw, split_dice
from server.dice.fair import FairDice, client_seed_problem
from server.dice.source import FixedDraws
from server.dice.view import draw_line, fair_lines


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


def test_fair_view_of_dice_is_unchanged():
    # The exact lines of a dice table, as they were before draws of other sizes.
    dice = FairDice("t1", seed=9)
    dice.roll(); dice.set_client_seed("alice"); dice.roll(); dice.roll()
    dice.rotate()
    dice.rotate()
    dice.roll()
    assert fair_lines(dice) == [
        "Provably fair dice at table t1.",
        "Server seed commitment (SHA-256):",
        "  198b4ef2487fffd103679490137b73afd4b818259ba82977bcdf9e16499870df",
        "Client seed: alice",
        "Next nonce: 1   (set your client seed with: seed <text>)",
        "deterministic: dice derived from --seed 9",
        "Revealed server seeds, newest first:",
        "  b193a5ac8595f1f7e22b0f39efdc978fdccdaa81e65b4924363879ca2070258a",
        "    commitment e13bd374595486566cbcbb675f045233310333a9af9743dd81b5a77b9c7abbb7",
        "    0 roll(s): no rolls",
        "  16caf560a9d168ae5a71eaa45270aa2f68f665c659f5ada17efe688ca056dcbc",
        "    commitment 97ae623bee00ebcef67c065174a7f06bd16d696f56717cb993d1f6e4be1aae9b",
        "    3 roll(s): client seed 't1' nonce 0, client seed 'alice' nonces 1-2",
        "Check a roll: casino verify --server-seed S --client-seed C --nonce N",
    ]


def test_fair_view_of_a_wheel_names_spins_and_their_draw():
    wheel = FairDice("roulette1", seed=9)
    wheel.draw(37)
    check = "Check a spin: casino verify --server-seed S --client-seed C --nonce N --draw 37"
    assert fair_lines(wheel)[-1] == check
    for _ in range(3):
        wheel.draw(37)
    wheel.rotate()
    lines = fair_lines(wheel)                  # nothing drawn yet under the new seed
    assert "    4 spin(s) (--draw 37): client seed 'roulette1' nonces 0-3" in lines
    assert lines[-1] == check and not any(l.startswith("Check a roll") for l in lines)
    assert all(len(l) <= 80 for l in lines)


def test_fair_view_of_mixed_and_other_draws():
    dice = FairDice("t1", seed=9)
    dice.roll(); dice.draw(37)
    dice.rotate()
    dice.draw(2 ** 32)
    lines = fair_lines(dice)
    assert "    2 draw(s) (--draw 36 or 37): client seed 't1' nonces 0-1" in lines
    assert lines[-3:] == [
        "Check a roll: casino verify --server-seed S --client-seed C --nonce N",
        "Check a spin: casino verify --server-seed S --client-seed C --nonce N --draw 37",
        "Check: casino verify --server-seed S --client-seed C --nonce N --draw 4294967296",
    ]
    assert all(len(l) <= 80 for l in lines if "client seed '" not in l)


def test_draw_line():
    assert draw_line(0, 36, 30) == "nonce 0: 6 1 (total 7)"
    assert draw_line(3, 37, 17) == "nonce 3: pocket 17"
    assert draw_line(3, 37, 0) == "nonce 3: pocket 0"
    assert draw_line(9, 100, 42) == "nonce 9: 42 (of 0-99)"

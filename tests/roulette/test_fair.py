"""The wheel is provably fair: each spin's server seed is committed before its
bets and revealed once the number is called; `fair` shows both, and
`casino verify --draw 37` recomputes the pocket from what `fair` printed."""
from __future__ import annotations

import re

from table_helpers import HZ, bet, config, of, seat

from server.cli import main
from server.dice.derive import commitment
from server.dice.fair import FairDice
from server.dice.kinds import WHEEL
from server.dice.view import fair_lines
from server.games.roulette.events import BallDropped
from support.pure_table import PureTable


def test_each_spin_is_committed_before_its_bets_and_verifiable_after(capsys):
    dice = FairDice("roulette", seed=7)
    t = seat(PureTable(config(), HZ, dice), "ann")
    pockets = []
    for spin in range(3):
        committed = dice.commitment                       # shown by `fair` before the bet
        assert f"  {committed}" in fair_lines(dice, WHEEL)
        bet(t, "ann", "red 1")
        t.act("ann", ["spin"], 1000)
        (dropped,) = of(t.advance(3 * HZ), BallDropped)
        pockets.append(dropped.pocket)
        revealed = dice.revealed[0]                       # rotated right after the spin
        assert revealed.commitment == committed == commitment(revealed.server_seed)
        assert (revealed.rolls, revealed.sizes, revealed.client_seeds) == (1, (37,), ((0, "roulette"),))
        assert dice.commitment != committed and dice.nonce == 0
        lines = fair_lines(dice, WHEEL)
        assert lines[0] == "Provably fair wheel at table roulette."
        assert "deterministic: wheel derived from --seed 7" in lines
        assert "    1 spin(s) (--draw 37): client seed 'roulette' nonce 0" in lines
        assert "Check a spin: casino verify --server-seed S --client-seed C --nonce N --draw 37" in lines
        assert main(["verify", "--server-seed", revealed.server_seed, "--client-seed", "roulette",
                     "--nonce", "0", "--draw", "37"]) == 0
        out = capsys.readouterr().out
        assert re.search(rf"^nonce 0: pocket {dropped.pocket}$", out, re.M), out
        assert f"commitment (SHA-256 of the server seed): {committed}" in out
    assert len(dice.revealed) == 3


def test_a_client_seed_set_by_the_first_seated_is_used_for_the_next_spin(capsys):
    dice = FairDice("roulette", seed=8)
    t = seat(PureTable(config(), HZ, dice), "ann", "bob")
    assert t.seeder() == "ann"
    assert dice.set_client_seed("lucky ann") is None
    t.act("ann", ["bet", "red", "1"], 1000)
    (dropped,) = of(t.advance((20 + 3) * HZ + 1), BallDropped)
    revealed = dice.revealed[0]
    assert revealed.client_seeds == ((0, "lucky ann"),)
    main(["verify", "--server-seed", revealed.server_seed, "--client-seed", "lucky ann", "--nonce", "0",
          "--draw", "37"])
    assert f"nonce 0: pocket {dropped.pocket}" in capsys.readouterr().out


def test_before_any_spin_fair_says_how_a_spin_is_checked():
    lines = fair_lines(FairDice("roulette"), WHEEL)
    assert lines[-1] == "Check a spin: casino verify --server-seed S --client-seed C --nonce N --draw 37"
    assert not any(line.startswith("Check a roll") for line in lines)

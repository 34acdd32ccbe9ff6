"""`casino verify --draw shoe` rebuilds a retired shoe card for card, as the table dealt it."""
from __future__ import annotations

import argparse

from server.cli import verify
from server.dice.fair import FairDice
from server.games.blackjack.shoe import shuffled


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="casino")
    verify.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)


def test_verify_rebuilds_the_shoe_a_table_shuffled(capsys):
    dice = FairDice("blackjack", seed=21)
    dice.set_client_seed("ann's words")
    shoe = shuffled(2, dice.draw)
    seed = dice.rotate().server_seed
    assert main(["verify", "--server-seed", seed, "--client-seed", "ann's words", "--nonce", "0",
                 "--draw", "shoe", "--decks", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "shoe of 2 decks (104 cards) from nonce 0 to 102, in the order dealt:"
    listed = [name for line in out[2:] for name in line.split(":", 1)[1].split()]
    assert listed == [c.name for c in shoe]
    assert out[2].startswith("   1: ") and len(out) == 2 + 11


def test_verify_refuses_a_shoe_of_nine_decks(capsys):
    assert main(["verify", "--server-seed", "ab", "--client-seed", "c", "--nonce", "0", "--draw", "shoe",
                 "--decks", "9"]) == 2

"""`casino verify --draw shoe` rebuilds a retired shoe card for card, as the table dealt it."""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from server.cli import verify
from server.dice.fair import FairDice
from server.games.blackjack.shoe import rebuild, shuffled


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


# --- docs/fairness.md: the shoe's example and its Python, against the table's shuffle ---
FAIRNESS = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
DOC_SEED = "3f1e4b5c0f2a9d8e7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928170f6e"


def test_the_docs_shoe_example_is_the_tables_shuffle():
    """The example's output is checked against `casino verify` with the doc's other examples
    (tests/dice/test_verify_cli.py); here, that it lists the shoe the table deals."""
    text = FAIRNESS.read_text()
    block = re.search(r"```\n\$ casino verify [^\n]*--draw shoe --decks 1\n.*?order dealt:\n(.*?)```", text, re.S)
    assert block, "docs/fairness.md has no one-deck shoe example"
    listed = [name for line in block.group(1).splitlines() for name in line.split(":", 1)[1].split()]
    dealt = rebuild(DOC_SEED, "table", 1)
    assert listed == [c.name for c in dealt]
    assert [c.name for c in dealt[:4]] == ["J-h", "6-h", "5-h", "A-d"]       # the round the doc tells
    assert "deals the player\nJ-h and 5-h, the dealer 6-h up and A-d in the hole" in text


@pytest.mark.parametrize("decks,client,first", [(1, "table", 0), (6, "ann's words", 0), (2, "table", 103)])
def test_the_docs_python_shuffles_the_shoe_the_table_does(decks, client, first):
    code = re.search(r"Python, complete:\n\n```python\n(.*?)```", FAIRNESS.read_text(), re.S).group(1)
    namespace: dict = {}
    exec(code, namespace)
    assert namespace["shoe"](DOC_SEED, client, decks, first) == [
        c.name for c in rebuild(DOC_SEED, client, decks, first)]

"""`casino verify` prints the commitment and the dice of the asked rolls."""
from __future__ import annotations

import argparse
import re
from pathlib import Path

from server.cli import verify
from server.dice.derive import draw


def main(argv: list[str]) -> int:
    # Only this sub-command's parser: other `casino` modules are not under test here.
    parser = argparse.ArgumentParser(prog="casino")
    verify.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)

DOC = Path(__file__).resolve().parents[2] / "docs" / "fairness.md"
SEED = "3f1e4b5c0f2a9d8e7c6b5a49382716f5e4d3c2b1a09f8e7d6c5b4a3928170f6e"


def test_verify_one_roll(capsys):
    assert main(["verify", "--server-seed", SEED, "--client-seed", "table", "--nonce", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "commitment (SHA-256 of the server seed): "
        "c7754daffbba1ddbf761d16476535fa1b93ea730ddf5d69dc1b95ffafb72bd27",
        "nonce 0: 6 1 (total 7)",
    ]


def test_verify_count(capsys):
    args = ["verify", "--server-seed", SEED, "--client-seed", "table", "--nonce", "1", "--count", "2"]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == ["nonce 1: 6 6 (total 12)", "nonce 2: 2 1 (total 3)"]


def test_verify_rejects_bad_count(capsys):
    args = ["verify", "--server-seed", SEED, "--client-seed", "t", "--nonce", "0", "--count", "0"]
    assert main(args) == 2


def test_verify_wheel_pockets(capsys):
    args = ["verify", "--server-seed", SEED, "--client-seed", "table", "--nonce", "0",
            "--count", "3", "--draw", "37"]
    assert main(args) == 0
    assert capsys.readouterr().out.splitlines() == [
        "commitment (SHA-256 of the server seed): "
        "c7754daffbba1ddbf761d16476535fa1b93ea730ddf5d69dc1b95ffafb72bd27",
        "nonce 0: pocket 27",
        "nonce 1: pocket 33",
        "nonce 2: pocket 3",
    ]


def test_verify_draw_36_is_the_dice(capsys):
    base = ["verify", "--server-seed", SEED, "--client-seed", "table", "--nonce", "0", "--count", "5"]
    assert main(base) == 0
    dice = capsys.readouterr().out
    assert main([*base, "--draw", "36"]) == 0
    assert capsys.readouterr().out == dice


def test_verify_other_draw_sizes(capsys):
    args = ["verify", "--server-seed", SEED, "--client-seed", "table", "--nonce", "0", "--draw", "1000"]
    assert main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == [f"nonce 0: {draw(SEED, 'table', 0, 1000)} (of 0-999)"]


def test_verify_rejects_bad_draw(capsys):
    for n in ("1", str(2 ** 32 + 1)):
        args = ["verify", "--server-seed", SEED, "--client-seed", "t", "--nonce", "0", "--draw", n]
        assert main(args) == 2
        assert "--draw must be 2 to 4294967296" in capsys.readouterr().out


def test_doc_examples_are_what_verify_prints(capsys):
    examples = re.findall(r"^```\n\$ casino (verify .*?)\n(.*?)```", DOC.read_text(), re.M | re.S)
    assert len(examples) == 3                  # dice, the wheel, then a blackjack shoe
    for command, printed in examples:
        assert main(command.split()) == 0
        assert capsys.readouterr().out == printed

"""`casino verify` prints the commitment and the dice of the asked rolls."""
from __future__ import annotations

import argparse

from server.cli import verify


def main(argv: list[str]) -> int:
    # Only this sub-command's parser: other `casino` modules are not under test here.
    parser = argparse.ArgumentParser(prog="casino")
    verify.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(argv)
    return args.func(args)

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

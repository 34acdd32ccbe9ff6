"""`casino verify`: recompute provably fair rolls offline from a revealed seed.

A player who copied a revealed server seed from `fair` can check that it
matches the commitment shown earlier and that the dice were what the table
said, without trusting the server's code beyond docs/fairness.md.
"""
from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "verify",
        help="recompute provably fair dice from a revealed server seed",
        description="Print the dice of roll NONCE (and the next COUNT-1) for a "
        "server seed and client seed, and the server seed's SHA-256 commitment.",
    )
    p.add_argument("--server-seed", required=True, help="the revealed server seed (hex text)")
    p.add_argument("--client-seed", required=True, help="the client seed used for the roll")
    p.add_argument("--nonce", type=int, required=True, help="the roll's nonce (0 = first roll)")
    p.add_argument("--count", type=int, default=1, help="how many rolls from NONCE on (default 1)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.dice.derive import commitment, derive_rolls

    if args.nonce < 0 or args.count < 1:
        print("casino verify: --nonce must be >= 0 and --count >= 1")
        return 2
    print(f"commitment (SHA-256 of the server seed): {commitment(args.server_seed)}")
    rolls = derive_rolls(args.server_seed, args.client_seed, args.nonce, args.count)
    for nonce, (d1, d2) in enumerate(rolls, start=args.nonce):
        print(f"nonce {nonce}: {d1} {d2} (total {d1 + d2})")
    return 0

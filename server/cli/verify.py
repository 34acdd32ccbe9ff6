"""`casino verify`: recompute provably fair draws offline from a revealed seed.

A player who copied a revealed server seed from `fair` can check that it
matches the commitment shown earlier and that the dice (or a wheel's pockets,
with --draw 37) were what the table said, without trusting the server's code
beyond docs/fairness.md.
"""
from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "verify",
        help="recompute provably fair dice (or wheel pockets) from a revealed server seed",
        description="Print the dice of roll NONCE (and the next COUNT-1) for a "
        "server seed and client seed, and the server seed's SHA-256 commitment. "
        "With --draw N print draws in [0, N) instead (--draw 37: wheel pockets).",
    )
    p.add_argument("--server-seed", required=True, help="the revealed server seed (hex text)")
    p.add_argument("--client-seed", required=True, help="the client seed used for the roll")
    p.add_argument("--nonce", type=int, required=True, help="the roll's nonce (0 = first roll)")
    p.add_argument("--count", type=int, default=1, help="how many rolls from NONCE on (default 1)")
    p.add_argument("--draw", type=int, default=36, metavar="N",
                   help="the draw size, 2 to 2**32 (default 36: two dice; 37: a wheel's pocket)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.dice.derive import MAX_DRAW, MIN_DRAW, commitment, derive_draws
    from server.dice.view import draw_line

    if args.nonce < 0 or args.count < 1:
        print("casino verify: --nonce must be >= 0 and --count >= 1")
        return 2
    if not MIN_DRAW <= args.draw <= MAX_DRAW:
        print(f"casino verify: --draw must be {MIN_DRAW} to {MAX_DRAW}")
        return 2
    print(f"commitment (SHA-256 of the server seed): {commitment(args.server_seed)}")
    values = derive_draws(args.server_seed, args.client_seed, args.nonce, args.count, args.draw)
    for nonce, value in enumerate(values, start=args.nonce):
        print(draw_line(nonce, args.draw, value))
    return 0

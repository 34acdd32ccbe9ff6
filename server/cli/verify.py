"""`casino verify`: recompute provably fair draws offline from a revealed seed.

A player who copied a revealed server seed from `fair` can check that it
matches the commitment shown earlier and that the dice (or a wheel's pockets,
with --draw 37 or --draw wheel) were what the table said, without trusting the
server's code beyond docs/fairness.md. `--draw` takes the name of any kind of
draw a game in the catalogue makes (server.dice.kinds.DrawKind), so a new
game's draws are verified without this file knowing it.
"""
from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = subparsers.add_parser(
        "verify",
        help="recompute provably fair dice (or wheel pockets) from a revealed server seed",
        description="Print the dice of roll NONCE (and the next COUNT-1) for a "
        "server seed and client seed, and the server seed's SHA-256 commitment. "
        "With --draw N print draws in [0, N) instead (--draw 37: wheel pockets); "
        "with --draw shoe and --decks D the whole blackjack shoe shuffled from NONCE on.",
    )
    p.add_argument("--server-seed", required=True, help="the revealed server seed (hex text)")
    p.add_argument("--client-seed", required=True, help="the client seed used for the roll")
    p.add_argument("--nonce", type=int, required=True, help="the roll's nonce (0 = first roll)")
    p.add_argument("--count", type=int, default=1, help="how many rolls from NONCE on (default 1)")
    p.add_argument("--draw", default="36", metavar="N|NAME",
                   help="the draw size, 2 to 2**32 (default 36: two dice; 37: a wheel's pocket), "
                        "or a kind of draw by name (dice, wheel, die, shoe ...)")
    p.add_argument("--decks", type=int, default=6,
                   help="with --draw shoe: the decks of the shoe (1-8, default 6); --nonce 0 for a "
                        "seed's first shoe")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from server.dice.derive import MAX_DRAW, MIN_DRAW, commitment, derive_draws
    from server.dice.view import kind_of
    from server.games.catalogue import draw_kinds

    if args.nonce < 0 or args.count < 1:
        print("casino verify: --nonce must be >= 0 and --count >= 1")
        return 2
    kinds = draw_kinds()
    named = {k.name: k for k in kinds}
    if args.draw in named:
        kind = named[args.draw]
    elif args.draw.isdecimal() and MIN_DRAW <= int(args.draw) <= MAX_DRAW:
        kind = kind_of(int(args.draw), kinds)
    else:
        print(f"casino verify: --draw must be {MIN_DRAW} to {MAX_DRAW} or one of {', '.join(named)}")
        return 2
    print(f"commitment (SHA-256 of the server seed): {commitment(args.server_seed)}")
    if kind.rebuild is not None:
        if not 1 <= args.decks <= 8:
            print("casino verify: --decks must be 1 to 8")
            return 2
        for line in kind.rebuild(args.server_seed, args.client_seed, args.nonce, args.decks):
            print(line)
        return 0
    values = derive_draws(args.server_seed, args.client_seed, args.nonce, args.count, kind.outcomes)
    for nonce, value in enumerate(values, start=args.nonce):
        print(kind.line(nonce, value))
    return 0

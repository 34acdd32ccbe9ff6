"""The `casino` command: one sub-command per module in this package.

Each module here defines `register(subparsers)`, which adds its parser and sets
`func` (taking the parsed args, returning an exit code). Discovery keeps the
sub-commands independent: adding one is adding a file, never editing a list.
"""
from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from typing import Sequence


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="casino", description="A multiplayer telnet casino.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())

"""`make bench`: run every bench/bench_*.py module's main() in turn.

Benchmarks print medians and ratios against a baseline measured in the same
run, because these machines are shared and noisy. Options after the names go
to those benches' main(argv), e.g. `python -m bench roll --rolls 2`.
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    """`python -m bench [NAME ...] [--option ...]`: options go to the named benches."""
    first_option = next((i for i, a in enumerate(argv) if a.startswith("-")), len(argv))
    wanted, options = {a.replace("-", "_") for a in argv[:first_option]}, argv[first_option:]
    here = Path(__file__).parent
    for info in sorted(pkgutil.iter_modules([str(here)]), key=lambda m: m.name):
        if not info.name.startswith("bench_"):
            continue
        if wanted and info.name not in wanted and info.name[len("bench_"):] not in wanted:
            continue
        module = importlib.import_module(f"bench.{info.name}")
        print(f"== {info.name} ==", flush=True)
        if options:
            module.main(options)
        else:
            module.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

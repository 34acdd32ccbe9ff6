"""A whole table of cases checked in one test: every combination of its
dimensions (bet x point x roll, say), each failing one named.

Parametrizing over the 36 rolls made each combination a test of its own, tens
of thousands of them to collect and report. A Sweep walks the same cartesian
product inside one test instead, and keeps two promises a parametrized test
gave for free: a failure names the combinations that failed (all of them, not
only the first), and no combination is skipped -- `done` fails unless every
one the dimensions make was checked, so a loop shrunk by mistake (a `break`, a
`continue`, a sliced list) fails rather than passing on fewer cases.

    sweep = Sweep(number=POINTS, dice=ALL_DICE)
    for number, dice in sweep:
        sweep.expect(book.outcome(Bet(Kind.PLACE, number, 60), dice, view), want(number, dice))
    sweep.done()
"""
from __future__ import annotations

import itertools
import math
from typing import Any, Iterator, Sequence

SHOWN = 30          # failures listed in full; the rest are counted


class Sweep:
    def __init__(self, **dimensions: Sequence[Any]) -> None:
        if not dimensions or any(len(values) == 0 for values in dimensions.values()):
            raise ValueError(f"a sweep needs dimensions, none of them empty: {list(dimensions)}")
        for name, values in dimensions.items():
            twice = [v for i, v in enumerate(values) if v in values[:i]]
            if twice:           # the same case twice would be checked once, and the count never reached
                raise ValueError(f"the sweep's {name} lists {twice[0]!r} twice")
        self.names = tuple(dimensions)
        self.dimensions = tuple(tuple(values) for values in dimensions.values())
        self.size = math.prod(len(values) for values in self.dimensions)
        self.checked: set[tuple[Any, ...]] = set()
        self.failures: list[str] = []
        self._case: tuple[Any, ...] | None = None

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        for case in itertools.product(*self.dimensions):
            self._case = case
            yield case
        self._case = None

    def name(self, case: tuple[Any, ...]) -> str:
        return ", ".join(f"{name}={value!r}" for name, value in zip(self.names, case))

    def expect(self, got: object, want: object) -> None:
        """Check the case the loop is on: `got` must equal `want`."""
        if self._case is None:
            raise RuntimeError("Sweep.expect is called inside `for ... in sweep`")
        self.checked.add(self._case)
        if got != want:
            self.failures.append(f"{self.name(self._case)}: got {got!r}, want {want!r}")

    def done(self) -> None:
        """Every combination was checked and none failed; otherwise say which."""
        problems = []
        if self.failures:
            listed = self.failures[:SHOWN]
            more = len(self.failures) - len(listed)
            problems.append(f"{len(self.failures)} of the {self.size} combinations failed:")
            problems += [f"  {line}" for line in listed] + ([f"  ... and {more} more"] if more else [])
        if len(self.checked) != self.size:
            missed = [self.name(c) for c in itertools.product(*self.dimensions) if c not in self.checked]
            problems.append(f"only {len(self.checked)} of the {self.size} combinations "
                            f"({' x '.join(str(len(d)) for d in self.dimensions)}) were checked; "
                            f"first missed: {missed[0]}")
        if problems:
            raise AssertionError("\n".join(problems))

"""A roulette table's options: plain data, seconds and chips, no config loading.

The config loader (not written yet) will build one of these from YAML;
`problems()` gives the one-line reasons it and `casino validate` can show.
The wheel turns the seconds into ticks with the cadence it is given.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class RouletteOptions:
    """Defaults are RULES.md's: 20 s window, last call at 5 s left, ball drops 3 s later."""

    min_bet: int = 1
    max_bet: int = 10_000
    la_partage: bool = False
    bet_window: float = 20
    last_call: float = 5           # seconds left when the last call is made; 0: none
    spin_seconds: float = 3

    def problems(self) -> list[str]:
        """Why these options make no table, one line each (empty: fine)."""
        out: list[str] = []
        for name in ("min_bet", "max_bet"):
            value = getattr(self, name)
            if type(value) is not int or value < 1:
                out.append(f"{name} must be a whole number of chips, at least 1 (got {value!r})")
        if not out and self.max_bet < self.min_bet:
            out.append(f"max_bet ({self.max_bet}) is below min_bet ({self.min_bet})")
        if not isinstance(self.la_partage, bool):
            out.append(f"la_partage must be true or false (got {self.la_partage!r})")
        for name in ("bet_window", "last_call", "spin_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 3600:
                out.append(f"{name} must be seconds between 0 and 3600 (got {value!r})")
        if not out and self.bet_window <= 0:
            out.append("bet_window must be more than 0 seconds")
        elif not out and self.last_call >= self.bet_window:
            out.append(f"last_call ({self.last_call} s) must be less than bet_window ({self.bet_window} s)")
        return out


def to_ticks(seconds: float, tick_hz: int) -> int:
    """A duration in whole ticks at this cadence."""
    return round(seconds * tick_hz)

"""A roulette table's options, and the config keys that build them.

`RouletteOptions` is plain data in seconds and chips; the wheel turns the
seconds into ticks with the cadence it is given. `ROULETTE_KEYS` declares
what a `game: roulette` entry of casino_tables may say (all at the top of
the entry, like Pig's), so the loader, `casino validate` and docs/config.md
learn them from this package; `read` checks them with file:line errors and
`problems()` is the same check for options built by hand (tests, tools).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar
from server.config.keys import Field, Problem, as_int, describe, option, rows_of
from server.games.seam import Built, OptionsReader, TableKeys
from server.games.table_options import (as_yes_no, check_limits, check_window, limit_problems, seconds_problems,
                                        window_problem)

WHEELS = ("single_zero",)          # the wheels it plays (European, 37 pockets: docs/play-roulette.md)
MAX_CHIPS = 1_000_000_000


# --- the config keys -----------------------------------------------------------------
def as_wheel(value: object, raw: str | None = None) -> str:
    """A wheel this package plays, refused by name otherwise (`double_zero` is not one)."""
    if isinstance(value, str) and value in WHEELS:
        return value
    named = repr(value) if isinstance(value, str) else describe(value)
    meant = str(value).strip().lower().replace("-", "_").replace(" ", "_")
    hint = f" (did you mean {meant!r}?)" if meant in WHEELS else ""
    raise Problem(f"{named} is not a wheel this casino plays: the only one is "
                  f"{' or '.join(WHEELS)}, 0 and 1-36{hint}")


@dataclass(frozen=True)
class RouletteOptions:
    """Defaults are docs/play-roulette.md's: 20 s window, last call at 5 s left, ball drops 3 s later.

    Each field is a config key of a `game: roulette` entry (`option`: its
    check, range and default, declared once; `rows_of` makes the rows)."""
    variant: ClassVar[None] = None      # one game, no variants (config.model.GameOptions)

    min_bet: int = option(1, as_int, 1, MAX_CHIPS)
    max_bet: int = option(10_000, as_int, 1, MAX_CHIPS)
    wheel: str = option("single_zero", as_wheel)
    la_partage: bool = option(False, as_yes_no)
    bet_window: float = option(20, as_int, 2, 600)
    last_call: float = option(5, as_int, 0, 599)      # seconds left when the last call is made; 0: none
    spin_seconds: float = option(3, as_int, 0, 60)

    def problems(self) -> list[str]:
        """Why these options make no table, one line each (empty: fine)."""
        out = limit_problems(self)
        if not isinstance(self.la_partage, bool):
            out.append(f"la_partage must be true or false (got {self.la_partage!r})")
        out += seconds_problems(self, ("bet_window", "last_call", "spin_seconds"))
        window = None if out else window_problem(self.bet_window, self.last_call)
        out += [window] if window else []
        if self.wheel not in WHEELS:
            out.append(f"wheel {self.wheel!r} is not played here; the wheels are {', '.join(WHEELS)}")
        return out


def to_ticks(seconds: float, tick_hz: int) -> int:
    """A duration in whole ticks at this cadence."""
    return round(seconds * tick_hz)


ROULETTE_FIELDS = (Field("max_players", as_int, 8, 1, 20), *rows_of(RouletteOptions))


def read(entry: OptionsReader) -> Built[RouletteOptions]:
    """A `game: roulette` entry: every key checked, each problem with its file and line."""
    v = entry.read(ROULETTE_FIELDS)
    check_limits(entry, v)
    check_window(entry, v)
    players = v.pop("max_players")
    options = RouletteOptions(**v)
    return Built(players, options.min_bet, options.max_bet, options)


ROULETTE_KEYS = TableKeys(
    read=read,
    top=tuple(f.name for f in ROULETTE_FIELDS),
    rows=ROULETTE_FIELDS,
)

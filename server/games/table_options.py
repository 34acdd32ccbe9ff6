"""The checks every table's options make alike: wager limits, a betting window
with its last call, seconds, true/false keys.

Said once for the games that have them (craps, roulette, blackjack), in both
forms a game's options are checked in: `check_limits` and `check_window` on
the values a config entry read (server.games.seam.OptionsReader: the loader
adds file and line), and the `*_problems` functions for options built by hand
(a game's `problems()`: tests, tools).
"""
from __future__ import annotations

from typing import Any

from server.config.keys import Problem, describe
from server.games.seam import OptionsReader


def as_yes_no(value: object, raw: str | None = None) -> bool:
    """true/false (YAML's yes/no values); a number or text is refused, not guessed."""
    if not isinstance(value, bool):
        raise Problem(f"must be true or false, not {describe(value)}")
    return value


# --- a config entry's values (OptionsReader.read) ---------------------------------------
def check_limits(entry: OptionsReader, values: Any) -> None:
    """max_bet below min_bet is refused at max_bet."""
    if values.ok("min_bet", "max_bet") and values["max_bet"] < values["min_bet"]:
        entry.error("max_bet", f"{values['max_bet']:,} is below min_bet {values['min_bet']:,}")


def check_window(entry: OptionsReader, values: Any, window: str = "bet_window") -> None:
    """A last call at or past the window's length is refused at last_call (then read as
    none, so the options built from the values still make a window)."""
    if values.ok(window, "last_call") and values["last_call"] >= values[window]:
        entry.error("last_call", f"{values['last_call']} must be less than {window} {values[window]}")
        values["last_call"] = 0


# --- options built by hand (problems()) ---------------------------------------------------
def limit_problems(options: object) -> list[str]:
    """min_bet and max_bet whole chips, at least 1, max_bet not below min_bet."""
    out: list[str] = []
    for name in ("min_bet", "max_bet"):
        value = getattr(options, name)
        if type(value) is not int or value < 1:
            out.append(f"{name} must be a whole number of chips, at least 1 (got {value!r})")
    low, high = getattr(options, "min_bet"), getattr(options, "max_bet")
    if not out and high < low:
        out.append(f"max_bet ({high}) is below min_bet ({low})")
    return out


def seconds_problems(options: object, names: tuple[str, ...]) -> list[str]:
    """Each of `names` a number of seconds from 0 to 3600."""
    out: list[str] = []
    for name in names:
        value = getattr(options, name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 3600:
            out.append(f"{name} must be seconds between 0 and 3600 (got {value!r})")
    return out


def window_problem(bet_window: float, last_call: float) -> str | None:
    """A betting window of some length, its last call inside it."""
    if bet_window <= 0:
        return "bet_window must be more than 0 seconds"
    if last_call >= bet_window:
        return f"last_call ({last_call} s) must be less than bet_window ({bet_window} s)"
    return None

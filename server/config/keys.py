"""Keys as data: what a config key accepts, its default and its range.

Pure values and checks, with no YAML and no reports, so that a game package
can declare the keys it reads (its options) without importing the config
loader; server.config.fields reads mappings against these rows.
"""
from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass
from typing import Callable, Final, Iterable, TypeVar

T = TypeVar("T")

REQUIRED: Final = object()   # a Field's default when the key must be given
ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


class Problem(Exception):
    """A value is unusable; the message completes `key: ...`.

    `line` points inside a list value at the offending item, when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def describe(value: object) -> str:
    """How a wrong value is named in a message, so `yes` shows as a yes/no value."""
    if isinstance(value, bool):
        return f"the yes/no value {str(value).lower()}"
    if value is None:
        return "an empty value"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, float):
        return f"the decimal number {value:g}"
    if isinstance(value, str):
        return f"the text {value!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"a {type(value).__name__}"


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean 'x'?)' for the closest choice, or '' when none is close."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def as_int(value: object, raw: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Problem(f"must be a whole number, not {describe(value)}")
    return value


def as_float(value: object, raw: str | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Problem(f"must be a number of seconds, not {describe(value)}")
    return float(value)


def as_text(value: object, raw: str | None = None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Problem(f"must be non-empty text, not {describe(value)}")
    if any(ord(c) < 32 and c != "\n" or ord(c) == 127 for c in value):
        raise Problem("must not contain control characters")
    return value


def as_id(value: object, raw: str | None = None) -> str:
    """An id is the text as written: `6185` is the id "6185", never a number."""
    if isinstance(value, int) and not isinstance(value, bool) and raw is not None:
        value = raw
    if not isinstance(value, str):
        raise Problem(f"must be an id (letters, digits, _ or -), not {describe(value)}")
    if not ID_RE.match(value):
        raise Problem(f"{value!r} is not an id: use 1 to 40 letters, digits, _ or -")
    return value


# value (whatever YAML gave: a YMap, a YList or a scalar) and its raw text -> the checked value
Convert = Callable[[object, "str | None"], object]


@dataclass(frozen=True)
class Field:
    name: str
    convert: Convert
    default: object = REQUIRED
    lo: float | None = None
    hi: float | None = None
    choices: tuple[object, ...] = ()

    def check(self, value: object, raw: str | None) -> object:
        if self.choices:
            return self._choose(value)
        value = self.convert(value, raw)
        if self.lo is None and self.hi is None:
            return value
        if not isinstance(value, (int, float)):    # a row's mistake, not the file's
            raise TypeError(f"{self.name}: a range is for numbers, not {value!r}")
        if self.lo is not None and self.lo == self.hi and value != self.lo:
            raise Problem(f"must be {self.lo:,}, not {value:,}")
        if self.lo is not None and self.hi is not None and not self.lo <= value <= self.hi:
            raise Problem(f"must be from {self.lo:,} to {self.hi:,}, not {value:,}")
        if self.lo is not None and value < self.lo:
            raise Problem(f"must be at least {self.lo:,}, not {value:,}")
        return value

    def _choose(self, value: object) -> object:
        if value in self.choices and type(value) in {type(c) for c in self.choices}:
            return value
        shown = ", ".join(str(c) for c in self.choices)
        hint = did_you_mean(str(value), [str(c) for c in self.choices]) if isinstance(value, str) else ""
        raise Problem(f"must be one of {shown}; not {describe(value)}{hint}")


def option(default: T, convert: Convert, lo: float | None = None, hi: float | None = None,
           choices: tuple[object, ...] = ()) -> T:
    """An options dataclass field that carries its config row: the key is the
    field's name, the default the field's default, so each key is declared
    once (`rows_of` makes the rows the loader, `casino validate` and the docs read)."""
    row = {"convert": convert, "lo": lo, "hi": hi, "choices": choices}
    return dataclasses.field(default=default, metadata={"key": row})


def rows_of(options: type) -> tuple[Field, ...]:
    """The config rows an options dataclass declares with `option`, in field order."""
    return tuple(Field(f.name, default=f.default, **f.metadata["key"])
                 for f in dataclasses.fields(options) if "key" in f.metadata)

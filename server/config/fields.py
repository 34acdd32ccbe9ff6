"""Tables of keys: what each key accepts, and one reader that checks them all.

Each section of the config (server, limits, a table, craps options, a room) is
a tuple of Field rows. `read_fields` checks a mapping against its rows: unknown
keys (with a did-you-mean), missing required keys, types and ranges, reporting
every problem and falling back to the default so checking can go on.
Checks that relate two keys (max_bet >= min_bet) live with their section.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from server.config.errors import Report
from server.config.yamlsrc import YList, YMap

REQUIRED: Any = object()
ID_RE = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


class Problem(Exception):
    """A value is unusable; the message completes `key: ...`.

    `line` points inside a list value at the offending item, when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def describe(value: Any) -> str:
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


def as_int(value: Any, raw: str | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise Problem(f"must be a whole number, not {describe(value)}")
    return value


def as_float(value: Any, raw: str | None = None) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Problem(f"must be a number of seconds, not {describe(value)}")
    return float(value)


def as_text(value: Any, raw: str | None = None) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Problem(f"must be non-empty text, not {describe(value)}")
    if any(ord(c) < 32 and c != "\n" or ord(c) == 127 for c in value):
        raise Problem("must not contain control characters")
    return value


def as_id(value: Any, raw: str | None = None) -> str:
    """An id is the text as written: `6185` is the id "6185", never a number."""
    if isinstance(value, int) and not isinstance(value, bool) and raw is not None:
        value = raw
    if not isinstance(value, str):
        raise Problem(f"must be an id (letters, digits, _ or -), not {describe(value)}")
    if not ID_RE.match(value):
        raise Problem(f"{value!r} is not an id: use 1 to 40 letters, digits, _ or -")
    return value


Convert = Callable[[Any, "str | None"], Any]


@dataclass(frozen=True)
class Field:
    name: str
    convert: Convert
    default: Any = REQUIRED
    lo: float | None = None
    hi: float | None = None
    choices: tuple[Any, ...] = ()

    def check(self, value: Any, raw: str | None) -> Any:
        if self.choices:
            return self._choose(value)
        value = self.convert(value, raw)
        if self.lo is not None and self.lo == self.hi and value != self.lo:
            raise Problem(f"must be {self.lo:,}, not {value:,}")
        if self.lo is not None and self.hi is not None and not self.lo <= value <= self.hi:
            raise Problem(f"must be from {self.lo:,} to {self.hi:,}, not {value:,}")
        if self.lo is not None and value < self.lo:
            raise Problem(f"must be at least {self.lo:,}, not {value:,}")
        return value

    def _choose(self, value: Any) -> Any:
        if value in self.choices and type(value) in {type(c) for c in self.choices}:
            return value
        shown = ", ".join(str(c) for c in self.choices)
        hint = did_you_mean(str(value), [str(c) for c in self.choices]) if isinstance(value, str) else ""
        raise Problem(f"must be one of {shown}; not {describe(value)}{hint}")


def key_path(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def unknown_key(report: Report, m: YMap, key: str, path: str, known: Iterable[str],
                elsewhere: dict[str, str] | None = None) -> None:
    """Report a key this section does not have; say where it belongs if it belongs elsewhere."""
    line = m.key_line[key]
    if elsewhere and key in elsewhere:
        report.error(line, key_path(path, key), elsewhere[key])
        return
    report.error(line, key_path(path, key), "unknown key" + did_you_mean(key, known))


class Values(dict):
    """Checked values by key; `bad` names keys whose value was refused (default used)."""

    bad: set[str]

    def ok(self, *names: str) -> bool:
        """Whether all these keys were usable, so a check relating them makes sense."""
        return not self.bad.intersection(names)


def read_fields(report: Report, m: YMap, fields: Iterable[Field], path: str,
                elsewhere: dict[str, str] | None = None,
                skip: Iterable[str] = ()) -> Values:
    """Every field's checked value (or its default after reporting why not).

    `skip` names keys the caller reads itself (nested sections); `elsewhere`
    maps keys that are valid in another section to the message to give here.
    """
    rows = {f.name: f for f in fields}
    skipped = set(skip)
    for key in m:
        if key not in rows and key not in skipped:
            unknown_key(report, m, key, path, [*rows, *skipped], elsewhere)
    out = Values()
    out.bad = set()
    for name, row in rows.items():
        if name not in m:
            if row.default is REQUIRED:
                report.error(m.line, key_path(path, name), "missing (required)")
                out.bad.add(name)
            out[name] = None if row.default is REQUIRED else row.default
            continue
        try:
            out[name] = row.check(m[name], m.raw.get(name))
        except Problem as exc:
            report.error(exc.line or m.key_line[name], key_path(path, name), str(exc))
            out.bad.add(name)
            out[name] = None if row.default is REQUIRED else row.default
    return out


def expect_map(report: Report, value: Any, line: int, path: str) -> YMap | None:
    """The value if it is a mapping (empty if left blank); otherwise report it and return None."""
    if isinstance(value, YMap):
        return value
    if value is None:
        empty = YMap()
        empty.line, empty.key_line, empty.raw = line, {}, {}
        return empty
    report.error(line, path or "(file)", f"must be a mapping of keys, not {describe(value)}")
    return None


def expect_list(report: Report, value: Any, line: int, path: str) -> YList | None:
    """The value if it is a list (empty if left blank); otherwise report it and return None."""
    if isinstance(value, YList):
        return value
    if value is None:
        empty = YList()
        empty.line, empty.item_line, empty.raw = line, [], []
        return empty
    report.error(line, path, f"must be a list, not {describe(value)}")
    return None

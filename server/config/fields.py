"""Tables of keys: what each key accepts, and one reader that checks them all.

Each section of the config (server, limits, a table, craps options, a room) is
a tuple of Field rows. `read_fields` checks a mapping against its rows: unknown
keys (with a did-you-mean), missing required keys, types and ranges, reporting
every problem and falling back to the default so checking can go on.
Checks that relate two keys (max_bet >= min_bet) live with their section.
"""
from __future__ import annotations

from typing import Any, Iterable

from server.config.errors import Report
from server.config.keys import REQUIRED, Field, Problem, describe, did_you_mean
from server.config.yamlsrc import YList, YMap


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


class Values(dict[str, Any]):
    """Checked values by key; `bad` names keys whose value was refused (default used).

    Values are Any: each key's type is its row's (an int for `as_int`, ...),
    which one mapping cannot say; the dataclass built from them (`Limits(**values)`)
    is where each key meets its declared type."""

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


def empty_map(line: int) -> YMap:
    """A mapping with no keys, standing at `line` (a section left blank)."""
    empty = YMap()
    empty.line, empty.key_line, empty.raw = line, {}, {}
    return empty


def expect_map(report: Report, value: object, line: int, path: str) -> YMap | None:
    """The value if it is a mapping (empty if left blank); otherwise report it and return None."""
    if isinstance(value, YMap):
        return value
    if value is None:
        return empty_map(line)
    report.error(line, path or "(file)", f"must be a mapping of keys, not {describe(value)}")
    return None


def expect_list(report: Report, value: object, line: int, path: str) -> YList | None:
    """The value if it is a list (empty if left blank); otherwise report it and return None."""
    if isinstance(value, YList):
        return value
    if value is None:
        empty = YList()
        empty.line, empty.item_line, empty.raw = line, [], []
        return empty
    report.error(line, path, f"must be a list, not {describe(value)}")
    return None

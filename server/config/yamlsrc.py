"""YAML read with the line of every key and item, and the text as written.

PyYAML's plain loader forgets where a value came from; validation needs that
line for every message. So the composed node tree is turned into YMap/YList,
ordinary dicts/lists that also remember lines and the raw scalar text (an id
written `6185` must stay "6185", and `0612` must not become octal 394).

A config file is refused, with its line, rather than allowed to hang or crash
the server (reload runs while people play): nesting deeper than MAX_DEPTH,
aliases that expand to more than MAX_VALUES values (a 2 KB "billion laughs"
file would otherwise take the loader forever) or that contain themselves.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from server.config.errors import ConfigError, Report


class YMap(dict[str, object]):
    """A mapping with `line` (its start), and per key `key_line` and `raw` text.

    Values are a YMap, a YList or a scalar as SafeLoader constructs it (text,
    number, yes/no, empty, date...): `object`, narrowed where each is read."""

    line: int
    key_line: dict[str, int]
    raw: dict[str, str | None]


class YList(list[object]):
    """A sequence with `line` (its start), and per item `item_line` and `raw` text."""

    line: int
    item_line: list[int]
    raw: list[str | None]


MAX_DEPTH = 50          # nested collections in one file
MAX_VALUES = 50_000     # values in the file once every alias is expanded


class _Loader(yaml.SafeLoader):
    """SafeLoader used only for composing nodes and constructing scalars;
    composing counts the nesting and refuses it past MAX_DEPTH."""

    _depth = 0

    # `index` is PyYAML's: an item's position, a mapping value's key node, or None
    # at the top (its stubs say int), passed straight back to it
    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                # where the next node starts (types-PyYAML leaves peek_event unannotated: Any)
                mark = self.peek_event().start_mark  # type: ignore[no-untyped-call]
                raise ComposerError(
                    None, None, f"refused: nested more than {MAX_DEPTH} levels deep", mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _Refused(Exception):
    def __init__(self, line: int, problem: str) -> None:
        super().__init__(problem)
        self.line, self.problem = line, problem


def _check_expansion(root: Node) -> None:
    """Refuse aliases that expand past MAX_VALUES values or MAX_DEPTH levels,
    or contain themselves, naming the line where it happens. Each node is
    measured once (aliases share nodes), so this is linear in the file."""
    size: dict[int, tuple[int, int]] = {}     # id -> (values, levels) once expanded
    open_: set[int] = set()

    def children(node: Node) -> list[Node]:
        if isinstance(node, MappingNode):
            return [n for pair in node.value for n in pair]
        if isinstance(node, SequenceNode):
            return list(node.value)
        return []

    def measure(node: Node) -> tuple[int, int]:
        key = id(node)
        if key in size:
            return size[key]
        if key in open_:
            raise _Refused(_line(node), "refused: an alias refers to a collection that contains it")
        open_.add(key)
        values, levels = 1, 1
        for child in children(node):
            v, lv = measure(child)
            values, levels = min(values + v, MAX_VALUES + 1), max(levels, lv + 1)
        open_.discard(key)
        size[key] = (values, levels)
        return values, levels

    values, levels = measure(root)
    node = root
    if values > MAX_VALUES:
        while True:                   # down to the collection whose parts add up past the limit
            bigger = next((c for c in children(node) if size[id(c)][0] > MAX_VALUES), None)
            if bigger is None:
                raise _Refused(_line(node), f"refused: aliases expand to more than {MAX_VALUES} values")
            node = bigger
    if levels > MAX_DEPTH:
        for _ in range(MAX_DEPTH):    # follow the deepest path to where it passes the limit
            node = max(children(node), key=lambda c: size[id(c)][1])
        raise _Refused(_line(node), f"refused: aliases nest more than {MAX_DEPTH} levels deep")


def _line(node: Node) -> int:
    return node.start_mark.line + 1


def _raw(node: Node) -> str | None:
    return node.value if isinstance(node, ScalarNode) else None


def _convert(loader: _Loader, node: Node, report: Report, path: str) -> object:
    if isinstance(node, MappingNode):
        merged_count = getattr(node, "merged_count", None)
        if merged_count is None:       # an aliased node is flattened only once
            own = sum(1 for k, _ in node.value if k.tag != "tag:yaml.org,2002:merge")
            loader.flatten_mapping(node)   # `<<:` merge keys, as SafeLoader does: merged pairs first
            # our own mark on PyYAML's node (its stubs declare no such attribute)
            merged_count = node.merged_count = len(node.value) - own  # type: ignore[attr-defined]
        merged: set[str] = set()       # keys that came from a merge, which own keys override
        out = YMap()
        out.line, out.key_line, out.raw = _line(node), {}, {}
        for index, (key_node, value_node) in enumerate(node.value):
            key = loader.construct_object(key_node, deep=True) if isinstance(key_node, ScalarNode) else None
            if isinstance(key, bool) or key is None or not isinstance(key, (str, int)):
                shown = key_node.value if isinstance(key_node, ScalarNode) else "a collection"
                report.error(_line(key_node), path or "(file)", f"key {shown!r} must be a word")
                continue
            key = key_node.value if isinstance(key, int) else key
            sub = f"{path}.{key}" if path else key
            if key in out and key not in merged:
                report.error(_line(key_node), sub, f"duplicate key (first at line {out.key_line[key]})")
                continue
            merged.discard(key)
            if index < merged_count:
                merged.add(key)
            out[key] = _convert(loader, value_node, report, sub)
            out.key_line[key] = _line(key_node)
            out.raw[key] = _raw(value_node)
        return out
    if isinstance(node, SequenceNode):
        seq = YList()
        seq.line, seq.item_line, seq.raw = _line(node), [], []
        for i, item in enumerate(node.value):
            seq.append(_convert(loader, item, report, f"{path}[{i}]"))
            seq.item_line.append(_line(item))
            seq.raw.append(_raw(item))
        return seq
    return loader.construct_object(node, deep=True)


def read_yaml(path: Path, report: Report) -> tuple[object, bool]:
    """The file's one document (None if empty) and whether it could be read at all.

    A file that cannot be parsed gives exactly one error, at the line YAML
    stopped; nothing else about it is checked.
    """
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        line = path.read_bytes()[: exc.start].count(b"\n") + 1
        report.error(line, "(file)", "not UTF-8 text")
        return None, False
    except OSError as exc:
        report.error(0, "(file)", f"cannot read: {exc.strerror or exc}")
        return None, False
    loader = _Loader(text)
    found: list[ConfigError] = []     # kept only if the whole file reads
    try:
        node = loader.get_single_node()
        if node is None:
            return None, True
        _check_expansion(node)
        doc = _convert(loader, node, Report(report.file, found), "")
        for error in found:
            report.error(error.line, error.key, error.problem)
        return doc, True
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "not valid YAML"
        if exc.context and exc.problem and exc.context_mark is not None:
            problem += f" ({exc.context} at line {exc.context_mark.line + 1})"
        report.error(mark.line + 1 if mark else 1, "yaml", problem)
        return None, False
    except yaml.YAMLError as exc:
        report.error(1, "yaml", str(exc))
        return None, False
    except _Refused as exc:
        report.error(exc.line, "yaml", exc.problem)
        return None, False
    except RecursionError:
        report.error(1, "yaml", "refused: nested too deeply to read")
        return None, False
    finally:
        loader.dispose()

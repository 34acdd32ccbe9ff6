"""Config problems as data: each names a file, a line and a key.

Operators fix config files by jumping to `file:line`, so every check reports
where the offending key is, and loading collects all problems before failing:
one run of `casino validate` shows everything there is to fix.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ConfigError:
    file: str       # the path as the operator gave it, e.g. "rooms/lobby.yaml"
    line: int       # 1-based; 0 when the problem is a whole directory
    key: str        # dotted key path, e.g. "casino_tables[bank_craps].craps.odds"
    problem: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.key}: {self.problem}"


class ConfigInvalid(Exception):
    """The config and room files, taken together, do not describe a casino."""

    def __init__(self, errors: list[ConfigError]) -> None:
        self.errors: list[ConfigError] = list(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


class Report:
    """Collects the errors of one file while it is checked."""

    def __init__(self, file: str, sink: list[ConfigError]) -> None:
        self.file = file
        self._sink = sink

    def error(self, line: int, key: str, problem: str) -> None:
        self._sink.append(ConfigError(self.file, line, key, problem))

"""Loading the config for a sub-command: every error printed, or the config.

Shared by serve, validate, odds and sim so they refuse a broken casino the
same way: one `file:line: key: problem` line per error, exit code 1.
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from server.config.model import CasinoConfig


def load_or_report(config: Path, rooms: Path, out: TextIO | None = None) -> CasinoConfig | None:
    """`out` is standard output as it is when called (not as it was at import)."""
    from server.config.load import ConfigInvalid, load_config
    try:
        return load_config(config, rooms)
    except ConfigInvalid as exc:
        for error in exc.errors:
            print(error, file=out or sys.stdout)
        return None


def settings_or_report(config: Path, out: TextIO | None = None) -> CasinoConfig | None:
    """The `server:` settings alone, as a CasinoConfig without tables or rooms: the
    portal's (its game process reads and checks the rest, and says what is wrong)."""
    from server.config.load import ConfigInvalid, load_settings
    try:
        return CasinoConfig(settings=load_settings(config), tables={}, rooms={})
    except ConfigInvalid as exc:
        for error in exc.errors:
            print(error, file=out or sys.stdout)
        return None

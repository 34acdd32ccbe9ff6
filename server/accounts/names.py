"""Account names: 3-20 letters, digits or underscores, unique ignoring case."""
from __future__ import annotations

import re

_NAME = re.compile(r"[A-Za-z0-9_]{3,20}")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be an account name, or None when it can."""
    if not _NAME.fullmatch(name):
        return "Names are 3-20 letters, digits or underscores."
    return None


def name_key(name: str) -> str:
    """The canonical form: the ledger and the account store key on it."""
    return name.lower()

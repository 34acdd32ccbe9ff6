"""Account names: 3-20 letters, digits or underscores, unique ignoring case."""
from __future__ import annotations

import re

_NAME = re.compile(r"[A-Za-z0-9_]{3,20}")


def name_problem(name: str) -> str | None:
    """Why `name` cannot be an account name, or None when it can."""
    if not _NAME.fullmatch(name):
        return "Names are 3-20 letters, digits or underscores."
    return None


# Words the login screen takes as commands: an account with one of these
# names could not log in by typing its name, so none is made (an older one
# logs in with `connect <name> <password>`).
LOGIN_WORDS = frozenset({"create", "connect", "quit", "exit", "help"})


def new_name_problem(name: str) -> str | None:
    """Why `name` cannot be given to a new account, or None when it can."""
    problem = name_problem(name)
    if problem is None and name.lower() in LOGIN_WORDS:
        problem = f"The name {name} is a login command; pick another."
    return problem


def name_key(name: str) -> str:
    """The canonical form: the ledger and the account store key on it."""
    return name.lower()

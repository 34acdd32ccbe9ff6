"""Operator rights, and the grants operators make."""
from __future__ import annotations

import logging
from typing import Iterable, Protocol

from server import logs
from server.accounts.store import SERVER, Account

log = logging.getLogger("casino")


class Person(Protocol):
    """Whoever asks for a right: a session, or a table's viewer."""

    @property
    def key(self) -> str | None: ...


class AccountFinder(Protocol):
    """Where accounts are read (server.accounts.store.AccountStore)."""

    async def get(self, name: str) -> Account | None: ...


class Operators:
    """Who has operator rights: a name listed under `operators:` whose account
    was made on the server (`casino account create`), so a player who
    registered the name first never gains them. Also counts the grants
    made this run: with the run id, each grant's ledger key is its own."""

    def __init__(self, run_id: str) -> None:
        self.run_id = run_id
        self.names: set[str] = set()       # the configured names, as keys
        self.grants = 0

    def configure(self, names: Iterable[str]) -> None:
        self.names = {name.lower() for name in names}

    def is_operator(self, session: Person) -> bool:
        if session.key is None or session.key not in self.names:
            return False
        account = getattr(session, "account", None)
        return account is not None and account.origin == SERVER

    async def refuse_squatted(self, accounts: AccountFinder, names: Iterable[str]) -> list[str]:
        """One line (logged, and for the operator's screen) for each of `names`
        whose account a player made: it gets no operator rights."""
        lines = []
        for name in sorted(names):
            account = await accounts.get(name)
            if account is not None and account.origin != SERVER:
                logs.event(log, "operator_refused", name=name, why="made by a player")
                lines.append(f"Operator {name} refused: a player made the account {account.name}; "
                             "operator accounts are made with 'casino account create'.")
        return lines

    def grant_key(self) -> str:
        """The ledger key of the next grant: unique across restarts too."""
        self.grants += 1
        return f"grant:{self.run_id}:{self.grants}"

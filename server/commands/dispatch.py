"""Turn a logged-in player's line into a command call."""
from __future__ import annotations

import logging
from typing import Awaitable, Callable, Protocol, cast

from server import logs
from server.metrics import COUNTS
from server.commands.general import GeneralApp
from server.commands.money import MoneyApp
from server.commands.movement import MovementApp
from server.commands.operator import OperatorApp
from server.commands.prefs import PrefsApp
from server.commands.registry import Context, Registry
from server.commands.relief import ReliefApp
from server.commands.stats import StatsCommandApp
from server.commands.tables import TableWordsApp
from server.net.session import LoggedIn, Session
from server.tables.table import TableClosed

log = logging.getLogger("casino.commands")


class DispatchApp(Protocol):
    """What finding a command uses of the casino: the registry, and whether
    the player has the operator's words."""

    @property
    def registry(self) -> Registry: ...

    def is_operator(self, session: Session) -> bool: ...


class Commands(DispatchApp, GeneralApp, MovementApp, TableWordsApp, MoneyApp, PrefsApp, OperatorApp,
               ReliefApp, StatsCommandApp, Protocol):
    """The casino a line may reach through any command: what each command
    module uses of it, together. Each module depends on its own part alone;
    the app handed to `dispatch` must be all of them (server.app.Casino)."""


async def dispatch(app: Commands, session: LoggedIn, line: str) -> None:
    if not line:
        session.tell()
        return
    if line.startswith("'"):
        word, args = "say", line[1:]
    elif line.startswith(":"):
        word, args = "emote", line[1:]
    else:
        word, _, args = line.partition(" ")
    operator = app.is_operator(session)
    command = app.registry.find(word, operator)
    if command is None:
        hint = app.registry.suggest(word, operator)
        tail = f" Did you mean '{hint}'?" if hint else ""
        session.tell(f"No such command: '{word[:30]}'.{tail} Type 'help' for the list.")
        COUNTS.commands["(unknown)", "unknown"] += 1
        return
    ctx = Context(app, session, word.lower(), args.strip(), command, args.split())
    # the registry keeps every module's handlers alike (registry.Handler); each
    # takes its own part of the casino, and Commands is every part together
    handler = cast(Callable[[Context[Commands]], Awaitable[None]], command.handler)
    result = "ok"
    try:
        await handler(ctx)
    except TableClosed:
        result = "table_closed"
        session.tell("That table has closed; nothing was changed.")
    except Exception as err:
        result = "error"
        # once per connection per command and kind: repeating it never floods the log
        logs.once(session.complaints, log, "command_error", f"{command.name}:{type(err).__name__}",
                  traceback=True, command=command.name, name=session.key, ip=session.ip)
        session.tell("Something went wrong with that command; nothing was changed by it.")
    COUNTS.commands[command.name, result] += 1
    session.tell()

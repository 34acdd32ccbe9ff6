"""Turn a logged-in player's line into a command call."""
from __future__ import annotations

import logging

from server import logs

from server.commands.registry import CommandApp, Context
from server.net.session import LoggedIn
from server.tables.host import TableClosed

log = logging.getLogger("casino.commands")


async def dispatch(app: CommandApp, session: LoggedIn, line: str) -> None:
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
        return
    ctx = Context(app, session, word.lower(), args.strip(), command, args.split())
    try:
        await command.handler(ctx)
    except TableClosed:
        session.tell("That table has closed; nothing was changed.")
    except Exception as err:
        # once per connection per command and kind: repeating it never floods the log
        logs.once(session.complaints, log, "command_error", f"{command.name}:{type(err).__name__}",
                  traceback=True, command=command.name, name=session.key, ip=session.ip)
        session.tell("Something went wrong with that command; nothing was changed by it.")
    session.tell()

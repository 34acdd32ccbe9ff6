"""`create` and `connect`: logging in happens before any command runs (see
server.commands.login), but the words are part of the command surface, so they
have help entries like every other command, and a logged-in player who types
one is told what to do instead."""
from __future__ import annotations

from server.accounts.passwords import MAX_PASSWORD, MIN_PASSWORD
from server.commands.registry import REGISTRY, Context

CREATE_HELP = f"""create <name> <password> - make a new account and log in (before logging in).
Names are 3-20 letters, digits or underscores, unique ignoring case.
Passwords have {MIN_PASSWORD} to {MAX_PASSWORD} characters.
New accounts start with the casino's starting chips.
Or type just a name that is free: you are asked for a password twice, with echo off."""

CONNECT_HELP = """connect <name> <password> - log in to your account (before logging in).
Or type just your name: you are asked for the password with echo off.
Logging in again from elsewhere takes over the older connection."""


async def _logged_in(ctx: Context[object]) -> None:
    """Uses nothing of the casino: the player is told what to do instead."""
    ctx.tell(f"You are logged in as {ctx.session.name}. To use another account, 'quit' and "
             "connect again.")


REGISTRY.command("create", topic="account", help=CREATE_HELP)(_logged_in)
REGISTRY.command("connect", topic="account", help=CONNECT_HELP)(_logged_in)

"""`set`: the player's display preferences, remembered with their account."""
from __future__ import annotations

from server.commands.registry import REGISTRY
from server.commands.registry import Context
from server.net.client import MAX_WIDTH, MIN_WIDTH

_SWITCH = {"on": True, "off": False, "yes": True, "no": False, "true": True, "false": False}
_SETTINGS = {
    "color": ("on|off", lambda v: _SWITCH.get(v)),
    "unicode": ("on|off", lambda v: _SWITCH.get(v)),
    "dice": ("dark|light", lambda v: v if v in ("dark", "light") else None),
    "width": (f"{MIN_WIDTH}-{MAX_WIDTH}", lambda v: int(v) if v.isascii() and v.isdigit() and MIN_WIDTH <= int(v) <= MAX_WIDTH else None),
}
_ALIASES = {"colour": "color", "utf8": "unicode", "cols": "width"}


USAGE = "set color on|off, set unicode on|off, set dice dark|light, set width N (or any of them auto)"


@REGISTRY.command("set", help=f"""set [color on|off | unicode on|off | dice dark|light | width N] - show or change your display.
Without arguments, shows your settings; values not set by you are guessed from your client.
Your choices are kept with your account. Width is {MIN_WIDTH} to {MAX_WIDTH} columns.
'set width auto' (or color, unicode, dice auto) forgets your choice: your client's is used again.""")
async def set_(ctx: Context) -> None:
    session = ctx.session
    if not ctx.argv:
        prefs, chosen = session.prefs, session.account.prefs
        for key in _SETTINGS:
            value = getattr(prefs, key)
            shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
            how = "set by you" if key in chosen else "guessed"
            ctx.tell(f"  {key:<8} {shown:<6} {how}")
        ctx.tell("Guessed values come from your client until you set them.")
        # short enough to stay one line at 72 columns, so the table above stays a table
        ctx.tell("Change: set <name> <value>, e.g. set width 60; set width auto undoes it.")
        return
    key = _ALIASES.get(ctx.argv[0].lower(), ctx.argv[0].lower())
    if key not in _SETTINGS or len(ctx.argv) != 2:
        ctx.tell(f"Usage: {USAGE}")
        return
    if ctx.argv[1].lower() in ("auto", "default", "reset"):
        session.account.prefs.pop(key, None)      # back to what the client says (NAWS for width)
        session.prefs_changed()
        await ctx.app.accounts.save_prefs(session.account.name, session.account.prefs)
        value = getattr(session.prefs, key)
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        ctx.tell(f"{key} is now {shown}, from your client.")
        return
    allowed, parse = _SETTINGS[key]
    value = parse(ctx.argv[1].lower())
    if value is None:
        ctx.tell(f"'{ctx.argv[1][:20]}' is not a value for {key}: use {allowed}, or auto.")
        return
    session.account.prefs[key] = value
    session.prefs_changed()
    await ctx.app.accounts.save_prefs(session.account.name, session.account.prefs)
    shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
    ctx.tell(f"{key} is now {shown}.")

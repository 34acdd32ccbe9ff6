"""`set`: the player's display preferences, remembered with their account."""
from __future__ import annotations

from typing import Callable, Protocol

from server.accounts.store import AccountStore
from server.commands.registry import REGISTRY, Context
from server.ledger import Ledger
from server.net.client import MAX_WIDTH, MIN_WIDTH


class PrefsApp(Protocol):
    """What `set` uses of the casino: the accounts that keep a player's
    choices, and the ledger that keeps whether `top` lists them."""

    @property
    def accounts(self) -> AccountStore: ...
    @property
    def ledger(self) -> Ledger: ...


Ctx = Context[PrefsApp]

_SWITCH = {"on": True, "off": False, "yes": True, "no": False, "true": True, "false": False}
_SETTINGS: dict[str, tuple[str, Callable[[str], object]]] = {
    "color": ("on|off", lambda v: _SWITCH.get(v)),
    "unicode": ("on|off", lambda v: _SWITCH.get(v)),
    "dice": ("dark|light", lambda v: v if v in ("dark", "light") else None),
    "screenreader": ("on|off", lambda v: _SWITCH.get(v)),
    "width": (f"{MIN_WIDTH}-{MAX_WIDTH}", lambda v: int(v) if v.isascii() and v.isdigit() and MIN_WIDTH <= int(v) <= MAX_WIDTH else None),
}
_ALIASES = {"colour": "color", "utf8": "unicode", "cols": "width", "board": "leaderboard", "top": "leaderboard",
            "screen": "screenreader", "reader": "screenreader", "sr": "screenreader", "screen-reader": "screenreader"}
LEADERBOARD = "leaderboard"     # not a display setting: whether `top` lists you


USAGE = ("set color on|off, set unicode on|off, set dice dark|light, set screenreader on|off,"
         " set width N (or any of them auto), set leaderboard on|off")


@REGISTRY.command("set", help=f"""set [color on|off | unicode on|off | dice dark|light | screenreader on|off | width N] - show or change your display.
Without arguments, shows your settings; values not set by you are guessed from your client.
Your choices are kept with your account. Width is {MIN_WIDTH} to {MAX_WIDTH} columns.
'set width auto' (or color, unicode, dice auto) forgets your choice: your client's is used again.
'set leaderboard off' takes you off the leaderboards (`top`); 'set leaderboard on' lists you again.""")
async def set_(ctx: Ctx) -> None:
    session = ctx.session
    if not ctx.argv:
        prefs, chosen = session.prefs, session.account.prefs
        for key in _SETTINGS:
            value = getattr(prefs, key)
            shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
            how = "set by you" if key in chosen else "guessed"
            ctx.tell(f"{key}: {shown}, {how}." if prefs.screenreader else f"  {key:<12} {shown:<6} {how}")
        listed = chosen.get(LEADERBOARD, True)
        board, how = ("on" if listed else "off"), ("set by you" if LEADERBOARD in chosen else "default")
        ctx.tell(f"board: {board}, {how}." if prefs.screenreader else f"  {'board':<12} {board:<6} {how}")
        ctx.tell("Guessed values come from your client until you set them.")
        # short enough to stay one line at 72 columns, so the table above stays a table
        ctx.tell("Change: set <name> <value>, e.g. set width 60; set width auto undoes it.")
        return
    key = _ALIASES.get(ctx.argv[0].lower(), ctx.argv[0].lower())
    if key == LEADERBOARD:
        await _set_leaderboard(ctx)
        return
    if key not in _SETTINGS or len(ctx.argv) != 2:
        ctx.tell(f"Usage: {USAGE}")
        return
    await _change(ctx, key, ctx.argv[1])


async def _change(ctx: Ctx, key: str, raw: str) -> None:
    """One display setting set to `raw` (or `auto`: the client's guess again), kept with the account."""
    session = ctx.session
    if raw.lower() in ("auto", "default", "reset"):
        session.account.prefs.pop(key, None)      # back to what the client says (NAWS for width)
        session.prefs_changed()
        await ctx.app.accounts.save_prefs(session.account.name, session.account.prefs)
        value = getattr(session.prefs, key)
        shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
        ctx.tell(f"{key} is now {shown}, from your client.")
        return
    allowed, parse = _SETTINGS[key]
    value = parse(raw.lower())
    if value is None:
        ctx.tell(f"'{raw[:20]}' is not a value for {key}: use {allowed}, or auto.")
        return
    session.account.prefs[key] = value
    session.prefs_changed()
    await ctx.app.accounts.save_prefs(session.account.name, session.account.prefs)
    shown = ("on" if value else "off") if isinstance(value, bool) else str(value)
    ctx.tell(SCREEN_READER_ON if key == "screenreader" and value else f"{key} is now {shown}.")


SCREEN_READER_ON = ("Screen reader mode is on: tables, dice and lists are said in words. "
                    "'set screenreader off' for the drawn tables.")


@REGISTRY.command("screenreader", help="""screenreader [on|off] - words instead of drawings, for a screen reader.
On, a table is said as "label: value" lines, dice as "four and three, seven", cards and pockets by name, lists one item a line, and each roll or spin ends with what it did to you.
It comes on by itself when your client says it has a screen reader (TinTin++ '#config {screen reader} on', Mudlet's accessibility setting).
Same as 'set screenreader on|off', and kept with your account; 'set screenreader auto' goes back to what your client says.""")
async def screenreader(ctx: Ctx) -> None:
    if not ctx.argv:
        on = ctx.session.prefs.screenreader
        ctx.tell(f"Screen reader mode is {'on' if on else 'off'}. "
                 f"Type 'screenreader {'off' if on else 'on'}' to turn it {'off' if on else 'on'}.")
        return
    await _change(ctx, "screenreader", ctx.argv[0])


async def _set_leaderboard(ctx: Ctx) -> None:
    """`set leaderboard on|off`. The ledger keeps it (the boards' indexes hold only listed
    players), written first: the account's prefs only remember it for `set`'s listing."""
    session = ctx.session
    shown = _SWITCH.get(ctx.argv[1].lower()) if len(ctx.argv) == 2 else None
    if shown is None:
        ctx.tell("Use: set leaderboard on|off (off: top never lists you).")
        return
    await ctx.app.ledger.show_on_boards(session.key, shown)
    if shown:
        session.account.prefs.pop(LEADERBOARD, None)     # on is the default
    else:
        session.account.prefs[LEADERBOARD] = False
    await ctx.app.accounts.save_prefs(session.account.name, session.account.prefs)
    ctx.tell("You are on the leaderboards again." if shown else "You are off the leaderboards (top).")

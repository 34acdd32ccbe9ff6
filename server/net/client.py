"""What we can guess about a client from telnet negotiation.

TTYPE (and the MTTS bit field MUD clients send as their third terminal type),
CHARSET / LANG and NAWS give sensible defaults for colour, Unicode and width;
the player's own `set` choices always win over these guesses.
"""
from __future__ import annotations

from typing import Mapping

from server.render.prefs import Prefs

# MTTS bits (https://tintin.mudhalla.net/protocols/mtts/)
_MTTS_ANSI = 1
_MTTS_UTF8 = 4
_MTTS_SCREEN_READER = 64     # TinTin++ `#config {screen reader} on`, Mudlet's accessibility setting
_COLOUR_TERMS = ("xterm", "ansi", "vt100", "vt220", "linux", "screen", "tmux", "rxvt",
                 "color", "mudlet", "tintin", "cmud", "zmud", "mushclient", "putty", "konsole")
_UNICODE_TERMS = ("xterm", "rxvt-unicode", "mudlet", "tintin", "screen", "tmux", "konsole", "alacritty", "kitty")


MIN_WIDTH, MAX_WIDTH = 40, 250


def clamp_width(cols: int) -> int:
    return max(MIN_WIDTH, min(MAX_WIDTH, cols))


def guess_prefs(extra: Mapping[str, object]) -> Prefs:
    """Guess preferences from what negotiation told us (`get_extra_info` values)."""
    ttypes = [str(extra.get(f"ttype{i}") or "") for i in range(1, 5)]
    term = str(extra.get("TERM") or "").lower()
    names = [t.lower() for t in ttypes if t] + [term]
    mtts = 0
    for t in ttypes:
        if t.upper().startswith("MTTS "):
            try:
                mtts = int(t.split()[1])
            except (IndexError, ValueError):
                pass
    charset = str(extra.get("charset") or extra.get("LANG") or "").lower()
    color = bool(mtts & _MTTS_ANSI) or any(c in n for n in names for c in _COLOUR_TERMS)
    unicode = (bool(mtts & _MTTS_UTF8) or "utf-8" in charset or "utf8" in charset
               or any(n.startswith(_UNICODE_TERMS) for n in names if n))
    cols = extra.get("cols") or 80
    try:
        width = clamp_width(int(cols)) if isinstance(cols, (int, float, str)) else 80
    except ValueError:
        width = 80
    return Prefs(color=color, unicode=unicode, width=width, screenreader=bool(mtts & _MTTS_SCREEN_READER))

"""How one viewer wants to see things: plain data the renderers read.

It lives in render, not in net, because every renderer needs it and render
must not depend on the telnet edge; net fills it in from negotiation.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping


@dataclass(frozen=True)
class Prefs:
    color: bool = False
    unicode: bool = False
    dice: str = "dark"       # "dark" or "light" pips
    width: int = 80
    screenreader: bool = False   # words instead of drawings (render.spoken; docs/running.md)

    def with_overrides(self, overrides: Mapping[str, object]) -> "Prefs":
        known = {k: v for k, v in overrides.items() if k in self.__dataclass_fields__}
        return Prefs(**{**self.__dict__, **known})

"""Reading what a table (a PureTable) answered, in the tests of any game: events
of a kind, the Notes a player reads, the Notices, and the facts as one viewer sees them."""
from __future__ import annotations

from server.games.seam import Note, Notice, Viewer
from server.render.prefs import Prefs


def of(events, cls) -> list:
    return [e for e in events if isinstance(e, cls)]


def notes(events, player: str | None = None) -> str:
    return " | ".join(e.text for e in of(events, Note) if player is None or e.to is None or player in e.to)


def notices(events) -> dict[str, str]:
    return {e.player: e.text for e in of(events, Notice)}


def text(t, events, who: str = "ann", prefs: Prefs | None = None) -> str:
    viewer = Viewer(who, prefs or Prefs(), seated=who in t.seated())
    return "\n".join(line for e in events for line in t.render(e, viewer))

"""The rooms and who is in each: the only shared geography.

Rooms come from rooms/*.yaml (validated into RoomConfig). Movement words are
full direction names; `n s e w u d` are aliases. `down` is always movement.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Protocol

from server.config.model import RoomConfig

DIRECTIONS = {
    "north": "n", "south": "s", "east": "e", "west": "w", "up": "u", "down": "d",
    "northeast": "ne", "northwest": "nw", "southeast": "se", "southwest": "sw",
    "in": "", "out": "",
}
_ALIASES = {short: full for full, short in DIRECTIONS.items() if short}
_OPPOSITE = {"north": "the south", "south": "the north", "east": "the west", "west": "the east",
             "up": "below", "down": "above", "northeast": "the southwest", "northwest": "the southeast",
             "southeast": "the northwest", "southwest": "the northeast", "in": "outside", "out": "inside"}


def direction(word: str) -> str | None:
    """The full direction name for a word or its short form."""
    word = word.lower()
    if word in DIRECTIONS:
        return word
    return _ALIASES.get(word)


def arrival_from(direction_word: str) -> str:
    return _OPPOSITE.get(direction_word, "somewhere")


CROWD = 30      # more people than this in a room: arrivals and departures go unannounced
# Lines the crowded rooms' speech may deliver a second, all speakers in all of
# them together: a lobby of 1,000 hears about one person a second, as fast as
# anyone reads a crowd. Each line is a socket write that wakes its reader: at
# 2,000 a second a full house's replies were twice as slow at the 99th
# percentile (docs/performance.md).
HEARD_PER_SECOND = 1_000


class Occupant(Protocol):
    """What the world and those who tell a room something use of someone
    standing in it (a server.net.session.Session)."""

    room: str | None                 # where they stand; the world sets it as they move

    @property
    def key(self) -> str | None: ...  # their account's key (None before login)

    @property
    def name(self) -> str: ...        # what `look` names them

    def tell(self, *lines: str) -> None: ...     # a line for them, with their next prompt

    def hear(self, line: str) -> None: ...       # a line from someone else, written now (the crier)


class World:
    """Rooms and who stands in each. Occupants are kept in arrival order in
    insertion-ordered dicts, so placing, removing and counting cost the same
    however full a room is."""

    def __init__(self, rooms: dict[str, RoomConfig]) -> None:
        self.rooms = rooms
        self._occupants: dict[str, dict[Occupant, None]] = defaultdict(dict)
        self._noise: tuple[float, float] = (0.0, 0.0)   # crowded rooms' (lines owed, when)
        self.version = 0                 # one more after every move and every change of rooms
        self.on_enter: Callable[[Occupant, str], None] | None = None   # the casino's arrival hook (GMCP)

    def occupants(self, room_id: str) -> list[Occupant]:
        """Everyone in the room, in arrival order (to tell them all something)."""
        return list(self._occupants.get(room_id, ()))

    def count(self, room_id: str) -> int:
        return len(self._occupants.get(room_id, ()))

    def crowded(self, room_id: str) -> bool:
        """Too full to announce each arrival and departure to everyone."""
        return self.count(room_id) > CROWD

    def heard(self, room_id: str, now: float) -> bool:
        """May one more person speak to this room now? Speech reaches everyone
        present, so in a crowded room one `say` costs thousands of lines: the
        crowded rooms share one budget of HEARD_PER_SECOND delivered lines,
        refilled continuously (one budget for all of them, because the server
        that writes the lines is one). A room that is not crowded is never
        limited."""
        listeners = self.count(room_id)
        if listeners <= CROWD:
            return True
        level, then = self._noise
        level = max(0.0, level - (now - then) * HEARD_PER_SECOND)
        if level > 0 and level + listeners > HEARD_PER_SECOND:   # a full budget lets anyone speak
            self._noise = (level, now)
            return False
        self._noise = (level + listeners, now)
        return True

    def sample(self, session: Occupant, limit: int, skip: set[str]) -> list[Occupant]:
        """Up to `limit` others in the session's room, earliest arrivals first,
        passing over the keys in `skip`: what `look` names."""
        found: list[Occupant] = []
        if session.room is None:        # not standing anywhere (not yet placed): nobody to name
            return found
        for other in self._occupants.get(session.room, ()):
            if other is not session and other.key not in skip:
                found.append(other)
                if len(found) == limit:
                    break
        return found

    def place(self, session: Occupant, room_id: str) -> None:
        self.remove(session)
        session.room = room_id
        self._occupants[room_id][session] = None
        self.version += 1
        if self.on_enter is not None:
            self.on_enter(session, room_id)

    def remove(self, session: Occupant) -> None:
        if session.room is not None:
            self._occupants[session.room].pop(session, None)
            self.version += 1

    def replace_rooms(self, rooms: dict[str, RoomConfig]) -> None:
        self.rooms = rooms
        self.version += 1

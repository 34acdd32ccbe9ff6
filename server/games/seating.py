"""Who sits at one table, in what order, who sits out, who is on the way out,
and who watches: the one answer to "where is this player".

The table owns one Seating per table and is the only one that seats,
unseats or defers; the game's dealer reads it (the shooter is the first
active seat, Pig's next game takes the ready seats) and may reorder it in
the one way a game's rules move people: `to_tail` (a seven-out sends the
shooter to the back of the queue). Plain data, no sessions: players are
named by display name, watchers by their key and name.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Seat:
    player: str                    # display name, as games and other players see it
    key: str                       # the account key (lower case), as the ledger knows it
    sitting_out: bool = False      # seated, but skipped for the dice and takes no new bets
    leaving: str | None = None     # "leave" or "sitout" once the last live bet is decided
    ready: bool = True             # in the next round, for games that ask (Pig)


@dataclass
class Seating:
    seats: list[Seat] = field(default_factory=list)     # arrival order = shooter queue
    watchers: dict[str, str] = field(default_factory=dict)   # key -> display name

    # --- questions -----------------------------------------------------------
    def seat(self, player: str) -> Seat | None:
        for s in self.seats:
            if s.player == player:
                return s
        return None

    def seat_by_key(self, key: str) -> Seat | None:
        # A loop, not next() over a generator: asked of every table for
        # every table word a player types (app.seat_of).
        for s in self.seats:
            if s.key == key:
                return s
        return None

    def names(self) -> list[str]:
        """Everyone seated, in seat order."""
        return [s.player for s in self.seats]

    def active(self) -> list[str]:
        """Seated and not sitting out, in seat order."""
        return [s.player for s in self.seats if not s.sitting_out]

    def __len__(self) -> int:
        return len(self.seats)

    def __contains__(self, player: object) -> bool:
        return any(s.player == player for s in self.seats)

    # --- changes (the table's; `to_tail` also the dealer's) ----------------------
    def add(self, player: str, key: str, *, ready: bool = True) -> Seat:
        self.watchers.pop(key, None)
        seat = Seat(player, key, ready=ready)
        self.seats.append(seat)
        return seat

    def remove(self, player: str) -> Seat | None:
        seat = self.seat(player)
        if seat is not None:
            self.seats.remove(seat)
        return seat

    def to_tail(self, player: str) -> None:
        """Move a seat to the back of the queue (a seven-out, a return from sitting out)."""
        seat = self.seat(player)
        if seat is not None and len(self.seats) > 1:
            self.seats.remove(seat)
            self.seats.append(seat)

"""Who sits at an alley craps game and what each holds there.

The game's flow (game.py) asks this record the seating questions - who still
has money, who is next in seat order, who left and is owed their bankroll - so
the state machine reads as the flow of a pass.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence


@dataclass
class Seats:
    order: list[str]                      # seat order; changes only before the start
    bank: dict[str, int]                  # table bankrolls: seated players and unpaid leavers
    seated: set[str] = field(default_factory=set)
    unpaid: list[str] = field(default_factory=list)      # left with chips still in the game
    announced: set[str] = field(default_factory=set)     # cleaned out, already told

    @classmethod
    def buy_in(cls, players: Sequence[str], amount: int) -> "Seats":
        return cls(list(players), {p: amount for p in players}, set(players))

    def has_money(self, player: str) -> bool:
        return player in self.seated and self.bank.get(player, 0) > 0

    def active(self) -> list[str]:
        """Seated players with money, in seat order."""
        return [p for p in self.order if self.has_money(p)]

    def after(self, player: str) -> list[str]:
        """Everyone else in seat order, starting after `player`."""
        i = self.order.index(player)
        return self.order[i + 1:] + self.order[:i]

    def next_shooter(self, after: str) -> str:
        return next(p for p in self.after(after) if self.has_money(p))

    def balances(self) -> tuple[tuple[str, int], ...]:
        return tuple((p, self.bank[p]) for p in self.order if p in self.bank)

    def seated_banks(self) -> dict[str, int]:
        return {p: self.bank[p] for p in self.order if p in self.seated and p in self.bank}

    def leave(self, player: str) -> None:
        """Out of the game; chips stay on the books until paid, if there are any."""
        self.seated.discard(player)
        if self.bank[player]:
            self.unpaid.append(player)
        else:
            del self.bank[player]

    def drop(self, player: str) -> None:
        """Out of the game with their chips already in their wallet (a refused Hold)."""
        self.seated.discard(player)
        self.bank.pop(player, None)

    def newly_cleaned_out(self) -> list[str]:
        out = [p for p in self.order if p in self.seated and self.bank.get(p) == 0
               and p not in self.announced]
        self.announced.update(out)
        return out

    def take_unpaid(self) -> dict[str, int]:
        """What every unpaid leaver is owed; they are off the books from now on."""
        owed = {p: self.bank.pop(p) for p in self.unpaid}
        self.unpaid = []
        return owed

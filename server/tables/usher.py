"""The usher: seats, unseats and defers, for one table, as plain events.

Every table's seating rules are the same and live here, not in the games:
a full table turns people away, a game may refuse a seat for its own reason
(alley craps' buy-in), a player back from sitting out rejoins at the tail of
the queue (so a made point keeps the shooter), and a leave waits while the
game says the player has live bets - the player stays seated, sees the roll
that decides them, and is unseated right after (`finish_leaves`).

Pure: each method returns events (addressed Notes and the dealer's answers)
for the table to apply in order; the table owns the Seating and the dealer.
"""
from __future__ import annotations

from server.games.seam import AnyDealer, Event, Note
from server.games.seating import Seating


class Usher:
    def __init__(self, seating: Seating, dealer: AnyDealer, word: str) -> None:
        self.seating = seating
        self.dealer = dealer        # the table swaps it when the table is reconfigured
        self.word = word            # play <word>, watch <word>

    def _others(self, player: str) -> tuple[str, ...]:
        return tuple(p for p in self.seating.names() if p != player)

    def sit(self, player: str, key: str, wallet: int) -> list[Event]:
        """`play <game>`: take a seat, come back from sitting out, or stay
        after all (a leave still waiting on live bets is called off)."""
        me = (player,)
        seat = self.seating.seat_by_key(key)
        if seat is not None:
            if seat.sitting_out:
                seat.sitting_out, seat.leaving = False, None
                self.seating.to_tail(player)
                return [Note(me, "You are back in the game."),
                        Note(self._others(player), f"{player} is back in the game."),
                        *self.dealer.seated(player, True)]
            if seat.leaving:
                seat.leaving = None
                return [Note(me, "You stay at the table."), *self.dealer.turns_changed()]
            return [Note(me, "You are already at this table.")]
        most = self.dealer.config.max_players
        if len(self.seating) >= most:
            if most == 1:
                return [Note(me, f"This is a table for one, and {self.seating.names()[0]} is playing. "
                                 f"Try 'watch {self.word}'.")]
            return [Note(me, f"The table is full ({most} players). Try 'watch {self.word}'.")]
        problem = self.dealer.sit_problem(player, wallet)
        if problem:
            return [Note(me, problem)]
        self.seating.add(player, key)
        return self.dealer.seated(player, False)

    def leave(self, player: str, how: str = "leave") -> list[Event]:
        """Get up ("leave") or sit out ("sitout"): at once, or once the
        player's live bets are decided."""
        me = (player,)
        seat = self.seating.seat(player)
        if seat is None:
            return [Note(me, "You are not seated here.")]
        if how == "sitout" and seat.sitting_out:
            return [Note(me, f"You are sitting out already: 'play {self.word}' to come back in.")]
        if self.dealer.has_live_bets(player):
            seat.leaving = how
            return [Note(me, f"You will {'leave' if how == 'leave' else 'sit out'} once your live bets "
                             f"are decided; no new bets meanwhile ('play {self.word}' to stay)."),
                    *self.dealer.turns_changed()]
        return self._depart(player, how)

    def _depart(self, player: str, how: str) -> list[Event]:
        seat = self.seating.seat(player)
        if seat is None:
            return []
        seat.leaving = None
        if how == "sitout":
            seat.sitting_out = True
            return [Note((player,), f"You sit out: no shooting and no new bets. 'play {self.word}' "
                                    "to come back in."),
                    Note(self._others(player), f"{player} sits out."),
                    *self.dealer.unseated(player, how)]
        self.seating.remove(player)
        return [Note((player,), "You leave the table."), Note(None, f"{player} leaves the table."),
                *self.dealer.unseated(player, how)]

    def gone(self, player: str) -> list[Event]:
        """A dropped connection: out of the seat at once; the game's rule for
        live bets applies (forfeit at craps, a pass plays out at alley)."""
        if self.seating.remove(player) is None:
            return []
        return [Note(None, f"{player} has gone."), *self.dealer.unseated(player, "gone")]

    def finish_leaves(self) -> list[Event]:
        """Unseat those whose leave waited on bets that are now decided."""
        events: list[Event] = []
        for seat in list(self.seating.seats):
            if seat.leaving and not self.dealer.has_live_bets(seat.player):
                events += self._depart(seat.player, seat.leaving)
        return events

    def refusal(self, player: str, word: str, opening_words: tuple[str, ...], retiring: bool) -> str | None:
        """Why a game word that opens a wager or a game is refused, or None."""
        if word not in opening_words:
            return None
        if retiring:
            return "This table is closing: no new bets or games."
        seat = self.seating.seat(player)
        if seat is not None and seat.leaving:
            return f"You are on your way out: no new bets ('play {self.word}' to stay)."
        if seat is not None and seat.sitting_out:
            return f"You are sitting out: 'play {self.word}' to come back in."
        return None

"""FairDice: one table's provably fair random source, with commit and reveal.

The table commits to a secret server seed (publishes its SHA-256) before any
draw uses it; the shooter may choose the client seed; every draw - a roll of
two dice is draw(36), a wheel spin draw(37) - takes the next nonce. `rotate()`
retires the seed - revealing it with the client seeds, nonces and draw sizes
it served, so every one of those draws can be recomputed offline
(`casino verify`) - and commits to a fresh one.

When the table rotates is its policy (e.g. at the end of each shooter hand, or
when a player asks); nothing here keeps time. Setting a client seed does not
rotate: the current seed was committed before the player chose, so the server
could not have picked it to suit that choice.

Plain data, no I/O. Server seeds come from `secrets`, or in deterministic mode
(`casino serve --seed N`) from N and the table id, and the object says so.
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass

from server.dice.derive import DICE_OUTCOMES, Deriver, commitment, deterministic_server_seed, split_dice
from server.dice.source import Dice

CLIENT_SEED_MAX = 64
KEEP_REVEALED = 20


@dataclass(frozen=True)
class DrawRecord:
    """One draw under the current commitment: `value` in [0, n) at `nonce`.

    n and the raw value are kept for every draw, so one record type serves
    dice and wheel alike and says exactly what `casino verify --draw n` prints.
    """

    nonce: int
    client_seed: str
    n: int
    value: int

    @property
    def dice(self) -> Dice | None:
        """The two dice when this draw was a roll (n = 36), else None."""
        return split_dice(self.value) if self.n == DICE_OUTCOMES else None


@dataclass(frozen=True)
class Revealed:
    """A retired server seed and what it served.

    `client_seeds` lists (first nonce, client seed): each client seed was used
    from its nonce up to the next entry's nonce (or `rolls` for the last).
    Nonces ran 0 .. rolls-1; `rolls` counts draws of every size. `sizes` are
    the n of those draws, ascending ((36,) for a dice table, (37,) for a
    wheel): a player needs them to recompute the draws.
    """

    server_seed: str
    commitment: str
    client_seeds: tuple[tuple[int, str], ...]
    rolls: int
    sizes: tuple[int, ...]


def client_seed_problem(text: str) -> str | None:
    """Why `text` cannot be a client seed, or None when it can (after strip).

    ':' is refused because it separates the fields of the HMAC message; without
    it no two (client seed, nonce, block) triples can spell the same message.
    """
    text = text.strip()
    if not text:
        return "A client seed needs at least one character: seed <text>."
    if len(text) > CLIENT_SEED_MAX:
        return f"A client seed is at most {CLIENT_SEED_MAX} characters."
    if ":" in text:
        return "A client seed cannot contain ':'."
    if not text.isprintable():
        return "A client seed must be printable characters."
    return None


class FairDice:
    """A DiceSource and DrawSource whose every draw can be verified after the seed is revealed."""

    def __init__(
        self,
        table_id: str = "table",
        *,
        seed: int | None = None,
        client_seed: str | None = None,
        keep_revealed: int = KEEP_REVEALED,
    ) -> None:
        """`seed` set = deterministic mode; `keep_revealed` bounds the reveal list."""
        self.table_id = table_id
        self.seed = seed
        self.default_client_seed = table_id if client_seed is None else client_seed
        problem = client_seed_problem(self.default_client_seed)
        if problem:
            raise ValueError(problem)
        self._keep = keep_revealed
        self._client_seed = self.default_client_seed.strip()
        self._rotation = 0
        self._revealed: list[Revealed] = []
        self._commit(self._new_server_seed())

    # --- state shown by `fair` ---------------------------------------------
    @property
    def deterministic(self) -> bool:
        return self.seed is not None

    @property
    def commitment(self) -> str:
        """SHA-256 hex of the current (secret) server seed."""
        return self._commitment

    @property
    def client_seed(self) -> str:
        return self._client_seed

    @property
    def nonce(self) -> int:
        """The nonce the next draw will use (draws so far under this commitment)."""
        return len(self._rolls)

    @property
    def rolls(self) -> tuple[DrawRecord, ...]:
        """Draws (rolls and any other) since the current commitment, oldest first."""
        return tuple(self._rolls)

    @property
    def revealed(self) -> tuple[Revealed, ...]:
        """Retired server seeds, newest first (at most `keep_revealed`)."""
        return tuple(reversed(self._revealed))

    # --- changes ---------------------------------------------------------------
    def set_client_seed(self, text: str) -> str | None:
        """Use `text` (stripped) for the next rolls; a one-line reason if refused."""
        problem = client_seed_problem(text)
        if problem:
            return problem
        text = text.strip()
        if text != self._client_seed:
            self._client_seed = text
            if self._segments[-1][0] == self.nonce:    # the previous one served no roll
                self._segments.pop()
            self._segments.append((self.nonce, text))
        return None

    def draw(self, n: int) -> int:
        """A fair value in [0, n) at the next nonce, recorded; 2 <= n <= 2**32.

        Dice and a wheel share the nonce sequence, so a table can use either
        without a second commitment.
        """
        value = self._deriver.draw(self._client_seed, self.nonce, n)
        self._rolls.append(DrawRecord(self.nonce, self._client_seed, n, value))
        return value

    def roll(self) -> Dice:
        """Two dice: draw(36) split, so a roll verifies as one draw."""
        return split_dice(self.draw(DICE_OUTCOMES))

    def rotate(self) -> Revealed:
        """Reveal the current server seed and commit to a new one."""
        # A client seed set after the last roll served nothing under this seed.
        used = tuple(s for s in self._segments if s[0] < self.nonce)
        sizes = tuple(sorted({r.n for r in self._rolls}))
        done = Revealed(self._deriver.server_seed, self._commitment, used, self.nonce, sizes)
        self._revealed.append(done)
        del self._revealed[: max(0, len(self._revealed) - self._keep)]
        self._rotation += 1
        self._commit(self._new_server_seed())
        return done

    # --- internals -------------------------------------------------------------
    def _new_server_seed(self) -> str:
        if self.seed is None:
            return secrets.token_hex(32)
        return deterministic_server_seed(self.seed, self.table_id, self._rotation)

    def _commit(self, server_seed: str) -> None:
        self._deriver = Deriver(server_seed)
        self._commitment = commitment(server_seed)
        self._rolls: list[DrawRecord] = []
        self._segments: list[tuple[int, str]] = [(0, self._client_seed)]

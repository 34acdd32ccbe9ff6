"""Classic dice: what a C program's rand() rolls after srand(n) (docs/play-simplified-craps.md
"Classic dice").

Spec 002 prints runs of a C program seeded with srand(N) on Windows and on a
Mac; spec 001 asks for "a random number seed" for POSIX random(). Each
generator here is one small, pure, deterministic class with no global state,
exactly as its C library computes it:

- `MsvcRand`: Microsoft's rand(): x = (x * 214013 + 2531011) mod 2^32, value
  (x >> 16) & 0x7fff.
- `MacRand`: the BSD "minimal standard" rand() of a Mac: x = 16807 x mod
  (2^31 - 1) by Schrage's method, seed 0 taken as 123459876.
- `GlibcRandom`: glibc's srandom()/random(), the TYPE_3 additive feedback
  generator: r[i] = r[i-31] + r[i-3] mod 2^32, value r >> 1, seeded by the
  16807 LCG with 310 outputs discarded (seed 0 taken as 1).

`ClassicDice` turns one into two dice as the programs did: die = rand() % 6
+ 1, the first die first. `ClassicSource` is what a classic table rolls
from: it takes a seed such as "msvc 22" and carries the stream on from game
to game until the next seed starts it again.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Callable, Protocol

from server.dice.source import Dice

UINT32 = 0xFFFFFFFF
MODULUS = 0x7FFFFFFF            # 2^31 - 1, the minimal standard's prime
SEED_MAX = UINT32               # srand() takes an unsigned int


class CRand(Protocol):
    """A C library's generator: the next value of rand() (or random())."""

    def rand(self) -> int: ...


def _schrage(x: int) -> int:
    """16807 x mod (2^31 - 1) by Schrage's method, as C computes it on a
    signed 32-bit x (division truncating towards zero)."""
    hi = -(-x // 127773) if x < 0 else x // 127773
    lo = x - hi * 127773
    x = 16807 * lo - 2836 * hi
    return x + MODULUS if x < 0 else x


class MsvcRand:
    """Microsoft C's rand() after srand(seed); RAND_MAX is 32767."""

    RAND_MAX = 0x7FFF

    def __init__(self, seed: int) -> None:
        self.state = seed & UINT32

    def rand(self) -> int:
        self.state = (self.state * 214013 + 2531011) & UINT32
        return (self.state >> 16) & 0x7FFF


class MacRand:
    """The BSD minimal standard rand() of a Mac after srand(seed) (Park and
    Miller: multiplier 16807, modulus 2^31 - 1); RAND_MAX is 2^31 - 1."""

    RAND_MAX = MODULUS
    ZERO_SEED = 123459876           # the state 0 cannot be; the library uses this

    def __init__(self, seed: int) -> None:
        self.state = seed & UINT32

    def rand(self) -> int:
        self.state = _schrage(self.state or self.ZERO_SEED)
        return self.state


class GlibcRandom:
    """glibc's random() after srandom(seed): the TYPE_3 additive feedback
    generator (degree 31, separation 3); RAND_MAX is 2^31 - 1."""

    RAND_MAX = MODULUS
    DEGREE, SEPARATION, DISCARD = 31, 3, 310

    def __init__(self, seed: int) -> None:
        word = (seed & UINT32) or 1                 # srandom(0) seeds as srandom(1)
        if word > 0x7FFFFFFF:                       # state[0] is a signed 32-bit int
            word -= 1 << 32
        r = [word]
        for _ in range(1, self.DEGREE):
            word = _schrage(word)
            r.append(word)
        self._r = [v & UINT32 for v in r]
        self._front, self._rear = self.SEPARATION, 0   # fptr = &state[3], rptr = &state[0]
        for _ in range(self.DISCARD):
            self.rand()

    def rand(self) -> int:
        r, f, b = self._r, self._front, self._rear
        r[f] = (r[f] + r[b]) & UINT32
        value = r[f] >> 1
        self._front, self._rear = (f + 1) % self.DEGREE, (b + 1) % self.DEGREE
        return value


@dataclass(frozen=True)
class Program:
    """One C library as a player names it: `seed <name> <n>`."""

    name: str
    make: Callable[[int], CRand]
    calls: str              # how its seeding reads in C
    where: str              # whose library it is


PROGRAMS: Mapping[str, Program] = MappingProxyType({
    "msvc": Program("msvc", MsvcRand, "srand", "Windows (Microsoft C)"),
    "mac": Program("mac", MacRand, "srand", "a Mac (BSD libc)"),
    "glibc": Program("glibc", GlibcRandom, "srandom", "Linux (glibc random())"),
})
SEED_USAGE = "seed msvc <n>, seed mac <n> or seed glibc <n>"


class ClassicDice:
    """Two dice from one C generator: die = rand() % 6 + 1, the first die first."""

    def __init__(self, generator: CRand) -> None:
        self.generator = generator
        self.rolls = 0

    def roll(self) -> Dice:
        first = self.generator.rand() % 6 + 1
        second = self.generator.rand() % 6 + 1
        self.rolls += 1
        return (first, second)


@dataclass(frozen=True)
class ClassicSeed:
    """A seed a player typed: the program and its number."""

    program: Program
    number: int

    @property
    def text(self) -> str:
        """As typed: "msvc 22"."""
        return f"{self.program.name} {self.number}"

    @property
    def said(self) -> str:
        """As the C program seeds: "srand(22) on Windows (Microsoft C)"."""
        return f"{self.program.calls}({self.number}) on {self.program.where}"


def parse_seed(text: str) -> ClassicSeed | str:
    """`msvc 22` as a ClassicSeed, or a one-line reason."""
    words = text.lower().split()
    if len(words) != 2 or words[0] not in PROGRAMS:
        return f"Classic dice take {SEED_USAGE} (for example: seed msvc 22)."
    number = words[1]
    if not number.isdigit() or len(number) > 10 or int(number) > SEED_MAX:
        return f"A classic seed is a whole number from 0 to {SEED_MAX:,} (an unsigned int), not '{number[:20]}'."
    return ClassicSeed(PROGRAMS[words[0]], int(number))


class ClassicSource:
    """A classic table's dice: no rolls until a seed; then the seeded
    program's stream, carried on from game to game; a new seed starts it again.

    It answers the table's `seed <text>` and `fair` in the fair dice' place
    (server.dice.source.OwnDraws: its game hands it to the table)."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.seed: ClassicSeed | None = None
        self.dice: ClassicDice | None = None
        self.fresh = False              # seeded, and no roll made since

    @property
    def seeded(self) -> bool:
        return self.dice is not None

    @property
    def rolls(self) -> int:
        """Rolls since the last seed."""
        return self.dice.rolls if self.dice else 0

    def take_seed(self, text: str) -> str:
        """Seed from `text` ("msvc 22"), starting the stream again (the same
        seed too): the answer, "Seeded: ..." when taken, else a one-line reason."""
        seed = parse_seed(text.strip())
        if isinstance(seed, str):
            return seed
        self.seed, self.dice, self.fresh = seed, ClassicDice(seed.program.make(seed.number)), True
        return f"Seeded: {seed.text}, as {seed.said}. The next roll is that program's first."

    def roll(self) -> Dice:
        if self.dice is None:
            raise RuntimeError(f"classic dice at {self.table_id} have no seed yet")
        self.fresh = False
        return self.dice.roll()

    def fair_lines(self) -> list[str]:
        """What `fair` says at a classic table: predictable by design."""
        now = ([f"Seeded with {self.seed.text}: {self.seed.said}.", f"Rolls since that seed: {self.rolls}."]
               if self.seed else [f"No seed yet: type {SEED_USAGE}."])
        return [
            f"Classic dice at table {self.table_id}: not fair, predictable by design.",
            "Each roll is what a C program rolls after seeding: die = rand() % 6 + 1,",
            "the first die first, so a run printed with its seed is replayed roll for roll.",
            "Whoever knows the seed knows every roll: this table moves no chips",
            "(a practice bankroll only; nothing is written to the ledger).",
            *now,
        ]

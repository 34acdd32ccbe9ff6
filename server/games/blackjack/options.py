"""A blackjack table's options, and the config keys that build them.

`BlackjackOptions` is the rules of one table as plain data (its play page
says them to players): the dealer, the table view, `casino odds` and `hint` all read
this one value, so a rule is named once. `BLACKJACK_KEYS` declares what a
`game: blackjack` entry of casino_tables may say; `read` checks every key
with file:line errors, and `problems()` is the same check for options built
by hand (tests, tools).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, ClassVar

from server.config.keys import Field, Problem, as_int, describe, option, rows_of
from server.games.seam import Built, OptionsReader, TableKeys
from server.games.table_options import (as_yes_no, check_limits, check_window, limit_problems, seconds_problems,
                                        window_problem)

MAX_CHIPS = 1_000_000_000
PAYS = {"3:2": Fraction(3, 2), "6:5": Fraction(6, 5)}     # what a player blackjack pays, by its name
SOFT_17 = ("stand", "hit")
SURRENDER = ("none", "late")


def as_pays(value: object, raw: str | None = None) -> str:
    """"3:2" or "6:5", as text: YAML 1.1 reads an unquoted 3:2 as the base-60 number 182."""
    if isinstance(value, str) and value.strip() in PAYS:
        return value.strip()
    if isinstance(value, int) and not isinstance(value, bool):
        raise Problem(f"must be \"3:2\" or \"6:5\" in quotes, not {describe(value)} "
                      f"(YAML reads an unquoted 3:2 as the number 182)")
    raise Problem(f"must be \"3:2\" or \"6:5\", not {describe(value)}")


def as_word(choices: tuple[str, ...]) -> Callable[[object, str | None], str]:
    """One of a few words (`soft_17: stand`), refused with the list otherwise."""
    def convert(value: object, raw: str | None = None) -> str:
        if isinstance(value, str) and value.strip().lower() in choices:
            return value.strip().lower()
        raise Problem(f"must be {' or '.join(choices)}, not {describe(value)}")
    return convert


@dataclass(frozen=True)
class BlackjackOptions:
    """Defaults are the casino's: six decks cut at 75%, 3:2, the dealer stands on
    soft 17, up to 4 hands, double after split, no resplit of aces, no surrender;
    a 10 s betting window with last call at 3 s left, 30 s a decision."""
    variant: ClassVar[None] = None      # one game, no variants (config.model.GameOptions)

    min_bet: int = option(2, as_int, 1, MAX_CHIPS)
    max_bet: int = option(1_000, as_int, 1, MAX_CHIPS)
    decks: int = option(6, as_int, 1, 8)
    penetration: int = option(75, as_int, 50, 90)          # percent of the shoe dealt before the cut card
    blackjack_pays: str = option("3:2", as_pays)
    soft_17: str = option("stand", as_word(SOFT_17))
    max_hands: int = option(4, as_int, 1, 8)               # hands a player may split into (1: no split)
    double_after_split: bool = option(True, as_yes_no)
    resplit_aces: bool = option(False, as_yes_no)
    surrender: str = option("none", as_word(SURRENDER))
    bet_window: float = option(10, as_int, 2, 600)
    last_call: float = option(3, as_int, 0, 599)           # seconds left when the last call is made; 0: none
    decision_seconds: float = option(30, as_int, 1, 3600)

    @property
    def pays(self) -> Fraction:
        """What a player blackjack pays for one chip bet (3/2 or 6/5)."""
        return PAYS[self.blackjack_pays]

    @property
    def bet_unit(self) -> int:
        """Bets are multiples of this, so every payout is whole chips: 2 at 3:2
        (a blackjack pays 3 for 2; a surrender's half is whole), 5 at 6:5, or
        10 at 6:5 with surrender (half of a multiple of 5 is not always whole)."""
        if self.blackjack_pays == "3:2":
            return 2
        return 10 if self.surrender == "late" else 5

    @property
    def hits_soft_17(self) -> bool:
        return self.soft_17 == "hit"

    def problems(self) -> list[str]:
        """Why these options make no table, one line each (empty: fine)."""
        out = limit_problems(self)
        if not out and self.max_bet < self.bet_unit:
            out.append(f"max_bet ({self.max_bet}) is below one bet unit ({self.bet_unit}) of this table")
        if self.blackjack_pays not in PAYS:
            out.append(f"blackjack_pays must be \"3:2\" or \"6:5\" (got {self.blackjack_pays!r})")
        if self.soft_17 not in SOFT_17:
            out.append(f"soft_17 must be stand or hit (got {self.soft_17!r})")
        if self.surrender not in SURRENDER:
            out.append(f"surrender must be none or late (got {self.surrender!r})")
        for name, lo, hi in (("decks", 1, 8), ("penetration", 50, 90), ("max_hands", 1, 8)):
            value = getattr(self, name)
            if type(value) is not int or not lo <= value <= hi:
                out.append(f"{name} must be a whole number from {lo} to {hi} (got {value!r})")
        for name in ("double_after_split", "resplit_aces"):
            if not isinstance(getattr(self, name), bool):
                out.append(f"{name} must be true or false (got {getattr(self, name)!r})")
        out += seconds_problems(self, ("bet_window", "last_call", "decision_seconds"))
        window = None if out else window_problem(self.bet_window, self.last_call)
        return out + ([window] if window else [])


BLACKJACK_FIELDS = (Field("max_players", as_int, 7, 1, 7), *rows_of(BlackjackOptions))


def read(entry: OptionsReader) -> Built[BlackjackOptions]:
    """A `game: blackjack` entry: every key checked, each problem with its file and line."""
    v = entry.read(BLACKJACK_FIELDS)
    check_limits(entry, v)
    check_window(entry, v)
    players = v.pop("max_players")
    options = BlackjackOptions(**v)
    if v.ok("min_bet", "blackjack_pays", "surrender") and options.min_bet % options.bet_unit:
        entry.error("min_bet", f"{options.min_bet:,} is not a multiple of {options.bet_unit}, "
                               f"this table's bet unit (every payout in whole chips)")
    return Built(players, options.min_bet, options.max_bet, options)


BLACKJACK_KEYS = TableKeys(
    read=read,
    top=tuple(f.name for f in BLACKJACK_FIELDS),
    rows=BLACKJACK_FIELDS,
)

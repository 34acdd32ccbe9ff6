"""The house edge of basic strategy at a table: exact for an infinite shoe.

Method: every first deal (the player's two cards, the dealer's up card) is
weighed by its chance in an infinite shoe (1/13 a rank, 4/13 a ten-value
card; two ten-value cards are a splittable pair only when of one rank, 1/4 of
the time). The dealer peeks under an ace or a ten: a dealer blackjack takes
the original bet (a player blackjack pushes); otherwise the player's
blackjack is paid `pays` and any other hand is worth the best of its allowed
plays (strategy.ranked: hit, stand, double, split to max_hands with resplits
and double after split as the table allows, late surrender), every
expectation taken on the dealer's final totals given no blackjack. The
result is a Fraction: no simulation, no rounding.

What "exact for an infinite shoe" leaves out: the removal of the cards
already seen, which favours the player the fewer the decks (by Wong's deck
effects, roughly 0.6% / decks: a six-deck shoe about 0.1% better than this
figure, one deck about 0.6%), and the cut card, which favours the dealer a
little; simulate.py measures both for the table's own shoe. The
standard approximations that a finite-shoe calculator has to make for splits
(each split hand played as if alone, its expectation from the pair's rank
only) are exact here, since an infinite shoe makes the split hands
independent. Insurance is never taken (basic strategy declines it: it pays
2:1 on a 4/13 chance, -1/13 a unit). The edge is the expected loss per unit
of the original bet (doubles and splits raise what is wagered, not the
divisor), as the published figures are.

The estimate for the configured shoe (decks, penetration) is simulated by
server.games.blackjack.simulate; `odds_lines` gives both to `casino odds`.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from server.config.model import GameOptions, TableConfig
from server.games.seam import OddsSheet

from .options import BlackjackOptions
from .simulate import Estimate, simulate
from .strategy import CARDS, P, SAME_RANK, Rules, dealer_blackjack, ranked


def _two_cards() -> list[tuple[int, int, int, Fraction]]:
    """Each first two cards as (first, second, pair rank or 0, chance), unordered:
    ten-value cards of one rank (a pair) and of two ranks (hard 20) apart."""
    out = []
    for a in CARDS:
        for b in CARDS:
            if b < a:
                continue
            chance = P[a] * P[b] * (1 if a == b else 2)
            if a == b == 10:
                out += [(10, 10, 10, 4 * SAME_RANK ** 2), (10, 10, 0, chance - 4 * SAME_RANK ** 2)]
            else:
                out.append((a, b, a if a == b else 0, chance))
    return out


TWO_CARDS = _two_cards()


@lru_cache(maxsize=None)
def player_ev(rules: Rules) -> Fraction:
    """The basic-strategy player's expected result per unit bet, a whole round, exactly."""
    ev = Fraction(0)
    for up in CARDS:
        peek = dealer_blackjack(up)
        for a, b, pair, chance in TWO_CARDS:
            if {a, b} == {1, 10}:
                hand = (1 - peek) * rules.pays           # a dealer blackjack pushes it
            else:
                best = ranked(rules, a + b, a == 1 or b == 1, True, pair, up, True, True, True)[0][1]
                hand = -peek + (1 - peek) * best
            ev += P[up] * chance * hand
    return ev


def infinite_shoe_edge(options: BlackjackOptions) -> Fraction:
    """The house edge of basic strategy, exact for an infinite shoe (a fraction of the bet)."""
    return -player_ev(Rules.of(options))


# --- for `casino odds` ----------------------------------------------------------------

ODDS_ROUNDS = 100_000     # rounds simulated for the sheet: ~1.5 s, the edge to about +-0.7%
ODDS_SEED = 40            # fixed, so the sheet reads the same each time (issue 40)

# each rule, by its value, in the words of the sheet's heading
RULE_WORDS: tuple[tuple[str, dict[object, str]], ...] = (
    ("soft_17", {"stand": "dealer stands on soft 17", "hit": "dealer hits soft 17"}),
    ("blackjack_pays", {"3:2": "blackjack pays 3:2", "6:5": "blackjack pays 6:5"}),
    ("double_after_split", {True: "double after split", False: "no double after split"}),
    ("resplit_aces", {True: "resplit aces", False: "no resplit of aces"}),
    ("surrender", {"late": "late surrender", "none": "no surrender"}),
)


def rules_words(options: BlackjackOptions) -> str:
    """'6 decks cut at 75%, dealer stands on soft 17, blackjack pays 3:2, split to 4 hands, ...'"""
    words = [f"{options.decks} deck{'s' * (options.decks > 1)} cut at {options.penetration}%"]
    words += [table[getattr(options, name)] for name, table in RULE_WORDS]
    words.insert(3, f"split to {options.max_hands} hands" if options.max_hands > 1 else "no split")
    return ", ".join(words)


@lru_cache(maxsize=None)
def _estimate(options: BlackjackOptions, rounds: int, seed: int) -> Estimate:
    return simulate(options, rounds, seed)


def shoe_estimate(options: BlackjackOptions, rounds: int | None = None, seed: int | None = None) -> Estimate:
    """The simulated edge of this table's own shoe (simulate.simulate), ODDS_ROUNDS rounds
    from ODDS_SEED unless told; once a process for each table's options (`casino odds`
    may ask for a sheet more than once)."""
    return _estimate(options, ODDS_ROUNDS if rounds is None else rounds, ODDS_SEED if seed is None else seed)


def odds_rows(options: BlackjackOptions, rounds: int | None = None,
              seed: int | None = None) -> tuple[tuple[str, Fraction], ...]:
    """The sheet's rows: the exact infinite-shoe edge, then the shoe's estimate and its interval."""
    shoe = shoe_estimate(options, rounds, seed)
    name = f"{options.decks}-deck shoe"
    return (("infinite shoe", infinite_shoe_edge(options)),
            (name, Fraction(shoe.edge)), (f"{name} low", Fraction(shoe.low)),
            (f"{name} high", Fraction(shoe.high)))


def odds_lines(options: BlackjackOptions, rounds: int | None = None, seed: int | None = None) -> list[str]:
    """The house edge of basic strategy at these rules, in words, with how each was found."""
    exact = infinite_shoe_edge(options)
    shoe = shoe_estimate(options, rounds, seed)
    return [
        f"Rules: {rules_words(options)}.",
        f"House edge of basic strategy, infinite shoe: {float(exact):.3%} (exact: every deal weighed "
        f"by its chance, the dealer's totals given no blackjack).",
        f"House edge of basic strategy, this shoe: {shoe.edge:.2%}, 95% interval {shoe.low:.2%} to "
        f"{shoe.high:.2%} ({shoe.rounds:,} rounds simulated, seed {ODDS_SEED if seed is None else seed}).",
    ]


def odds_sheet(config: TableConfig[GameOptions]) -> OddsSheet:
    """`casino odds` for a blackjack table: the catalogue entry's `odds`."""
    table = config.narrowed(BlackjackOptions)
    heading = f"{table.id}: blackjack, {rules_words(table.options)}, bets {table.min_bet}..{table.max_bet}"
    return OddsSheet(heading, odds_rows(table.options))

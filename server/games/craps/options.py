"""The keys a craps table reads (`game: craps`, every variant), and their options.

Bank and simplified craps keep their rules under `craps:` (the shape of spec
004), with multiplayer timing under `craps: timing:`; seats and wager limits
are at the top of the entry, with defaults that depend on the variant.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from server.config.keys import Field, Problem, as_id, as_int, describe, option, rows_of
from server.games.craps.variants import BANK, VARIANTS as PLAYED, Variant
from server.games.seam import Built, OptionsReader, TableKeys
from server.games.table_options import check_limits, check_window

MAX_CHIPS = 1_000_000_000


@dataclass(frozen=True)
class CrapsTiming:
    """Table timing for multiplayer craps, in seconds (docs/play-craps.md "Rolling")."""

    window: int = option(10, as_int, 2, 600)           # betting before each roll
    last_call: int = option(3, as_int, 1, 599)         # left in the window at the last call
    shooter: int = option(60, as_int, 1, 3600)         # the shooter's deadline, then the dealer rolls
    autoroll: int = option(3, as_int, 1, 600)          # between autorolls


def as_bar(value: object, raw: str | None = None) -> int | None:
    """Don't pass bars 12, or nothing at all (`none`/null), as in 001."""
    if value is None or value == "none":
        return None
    if value == 12 and not isinstance(value, bool):
        return 12
    raise Problem(f"must be 12 or none, not {describe(value)}")


@dataclass(frozen=True)
class CrapsOptions:
    variant: str = option("bank", as_id, choices=("bank", "simplified", *(v for v in PLAYED if v != "bank")))
    odds: int = option(0, as_int, 0, 1_000_000)                     # 0 = 3-4-5x; N = N times the flat stake
    field_12: int = option(2, as_int, choices=(2, 3))               # field pays 2:1 or 3:1 on 12
    dont_pass_bar: int | None = option(12, as_bar)                  # simplified only: 12 or None (no bar)
    press: str = option("pass", as_id, choices=("pass", "both", "none"))   # simplified only
    dice: str = option("fair", as_id, choices=("fair", "classic"))  # simplified only: classic = C rand(), practice chips
    timing: CrapsTiming = field(default_factory=CrapsTiming)         # the `timing:` section (TIMING_FIELDS)


TIMING_FIELDS = rows_of(CrapsTiming)
CRAPS_FIELDS = rows_of(CrapsOptions)
SIMPLIFIED_ONLY = ("dont_pass_bar", "press", "dice")

# Per variant: (max_players default, max_players ceiling, min_bet default, max_bet default).
# Simplified is a solo table against the house
# (docs/play-simplified-craps.md), minimum 5 as in 001.
VARIANTS = {"bank": (12, 20, 1, 10000), "simplified": (1, 1, 5, 1000)}


def _top_rows(variant: str) -> tuple[Field, ...]:
    players, ceiling, min_bet, max_bet = VARIANTS.get(variant, VARIANTS["bank"])
    return (Field("max_players", as_int, players, 1, ceiling),
            Field("min_bet", as_int, min_bet, 1, MAX_CHIPS),
            Field("max_bet", as_int, max_bet, 1, MAX_CHIPS))


def read(entry: OptionsReader) -> Built[CrapsOptions]:
    sub = entry.section("craps")
    opts = sub.read(CRAPS_FIELDS, skip=("timing",))
    variant = opts["variant"]
    if variant in PLAYED and opts.ok("variant"):
        for key in SIMPLIFIED_ONLY:
            if sub.has(key):
                sub.error(key, f"only for variant simplified, not {variant}")
        for key in ("odds", "field_12"):          # keys a played variant may not read
            if sub.has(key) and key not in PLAYED[variant].table_keys:
                takers = ", ".join(v.key for v in PLAYED.values() if key in v.table_keys)
                sub.error(key, f"only for variants {takers}, not {variant}")
    timing = _timing(sub)
    under = {key: "belongs under craps:" for key in (*(f.name for f in CRAPS_FIELDS), "timing")}
    top = entry.read(_top_rows(variant), skip=("craps",), notes=under)
    check_limits(entry, top)
    return Built(top["max_players"], top["min_bet"], top["max_bet"], CrapsOptions(**opts, timing=timing))


def _timing(sub: OptionsReader) -> CrapsTiming:
    if not sub.has("timing"):
        return CrapsTiming()
    section = sub.section("timing")
    values = section.read(TIMING_FIELDS)
    check_window(section, values, window="window")
    return CrapsTiming(**values)


CRAPS_KEYS = TableKeys(
    read=read,
    top=("max_players", "min_bet", "max_bet", "craps"),
    rows=(*_top_rows("bank"), *CRAPS_FIELDS, *TIMING_FIELDS),
)


def variant_of(options: CrapsOptions) -> Variant:
    """The variant a table's options name (simplified, another package, reads as bank)."""
    return PLAYED.get(options.variant, BANK)

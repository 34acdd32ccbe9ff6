"""Single-zero roulette in the catalogue: its words with their help, its dealer,
its config keys, its `casino odds` sheet, and a wheel for `fair` to name."""
from __future__ import annotations

from server.config.model import GameOptions, TableConfig
from server.dice.kinds import WHEEL
from server.games.seam import GameEntry, OddsSheet
from server.render.width import glue

from .dealer import ACTIONS, make
from .kinds import KINDS, KindInfo
from .odds import house_edges
from .options import RouletteOptions
from .options import ROULETTE_KEYS


def bet_line(info: KindInfo) -> str:
    """One bet in words: its form, what it covers, an example, what it pays."""
    return (f"bet {info.usage} <n> - {info.covers}; e.g. {glue('bet', *info.example.split())}. "
            f"{glue('Pays', f'{info.pays}:1.')}")


def odds_sheet(config: TableConfig[GameOptions]) -> OddsSheet:
    """Every bet's exact edge at this table (la partage changes the even-money ones)."""
    table = config.narrowed(RouletteOptions)
    partage = table.options.la_partage
    heading = (f"{table.id}: single-zero roulette, la partage {'on' if partage else 'off'}, "
               f"bets {table.min_bet}..{table.max_bet}")
    return OddsSheet(heading, tuple(house_edges(partage)))


ROULETTE = GameEntry(
    key="roulette",
    title="Single-zero roulette",
    phrase="single-zero roulette",
    word="roulette",
    game="roulette",
    variant=None,
    summary="a European wheel, 0 and 1-36; every bet against the house",
    actions=ACTIONS,
    keys=ROULETTE_KEYS,
    make=make,
    help_lines=(
        "Bets and what they pay (a win returns the stake too; amounts <n> in whole chips):",
        *(f"  {bet_line(info)}" for info in KINDS.values()),
        "A bare number is a straight bet (bet 17 10). Numbers that do not make the bet are refused "
        "with a reason naming one that does. Zero loses every outside bet (with la partage the "
        "even-money bets get half back).",
        "With others at the wheel the first bet opens a betting window, then a last call, No more "
        "bets, and the ball drops. Leaving forfeits nothing: your bets ride on the next spin and are "
        "paid to your wallet. 'fair' shows the wheel's commitment; the first seated may 'seed <text>'.",
    ),
    topics={info.kind.value: bet_line(info) for info in KINDS.values()},
    odds=odds_sheet,
    draws=WHEEL,
)

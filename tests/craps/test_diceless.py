"""Diceless craps (docs/play-craps-variants.md): bank craps dealt with two cards.
The deal is one draw in [0, 36) split red first, blue second; a pair is hard;
every bet, payout and edge is bank craps'; the words say deal and cards."""
from __future__ import annotations

import pytest

from server.config.model import TableConfig
from server.dice.derive import split_dice
from server.games.catalogue import draw_kinds, entry_for
from server.games.craps import events as ev
from server.games.craps.bets import NUMBERS, POINTS, Bet, Kind
from server.games.craps.cards import CARDS, card_art
from server.games.craps.edge import house_edges
from server.games.craps.options import CrapsOptions
from server.games.craps.outcome import ALL_DICE, TableView, rulebook
from server.games.craps.variants import BANK, DICELESS
from server.games.seam import Viewer
from server.render.prefs import Prefs
from server.render.width import display_width
from support.dice import TableDice
from support.pure_table import PureTable
from support.sweep import Sweep


def config(variant: str = "diceless") -> TableConfig:
    return TableConfig("cards", "craps", 12, 1, 10_000, CrapsOptions(variant=variant))


def test_a_deal_is_one_draw_of_36_split_red_first():
    assert CARDS.outcomes == 36 and CARDS.one == "deal" and CARDS.name == "cards"
    for value in range(36):
        assert CARDS.faces(value) == split_dice(value)
    assert CARDS.say((1, 5)) == "A-h 5-s (total 6)"
    assert CARDS.line(0, 0) == "nonce 0: A-h A-s (total 2)"
    assert CARDS in draw_kinds()                           # casino verify --draw cards
    assert entry_for(config()).draws is CARDS


@pytest.mark.parametrize("unicode", [False, True])
@pytest.mark.parametrize("color", [False, True])
def test_two_small_cards_with_rank_and_pack_fit_40_columns(unicode, color):
    art = card_art((1, 5), Prefs(color=color, unicode=unicode, width=40))
    text = "\n".join(art)
    assert len(art) == 5 and all(display_width(line) <= 40 for line in art)
    if unicode:
        assert "♥" in text and "♠" in text and "A" in text and "5" in text
    else:
        assert "A-h" in text and "5-s" in text
    assert ("\x1b[" in text) is color


def test_every_bet_in_every_state_is_bank_crapss():
    cards, dice = rulebook(2, DICELESS), rulebook(2, BANK)
    sweep = Sweep(bet=[Bet(kind, n, 60) for kind, numbers in NUMBERS.items()
                       # trackers: compared through the edges
                       if kind not in (Kind.FIRE, Kind.SMALL, Kind.TALL, Kind.ALL) for n in numbers or (0,)],
                  state=(0, *POINTS), dice=ALL_DICE)
    for bet, state, d in sweep:
        sweep.expect(cards.outcome(bet, d, TableView(state)), dice.outcome(bet, d, TableView(state)))
    sweep.done()


def test_a_pair_is_hard():
    book = rulebook(2, DICELESS)
    assert book.outcome(Bet(Kind.HARD, 8, 10), (4, 4), TableView(8)).amount == 90
    assert book.outcome(Bet(Kind.HARD, 8, 10), (3, 5), TableView(8)).result.name == "LOSE"


def test_the_edges_are_bank_crapss():
    assert house_edges(config()) == house_edges(config("bank"))


def test_roll_deals_and_the_words_say_deal_and_cards():
    t = PureTable(config(), 10, TableDice([(1, 5), (3, 3)]))
    t.sit("ann", 1000)
    assert t.roles() == {"ann": "has the cards"}
    t.act("ann", ["bet", "pass", "10"], 1000)
    t.act("ann", ["bet", "hard", "6", "10"], 990)
    out = t.act("ann", ["roll"], 980)
    viewer = Viewer("ann", Prefs(), True)
    lines = [line for e in out for line in t.render(e, viewer)]
    text = "\n".join(lines)
    assert "You deal:" in text and "A-h" in text and "5-s" in text
    assert "(A-h + 5-s = 6)" in text and t.state.point == 6
    out = t.act("ann", ["roll"], 980)
    text = "\n".join(line for e in out for line in t.render(e, viewer))
    assert "Hard 6! (3-h + 3-s = 6)" in text
    settled = [e for e in out if isinstance(e, ev.RollSettlement)]
    assert sorted(settled[0].won) == [("hard6", 90), ("pass", 10)]
    data = [d for e in out for d in t.event_data(e) if d[0] == "Casino.Roll"]
    assert data[0][1]["cards"] == ["3-h", "3-s"] and data[0][1]["dice"] == [3, 3]
    view = "\n".join(t.view(Viewer("ann", Prefs(width=40), True)))
    assert "Last deal:" in view and "diceless craps" in view
    assert "Diceless craps: bank craps with cards" in "\n".join(t.rules())

"""Messages of the other games that issue 15 found wrong, rendered as a viewer reads them."""
from __future__ import annotations

from server.games.alley import events as aev
from server.games.alley.view import event_lines as alley_lines
from server.games.seam import Viewer
from server.games.simplified import events as sev
from server.games.simplified.view import Seat
from server.games.simplified.view import event_lines as simplified_lines
from server.games.simplified.rules import Side
from server.render.prefs import Prefs


def viewer(name="ann"):
    return Viewer(name, Prefs(), True)


def test_laid_odds_are_laid_and_taken_odds_taken():
    laid = simplified_lines(sev.OddsPlaced(Side.DONT, 4, 20, 10), Seat("ann"), viewer())
    taken = simplified_lines(sev.OddsPlaced(Side.PASS, 4, 10, 20), Seat("ann"), viewer())
    assert laid == ["You laid 20 in odds on the 4 (wins 10)."]
    assert taken == ["You took 10 in odds on the 4 (wins 20)."]


def test_the_last_player_standing_below_the_buy_in_has_not_won_a_pot():
    down = aev.GameOver("ann", 80, -20, aev.GameEnd.LAST_STANDING)
    text = alley_lines(None, down, viewer())[0]
    assert "won" not in text and "You end with 80, 20 down on the buy-in." in text
    up = aev.GameOver("ann", 300, 200, aev.GameEnd.LAST_STANDING)
    assert "ann has won the total pot of 300 (+200 on the buy-in)." in alley_lines(None, up, viewer("bob"))[0]

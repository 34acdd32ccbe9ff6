"""`hint`: what basic strategy does with a seated player's hand now, in one line.

The play comes from the strategy module (strategy.hint_text: the best of the
plays this hand may make now, worked out for this table's rules, and why);
this module reads the round to say which hand, against which up card, and
which plays are open: the moves table (moves.legal) and the wallet, as the
engine checks them, so a hint never names a play the table would refuse.
Every other moment is answered with the reason there is nothing to advise.
"""
from __future__ import annotations

from .game import BlackjackGame
from .moves import Move, legal
from .rounds import Phase
from .strategy import P, hint_text

# insurance pays 2:1 and wins when the hole card is a ten-value card (4 in 13)
INSURANCE_EV = 2 * P[10] - (1 - P[10])


def insurance_hint(blackjack: bool) -> str:
    """Basic strategy never insures, a blackjack's even money included."""
    what, it = ("even money", "even money is insurance, which") if blackjack else ("insurance", "insurance")
    return (f"Basic strategy: decline {what} ('insurance no') - {it} pays 2:1 on a ten under the ace, "
            f"{P[10].numerator} chances in {P[10].denominator}: {float(INSURANCE_EV):+.1%} of what you insure.")


def hint(game: BlackjackGame, player: str, wallet: int) -> str:
    """The answer to `hint` from `player` (seated; `wallet` their chips now)."""
    r, o = game.round, game.options
    hands = r.hands.get(player)
    if game.phase is Phase.INSURANCE and hands:
        if player in r.answered:
            return "You have answered the insurance question; 'hint' again when your hand's turn comes."
        return insurance_hint(hands[0].blackjack)
    if not hands or game.phase is not Phase.PLAYING:
        when = ("the cards are not out yet" if player in r.bets else "you have no hand in play")
        return f"No hand to advise on: {when}. 'hint' speaks of your hand when its turn comes."
    if r.turn is None or r.turn[0] != player:
        if all(h.done for h in hands):
            return "Your hands are played; the dealer plays once every hand is."
        whose = r.turn[0] if r.turn else "the dealer"
        return f"It is {whose}'s turn; 'hint' speaks of your hand when its turn comes."
    if r.pending is not None:
        return f"One moment: your {r.pending.move} is being staked."
    i = r.turn[1]
    hand = hands[i]
    moves = legal(hand, len(hands), o)
    covered = wallet >= hand.bet            # a double or a split stakes the bet again
    text = hint_text(o, tuple(c.value for c in hand.cards), r.dealer[0].value,
                     can_double=Move.DOUBLE in moves and covered, can_split=Move.SPLIT in moves and covered,
                     can_surrender=Move.SURRENDER in moves, hands=len(hands), can_hit=Move.HIT in moves)
    return (f"Hand {i + 1}: " if len(hands) > 1 else "") + text + "."


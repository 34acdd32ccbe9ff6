"""`table rules` for alley craps: the rules in plain words, as in spec 000's example."""
from __future__ import annotations

from server.games.alley.options import AlleyOptions


def table_rules(options: AlleyOptions, max_players: int = 6) -> list[str]:
    """The lines `table rules` prints at an alley craps table, with this table's numbers."""
    unit, buy_in = options.bet_unit, options.buy_in
    return [
        f"Alley craps: {options.min_players} to {max_players} players bet against each other; "
        "the house takes nothing.",
        f"Each player buys in with {buy_in} chips. One round of play with one person "
        "shooting the dice is a 'pass'.",
        "1) The person with the dice is 'the shooter'. The shooter decides how much they "
        "want to bet, which is called 'the action'.",
        f"2) The action is at least {unit} chips and a multiple of {unit}, up to everything "
        "in the shooter's bankroll.",
        "3) The other players, in seat order, are invited to 'take a piece of the action' "
        f"(fade it): at least {unit}, a multiple of {unit}, up to the part of the action "
        "still uncovered and their own bankroll. Once the action is covered: 'NO MORE BETS', "
        "and nobody later is asked. Only the covered part of the action is at risk.",
        "When all bets are placed, the shooter rolls the dice on the 'come out' roll:",
        "  - a seven or eleven is 'a natural': the shooter wins every fade.",
        "  - a two ('snake-eyes'), three ('ace-deuce') or twelve ('box-cars') 'craps out': "
        "the shooter loses the covered action, each opponent winning their fade.",
        "  - any other number is the shooter's 'point': the shooter rolls until the point "
        "comes again (win) or a seven comes first ('seven out', lose).",
        "4) After a pass everyone's bankroll is shown; the shooter may shoot another pass "
        "(roll) or pass the bones to the next player (pass).",
        "5) A player with no money left is 'cleaned out' and no longer asked. The game ends "
        "when one player holds all the money ('cleaned house') and takes it home.",
        "Who types what: the shooter 'bet <amount>', 'roll', 'pass'; opponents 'fade <amount>', "
        "or 'fade' to decline.",
    ]

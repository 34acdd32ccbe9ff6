"""Single-zero roulette as a pure state machine (RULES.md "Single-zero roulette").

Modules, one idea each: layout (the wheel and the 3x12 layout as data), kinds
(the one table of bet kinds), bets (Bet and the parser), payout (what a bet
returns), odds (exact house edges), options (the table's settings), events
(facts) and wheel (the rounds: window, last call, no more bets, ball drop).
"""

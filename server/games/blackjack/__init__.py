"""Blackjack (RULES.md, "Blackjack"): American rules, a shoe of up to eight decks, up to seven seats."""

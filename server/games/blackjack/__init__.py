"""Blackjack (the pinned rules of blackjack): American rules, a shoe of up to eight decks, up to seven seats."""

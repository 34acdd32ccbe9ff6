"""Blackjack (docs/play-blackjack.md): American rules, a shoe of up to eight decks, up to seven seats."""

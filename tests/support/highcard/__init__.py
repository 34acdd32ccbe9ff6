"""High card: a sixth game that lives only in the tests, to prove that a game
is only its package.

Nothing under server/ names it. A test registers HIGH_CARD through the
catalogue's public API (server.games.catalogue.register), seats it from its
own YAML, and plays it over telnet: every command that lists, describes,
verifies or validates games learns it from this entry alone.
"""
from support.highcard.entry import HIGH_CARD

__all__ = ["HIGH_CARD"]

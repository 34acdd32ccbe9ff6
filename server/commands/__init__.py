"""Every command a person can type, in one registry (server.commands.registry.REGISTRY).

Each module below registers its commands (with their help text) on import.
"""
from server.commands import account, general, movement, money, operator, prefs, relief, stats, tables  # noqa: F401  (register on import)
from server.commands.registry import REGISTRY

__all__ = ["REGISTRY"]

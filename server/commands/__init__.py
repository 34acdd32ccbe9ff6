"""Every command a person can type, in one registry.

Each module below registers its commands (with their help text) on import.
"""
from server.commands.registry import Registry

REGISTRY = Registry()

from server.commands import account, general, movement, money, operator, prefs, tables  # noqa: E402,F401  (register on import)
